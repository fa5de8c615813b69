// <sb-exercise>: a graded exercise with parts, variants and saved progress. The engine draws
// the variants and grades every answer; this element only shows what it says.
//
// Markup contract (the site builder emits it; light DOM, because the prompt and the solutions
// hold KaTeX markup styled by the page's KaTeX CSS):
//
//   <sb-exercise id="EXERCISE_ID" chapter="01-roofline" data-src="assets/exercises/01-roofline.json">
//     ${exerciseShellHTML({ id, title, promptHTML, hintsHTML, parts })}
//   </sb-exercise>
//
// data-src names the exercise file that holds this exercise (exercise-data.js fetches it, once a
// page, with the grader: when a reader reaches for an exercise, or at once to show a saved or
// linked variant). An element may instead hold its exercise inline, as the first child:
//     <script type="application/json" data-exercise>{"chapter":"01-roofline","exercises":[ONE]}</script>
// (exerciseDataHTML() in exercise-html.js writes it safely). The engine reads either as the
// file text of exerciseVariant and exerciseGrade. The shell (seed 0, typeset at build time) gives the
// hooks used here: [data-prompt], [data-badge], [data-notice], [data-variant-bar] with
// [data-variant-name], [data-variant-link], [data-new-variant], [data-book-variant]; and per
// part, .sb-exercise-part[data-part][data-kind] holding [data-answer] (a text input, or radios),
// [data-check], [data-feedback] (data-result = correct | incorrect | invalid), and
// [data-solution] inside a <details> whose summary is [data-show-solution].
// With no shell inside, the element renders one from the engine (for embedding elsewhere).
//
// The variant on screen follows the URL hash "#ex-ID=SEED" (variant-hash.js), else the seed of
// the last check saved in progress, else the book's problem (seed 0).
import { SbWidget } from '../core/widget-base.js';
import { loadGrader } from '../../../bindings/wasm/engine.mjs';
import { exerciseShellHTML, partSolutionHTML } from './exercise-html.js';
import { adoptSheets } from '../core/sheets.js';
import { seedFromHash, hashWithSeed, randomSeed, MAX_SEED } from './variant-hash.js';
import { pageProgress, announceProgress, watchProgress } from './page-progress.js';
import { canFetchSolutions, fetchSolution } from './solution-page.js';
import { fetchExercise } from './exercise-data.js';
import { focusScrollable } from '../core/scroll-focus.js';
import './exercise-css.js';

const STYLE_ID = 'sb-exercise-style';
const VARIANT_TRIES = 5; // a drawn seed can fail the exercise's conditions; try a few
const message = (err) => err?.message ?? String(err);

// Light DOM cannot carry scoped CSS: the book's pages link the exercise sheet (id STYLE_ID),
// any other page gets it adopted into the document, once.
function addStyleOnce() {
  if (document.getElementById(STYLE_ID)) return;
  adoptSheets(document, ['exercise']);
}

// The browser's Markdown + KaTeX, fetched only when a variant needs it (see typeset.js).
const typeset = () => import('../core/typeset.js');

// What a reader does that says they are about to answer: the grader comes then, not when the
// exercise merely scrolls past (a pointer crossing it on the way down is no such sign).
const REACHING = ['focusin', 'pointerdown', 'touchstart'];
// A Check that waits longer than this for the grader says so, so the click is seen to work.
const WAIT_NOTE_MS = 250;

// Only the page's wiring comes from SbWidget: the book's problem shows (and the element starts)
// before any engine is here, and it lives in the light DOM with notices of its own. Its engine
// is the grader (engine.mjs's loadGrader): the module with the exercises domain, which a
// chapter's own module leaves out.
export class SbExercise extends SbWidget {
  #started = false;
  #file = ''; // the engine's text of this exercise, from the island or the fetched data file
  #spec = null;
  #fetching = null; // the data file's fetch, while it is on its way
  #seed = 0;
  #book = null; // the prerendered seed-0 prompt and solutions, restored by "Book's problem"
  #generation = 0; // the latest variant request; older ones finishing late are dropped
  #notices = new Map();
  #stopWatching = null;
  #onHash = () => this.#followHash();
  #grading = null;

