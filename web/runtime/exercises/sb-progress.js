// <sb-progress>: the reader's progress, for one chapter or for the whole book, with reset,
// export and import. It renders into a shadow root (no KaTeX inside) and re-reads the page's
// progress store whenever an exercise on the page or another tab changes it.
//
//   <sb-progress chapter="01-roofline" exercises='["id1","id2"]'></sb-progress>
//     "N of M solved · K attempted", the chapter's exercises (links to #ID; the title is taken
//     from the exercise on the page, or given as {"id": ..., "title": ...}), Reset this
//     chapter (confirmed inside the element), Export, Import.
//   <sb-progress book='{"01-roofline":{"title":"Rooflines","exercises":["id1"],"href":"01-roofline.html"}}'>
//     one row per chapter (href defaults to CHAPTER.html; only a relative or http(s) one
//     becomes a link) and the totals, Export, Import.
// "Attempted" counts every exercise checked at least once, solved ones included. Copies of
// progress that could not be read (backups) are listed with a Restore button each. Drawing it
// only reads the progress (and reads nothing while nothing is saved); Reset, Import and Restore
// write, with the store that comes when first used (page-progress.js).
import { summarize, exerciseStatus } from './progress-counts.js';
import {
  currentProgress, readProgress, savedProgress, writableProgress, announceProgress, watchProgress,
} from './page-progress.js';
import { adoptSheets, sheetsOf } from '../core/sheets.js';
import { escapeHTML } from '../core/escape.js';
import { safeHref } from '../core/safe-url.js';
import './exercise-css.js';

const STATUS_TEXT = { solved: 'solved', attempted: 'attempted', new: 'not tried' };
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