  // The grader, loading it the first time; a failed load is tried again at the next call.
  grader() {
    this.#grading ??= loadGrader().catch((err) => {
      this.#grading = null;
      throw err;
    });
    return this.#grading;
  }

  // This exercise's data (#file, #spec): there already from an island, else fetched from data-src;
  // a failed fetch is tried again at the next call.
  #data() {
    if (this.#spec) return Promise.resolve();
    this.#fetching ??= fetchExercise(this.dataset.src, this.id).then(({ spec, file }) => {
      this.#spec = spec;
      this.#file = file;
      this.#notice('data', '');
    }, (err) => {
      this.#fetching = null;
      throw new Error(`its data did not load (${message(err)})`, { cause: err });
    });
    return this.#fetching;
  }

  // The grader, once this exercise's data is here too: what a check or a variant waits for.
  async #ready() {
    const [engine] = await Promise.all([this.grader(), this.#data()]);
    return engine;
  }

  get seed() { return this.#seed; }
  get exerciseId() { return this.#spec?.id ?? this.id; }

  connectedCallback() {
    addStyleOnce();
    this.#stopWatching ??= watchProgress((ids) => {
      if (!ids || ids.includes(this.exerciseId)) this.#showSaved(false);
    });
    window.addEventListener('hashchange', this.#onHash);
    if (this.#started) return;
    this.#started = true;
    this.#start();
  }

  disconnectedCallback() {
    this.#stopWatching?.();
    this.#stopWatching = null;
    window.removeEventListener('hashchange', this.#onHash);
  }

  async #start() {
    if (!this.#readData()) return;
    if (!this.querySelector('[data-prompt]') && !(await this.#renderShell())) return;
    this.#wire();
    this.#book = {
      prompt: this.querySelector('[data-prompt]').innerHTML,
      solutions: this.#parts().map((p) => p.querySelector('[data-solution]')?.innerHTML ?? ''),
    };
    this.querySelector('[data-variant-bar]').hidden = false;
    const store = pageProgress();
    const saved = store.get(this.exerciseId);
    if (document.querySelector('sb-exercise') === this) {
      store.read(); // only a full read finds what could not be read; said once, at the first exercise
      if (store.notice) this.#notice('store', store.notice);
    }
    const fromHash = seedFromHash(location.hash, this.exerciseId);
    if (fromHash.present && fromHash.seed === null) this.#badHash(fromHash.raw);
    const seed = fromHash.present ? fromHash.seed ?? 0 : saved?.seed ?? 0;
    // Fetch the grader once the reader reaches for this exercise (an answer box focused, a
    // button pressed), so the first Check is quick and a failure shows before anyone types; a
    // saved or linked variant asks for it at once, to show it. The exercise's data comes with
    // it; a failed fetch says so, and the next reach tries again.
    const listen = () => {
      for (const type of REACHING) this.addEventListener(type, reach, { capture: true, passive: true });
    };
    const reach = () => {
      for (const type of REACHING) this.removeEventListener(type, reach, true);
      this.grader().catch((err) => this.#notice('engine',
        `The exercise engine failed to load (${message(err)}): answers cannot be checked.`));
      this.#data().catch((err) => {
        this.#notice('data', `The exercise's data failed to load (${message(err.cause ?? err)}): answers cannot be ` +
          `checked. ${location.protocol === 'file:' ? 'A page opened from disk cannot fetch it: serve the book ' +
          '(scripts/serve).' : 'It is fetched again when you next use the exercise.'}`);
        listen();
      });
    };
    listen();
    await this.#showSeed(seed, { updateHash: false });
  }

  // An island is read at once; a data-src waits for #data().
  #readData() {
    try {
      const script = this.querySelector('script[data-exercise]');
      if (!script && this.dataset.src) return true;
      if (!script) throw new Error('its data is missing');
      this.#file = script.textContent;
      const data = JSON.parse(this.#file);
      this.#spec = data.exercises?.find((e) => e.id === this.id) ?? data.exercises?.[0];
      if (!this.#spec) throw new Error('its data holds no exercise');
      return true;
    } catch (err) {
      this.#notice('data', `This exercise cannot be checked: ${message(err)}.`);
      return false;
    }
  }

  // A bare <sb-exercise> (an embed): the shell is built from the engine's book variant.
  async #renderShell() {
    try {
      const [engine, { renderPrompt, renderTex }] = await Promise.all([this.#ready(), typeset()]);
      const variant = engine.exerciseVariant(this.#file, this.exerciseId, 0);
      this.insertAdjacentHTML('beforeend', exerciseShellHTML({
        id: this.exerciseId,
        title: variant.title,
        promptHTML: renderPrompt(variant.prompt),
        hintsHTML: (this.#spec.hints ?? []).map(renderPrompt),
        parts: variant.parts.map((part, i) => ({
          ...part,
          labelHTML: part.label ? renderPrompt(part.label) : undefined,
          solutionHTML: partSolutionHTML({ ...part, book: this.#spec.parts?.[i]?.book }, renderTex),
        })),
      }));
      return true;
    } catch (err) {
      this.#notice('engine', `This exercise cannot be shown: ${message(err)}.`);
      return false;
    }
  }

  #parts() {
    return [...this.querySelectorAll('.sb-exercise-part')];
  }

  #wire() {
    this.addEventListener('click', (event) => {
      const button = event.target.closest('button');
      if (!button || !this.contains(button)) return;
      if (button.matches('[data-check]')) this.check(this.#parts().indexOf(button.closest('.sb-exercise-part')));
      else if (button.matches('[data-new-variant]')) this.newVariant();
      else if (button.matches('[data-book-variant]')) this.#showSeed(0, { updateHash: true });
    });
    this.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || !event.target.matches?.('[data-answer]')) return;
      event.preventDefault();
      this.check(this.#parts().indexOf(event.target.closest('.sb-exercise-part')));
    });
    // toggle does not bubble; a capturing listener still sees every <details> inside.
    this.addEventListener('toggle', (event) => {
      const summary = event.target.querySelector?.(':scope > [data-show-solution]');
      if (summary) summary.textContent = event.target.open ? 'Hide worked solution' : 'Show worked solution';
      if (summary && event.target.open) {
        focusScrollable(event.target); // a step too wide for a phone scrolls, by keyboard too
        this.#loadSolution(event.target.querySelector('[data-solution]'));
      }
    }, true);
  }

  // The book's solution of a part lives on the chapter's solutions page until first opened
  // (solution-page.js); its box holds a link to it meanwhile, which stays if it cannot come.
  async #loadSolution(box) {
    const link = box?.querySelector(':scope > [data-solution-link]');
    if (!link || !box.dataset.src || this.#seed !== 0 || !canFetchSolutions() || box.hasAttribute('aria-busy')) return;
    box.setAttribute('aria-busy', 'true');
    const note = link.querySelector('[data-solution-error]');
    note?.remove();
    try {
      const html = await fetchSolution(box.dataset.src);
      if (this.#seed !== 0 || !box.contains(link)) return; // a variant replaced it meanwhile
      box.innerHTML = html;
      focusScrollable(box);
      const index = this.#parts().indexOf(box.closest('.sb-exercise-part'));
      if (index >= 0) this.#book.solutions[index] = html;
    } catch (err) {
      link.insertAdjacentHTML('beforeend', '<span data-solution-error></span>');
      link.querySelector('[data-solution-error]').textContent = ` (It could not be loaded here: ${message(err)}.)`;
    } finally {
      box.removeAttribute('aria-busy');
    }
  }

  // Grades part `index`; resolves once the feedback line is written. Never throws.
  async check(index) {
    const part = this.#parts()[index];
    if (!part) return;
    const answer = part.dataset.kind === 'choice'
      ? part.querySelector('[data-answer]:checked')?.value ?? ''
      : part.querySelector('[data-answer]')?.value ?? '';
    const seed = this.#seed;
    let grade;
    const waiting = setTimeout(() => this.#say(part, '', 'Loading the grader…'), WAIT_NOTE_MS);
    try {
      const engine = await this.#ready();
      clearTimeout(waiting);
      grade = engine.exerciseGrade(this.#file, this.exerciseId, seed, index, answer);
    } catch (err) {
      clearTimeout(waiting);
      this.#say(part, 'invalid', `This answer cannot be checked: ${message(err)}`);
      return;
    }
    if (seed !== this.#seed) return; // the variant changed while the engine loaded
    const unread = grade.parsed === null && grade.slip !== 'wrong-unit';
    const result = grade.correct ? 'correct' : unread ? 'invalid' : 'incorrect';
    this.#say(part, result, grade.feedback);
    if (result === 'invalid') return; // an unreadable answer is not an attempt
    const store = pageProgress();
    store.record(this.exerciseId, {
      seed, part: part.dataset.part, parts: this.#parts().map((p) => p.dataset.part), answer, correct: grade.correct,
    });
    // Here, beside the answer, and not only in the progress box at the chapter's end.
    this.#notice('save', store.writeProblem);
    announceProgress([this.exerciseId]);
    this.dispatchEvent(new CustomEvent('sb-graded', {
      bubbles: true, detail: { id: this.exerciseId, seed, part: part.dataset.part, ...grade },
    }));
  }

  // Draws a random variant the engine accepts, shows it and puts it in the URL.
  async newVariant() {
    const [loaded, data] = await Promise.allSettled([this.grader(), this.#data()]);
    if (loaded.status === 'rejected') {
      this.#notice('variant', `No variant can be drawn: the engine failed to load (${message(loaded.reason)}).`);
      return;
    }
    if (data.status === 'rejected') {
      this.#notice('variant', `No variant can be drawn: ${message(data.reason)}.`);
      return;
    }
    const engine = loaded.value;
    let lastError = null;
    for (let i = 0; i < VARIANT_TRIES; i += 1) {
      const seed = randomSeed();
      try {
        const variant = engine.exerciseVariant(this.#file, this.exerciseId, seed);
        await this.#showSeed(seed, { updateHash: true, variant });
        return;
      } catch (err) {
        lastError = err;
      }
    }
    this.#notice('variant', `No variant could be drawn: ${message(lastError)}.`);
  }

  async #showSeed(seed, { updateHash, variant = null }) {
    const generation = ++this.#generation;
    this.#seed = seed;
    this.#notice('variant', '');
    this.#showVariantBar(seed);
    if (updateHash) {
      this.#notice('hash', '');
      history.replaceState(history.state, '', hashWithSeed(location.hash, this.exerciseId, seed));
    }
    this.#clearAnswers();
    if (seed === 0) {
      this.#fill(this.#book.prompt, this.#book.solutions);
      this.#showSaved(true);
      return;
    }
    this.classList.add('is-loading');
    this.setAttribute('aria-busy', 'true');
    try {
      const [engine, { renderPrompt, renderTex }] = await Promise.all([this.#ready(), typeset()]);
      variant ??= engine.exerciseVariant(this.#file, this.exerciseId, seed);
      if (generation !== this.#generation) return;
      this.#fill(renderPrompt(variant.prompt), variant.parts.map((part) => partSolutionHTML(part, renderTex)));
    } catch (err) {
      if (generation !== this.#generation) return;
      this.#notice('variant', `Variant ${seed} cannot be shown: ${message(err)}. This is the book's problem.`);
      this.#seed = 0;
      this.#showVariantBar(0);
      this.#fill(this.#book.prompt, this.#book.solutions);
    } finally {
      if (generation === this.#generation) {
        this.classList.remove('is-loading');
        this.removeAttribute('aria-busy');
      }
    }
    if (generation === this.#generation) this.#showSaved(true);
  }

  #fill(promptHTML, solutions) {
    this.querySelector('[data-prompt]').innerHTML = promptHTML;
    this.#parts().forEach((part, i) => {
      const solution = part.querySelector('[data-solution]');
      if (solution) solution.innerHTML = solutions[i] ?? '';
      const details = solution?.closest('details');
      if (details) details.open = false;
    });
  }

  #showVariantBar(seed) {
    this.dataset.seed = String(seed);
    this.querySelector('[data-variant-name]').textContent = seed === 0 ? "Book's problem" : `Variant ${seed}`;
    const link = this.querySelector('[data-variant-link]');
    link.href = `#ex-${this.exerciseId}=${seed}`;
    link.title = 'A link to this exact problem';
    this.querySelector('[data-book-variant]').hidden = seed === 0;
  }

  #clearAnswers() {
    for (const part of this.#parts()) {
      for (const input of part.querySelectorAll('[data-answer]')) {
        if (input.type === 'radio') input.checked = false;
        else input.value = '';
      }
      this.#say(part, null, '');
    }
  }

  // The solved badge, each part's solved mark and (after a variant change or a reload) the
  // last answers given to this very variant.
  #showSaved(restoreAnswers) {
    const record = pageProgress().get(this.exerciseId);
    const badge = this.querySelector('[data-badge]');
    if (badge) badge.hidden = !record?.solved;
    this.classList.toggle('is-solved', Boolean(record?.solved));
    for (const part of this.#parts()) {
      const saved = record?.parts?.[part.dataset.part];
      part.classList.toggle('is-solved', Boolean(saved?.solved));
      if (!restoreAnswers || !saved?.last_answer || (saved.seed ?? 0) !== this.#seed) continue;
      for (const input of part.querySelectorAll('[data-answer]')) {
        if (input.type === 'radio') input.checked = input.value === saved.last_answer;
        else input.value = saved.last_answer;
      }
    }
  }

  #followHash() {
    if (!this.#book) return; // not started yet: #start reads the hash itself
    const { present, seed, raw } = seedFromHash(location.hash, this.exerciseId);
    if (!present) return; // a plain anchor: keep the variant on screen
    if (seed === null) this.#badHash(raw);
    const wanted = seed ?? 0;
    if (wanted !== this.#seed) this.#showSeed(wanted, { updateHash: false });
  }

  #badHash(raw) {
    const shown = raw.length > 24 ? `${raw.slice(0, 24)}…` : raw;
    this.#notice('hash', `The link asks for variant "${shown}", which is not a variant number ` +
      `(0 to ${MAX_SEED}), so this is the book's problem.`);
  }

  #say(part, result, text) {
    const feedback = part.querySelector('[data-feedback]');
    if (!feedback) return;
    feedback.textContent = text;
    if (result) feedback.dataset.result = result;
    else delete feedback.dataset.result;
  }

  // One line of notices, by kind; an empty text removes that kind.
  #notice(kind, text) {
    if (text) this.#notices.set(kind, text);
    else this.#notices.delete(kind);
    let slot = this.querySelector('[data-notice]');
    if (!slot && !text) return;
    if (!slot) {
      slot = document.createElement('p');
      slot.className = 'sb-exercise-notice';
      slot.dataset.notice = '';
      slot.setAttribute('role', 'status');
      this.prepend(slot);
    }
    slot.textContent = [...this.#notices.values()].join(' ');
    slot.hidden = this.#notices.size === 0;
  }
}