function parseJSON(text, fallback) {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

// The chapter's exercises as [{ id, title }] from the attribute (ids or {id, title} objects).
function chapterExercises(attribute) {
  const list = parseJSON(attribute ?? '[]', null);
  if (!Array.isArray(list)) return null;
  return list.map((item) => (typeof item === 'string' ? { id: item, title: '' } : { id: String(item?.id), title: item?.title ?? '' }));
}

// The book's chapters as [{ chapter, title, href, ids }].
function bookChapters(attribute) {
  const book = parseJSON(attribute, null);
  if (!book || typeof book !== 'object' || Array.isArray(book)) return null;
  return Object.entries(book).map(([chapter, info]) => ({
    chapter,
    title: info?.title ?? chapter,
    href: safeHref(typeof info?.href === 'string' ? info.href : `${chapter}.html`),
    ids: (Array.isArray(info?.exercises) ? info.exercises : []).map((e) => (typeof e === 'string' ? e : String(e?.id))),
  }));
}

function titleOf(exercise) {
  if (exercise.title) return exercise.title;
  const onPage = document.getElementById(exercise.id)?.querySelector('.sb-exercise-title');
  return onPage?.textContent.trim() || exercise.id;
}

// Export and Import, after the chapter's reset (if any), on one row.
const actionsHTML = (reset) => `<div class="actions">${reset}
<button type="button" data-export>Export</button>
<label class="file-button">Import<input type="file" accept=".json,application/json" data-import></label>
</div>
<p class="message" data-message role="status" aria-live="polite"></p>`;

export class SbProgress extends HTMLElement {
  #stopWatching = null;

  connectedCallback() {
    this.#stopWatching ??= watchProgress(() => this.#update());
    if (this.shadowRoot) {
      this.#update();
      return;
    }
    this.attachShadow({ mode: 'open' });
    // Drawn once what is saved has been read, so the counts it shows first are the right ones.
    savedProgress().catch(() => null).then(() => {
      this.#render();
      this.#update();
    });
  }

  disconnectedCallback() {
    this.#stopWatching?.();
    this.#stopWatching = null;
  }

  get #isBook() { return this.hasAttribute('book'); }

  #ids() {
    if (this.#isBook) return (bookChapters(this.getAttribute('book')) ?? []).flatMap((c) => c.ids);
    return (chapterExercises(this.getAttribute('exercises')) ?? []).map((e) => e.id);
  }

  #render() {
    const reset = this.#isBook ? '' : `<button type="button" data-reset>Reset this chapter</button>
<span class="confirm" data-confirm hidden>Forget your answers to this chapter's exercises?
<button type="button" class="danger" data-confirm-reset>Reset</button>
<button type="button" data-cancel-reset>Cancel</button></span>`;
    const body = this.#isBook
      ? `<table><thead><tr><th scope="col">Chapter</th><th scope="col">Solved</th><th scope="col">Attempted</th>` +
        `<th scope="col">Exercises</th></tr></thead><tbody data-rows></tbody><tfoot data-totals></tfoot></table>`
      : '<ul class="list" data-list></ul>';
    adoptSheets(this.shadowRoot, sheetsOf(this.localName));
    this.shadowRoot.innerHTML = `<section class="sb-progress">` +
      `<p class="heading">Your progress</p><p class="notice" data-notice role="status" hidden></p>` +
      `<p class="summary" data-summary></p>${body}${actionsHTML(reset)}` +
      `<div class="backups" data-backups hidden><p>Copies of progress this browser set aside:</p><ul></ul></div></section>`;
    const root = this.shadowRoot;
    root.addEventListener('click', (event) => this.#onClick(event.target.closest('button')));
    root.querySelector('[data-import]').addEventListener('change', (event) => this.#import(event.target));
  }

  // Re-reads the store and refreshes the counts; the buttons and messages stay as they are.
  #update() {
    const root = this.shadowRoot;
    if (!root?.querySelector('[data-summary]')) return;
    const store = currentProgress();
    const state = store?.read() ?? { exercises: {} };
    const notice = root.querySelector('[data-notice]');
    notice.textContent = store?.notice ?? '';
    notice.hidden = !notice.textContent;
    const backups = store?.backups() ?? [];
    this.#updateBackups(backups);
    // A backup listed is there to be restored: have the store that writes ready for it.
    if (backups.length) writableProgress().catch(() => {});
    if (this.#isBook) this.#updateBook(state);
    else this.#updateChapter(state);
  }

  #updateChapter(state) {
    const root = this.shadowRoot;
    const exercises = chapterExercises(this.getAttribute('exercises'));
    if (!exercises) {
      root.querySelector('[data-summary]').textContent = 'This progress view has no list of exercises.';
      return;
    }
    const { solved, attempted, total } = summarize(state, exercises.map((e) => e.id));
    root.querySelector('[data-summary]').textContent = `${solved} of ${total} solved · ${attempted} attempted`;
    root.querySelector('[data-list]').innerHTML = exercises.map((exercise) => {
      const status = exerciseStatus(state.exercises[exercise.id]);
      return `<li data-exercise="${escapeHTML(exercise.id)}" data-status="${status}">` +
        `<a href="#${escapeHTML(exercise.id)}">${escapeHTML(titleOf(exercise))}</a>` +
        `<span class="status status-${status}">${STATUS_TEXT[status]}</span></li>`;
    }).join('');
  }

  #updateBook(state) {
    const root = this.shadowRoot;
    const chapters = bookChapters(this.getAttribute('book'));
    if (!chapters) {
      root.querySelector('[data-summary]').textContent = 'This progress view has no list of chapters.';
      return;
    }
    const all = summarize(state, chapters.flatMap((c) => c.ids));
    root.querySelector('[data-summary]').textContent = `${all.solved} of ${all.total} exercises solved · ${all.attempted} attempted`;
    root.querySelector('[data-rows]').innerHTML = chapters.map((c) => {
      const s = summarize(state, c.ids);
      const title = c.href ? `<a href="${escapeHTML(c.href)}">${escapeHTML(c.title)}</a>` : escapeHTML(c.title);
      return `<tr data-chapter="${escapeHTML(c.chapter)}"><th scope="row">${title}</th>` +
        `<td data-solved>${s.solved}</td><td data-attempted>${s.attempted}</td><td data-total>${s.total}</td></tr>`;
    }).join('');
    root.querySelector('[data-totals]').innerHTML = `<tr><th scope="row">All chapters</th>` +
      `<td data-solved>${all.solved}</td><td data-attempted>${all.attempted}</td><td data-total>${all.total}</td></tr>`;
  }

  #updateBackups(keys) {
    const box = this.shadowRoot.querySelector('[data-backups]');
    box.hidden = keys.length === 0;
    box.querySelector('ul').innerHTML = keys.map((key) => `<li><code>${escapeHTML(key)}</code> ` +
      `<button type="button" data-restore="${escapeHTML(key)}">Restore</button></li>`).join('');
  }

  #onClick(button) {
    if (!button) return;
    const confirm = this.shadowRoot.querySelector('[data-confirm]');
    if (button.matches('[data-restore]')) {
      this.#write((store) => {
        const result = store.restore(button.dataset.restore);
        this.#say(result.message, !result.ok);
        if (result.ok) announceProgress(null);
      });
    } else if (button.matches('[data-export]')) this.#export();
    else if (button.matches('[data-reset]')) {
      confirm.hidden = false;
      button.hidden = true;
      confirm.querySelector('[data-cancel-reset]').focus();
    } else if (button.matches('[data-cancel-reset]')) this.#closeConfirm();
    else if (button.matches('[data-confirm-reset]')) {
      const ids = this.#ids();
      this.#write((store) => {
        const count = store.reset(ids);
        this.#closeConfirm();
        this.#say(`This chapter's progress is reset (${plural(count, 'exercise')} forgotten).`);
        announceProgress(ids);
      });
    }
  }

  // Runs `change` with the store that writes; says so when that store cannot load.
  async #write(change) {
    let store;
    try {
      store = await writableProgress();
    } catch (err) {
      this.#say(`Your progress cannot be changed now: ${err?.message ?? err}. Try again.`, true);
      return;
    }
    change(store);
  }

  #closeConfirm() {
    const root = this.shadowRoot;
    root.querySelector('[data-confirm]').hidden = true;
    const reset = root.querySelector('[data-reset]');
    reset.hidden = false;
    reset.focus();
  }

  async #export() {
    let text;
    try {
      text = (currentProgress() ?? await readProgress()).exportText();
    } catch (err) {
      this.#say(`Your progress cannot be exported now: ${err?.message ?? err}. Try again.`, true);
      return;
    }
    const blob = new Blob([text], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'scalebook-progress.json';
    link.hidden = true;
    this.shadowRoot.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
    this.#say('Exported your progress to scalebook-progress.json.');
  }

  async #import(input) {
    const file = input.files?.[0];
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch (err) {
      this.#say(`The file could not be read: ${err?.message ?? err}.`, true);
      return;
    } finally {
      input.value = ''; // choosing the same file again must fire change again
    }
    await this.#write((store) => {
      const result = store.importText(text);
      this.#say(result.message, !result.ok);
      if (result.ok) announceProgress(null);
    });
  }

  #say(text, isError = false) {
    const slot = this.shadowRoot.querySelector('[data-message]');
    slot.textContent = text;
    slot.classList.toggle('error', isError);
  }
}
