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
//
// This file is what a reader who only reads runs: the variant bar, the saved answers and badge,
// the hash read, the notices, and listeners. Checking, variants, worked solutions fetched and a
// bare element's shell are exercise-live.js, imported when the reader reaches for the exercise
// or a saved or linked variant must show (a dynamic import, so a page does not preload it).
import { SbWidget } from '../core/widget-base.js';
import { loadGrader } from '../../../bindings/wasm/engine.mjs';
import { adoptSheets } from '../core/sheets.js';
import { seedFromHash, MAX_SEED } from './variant-hash.js';
import { currentProgress, savedProgress, watchProgress } from './page-progress.js';
import './exercise-css.js';

const STYLE_ID = 'sb-exercise-style';
const message = (err) => err?.message ?? String(err);

// Light DOM cannot carry scoped CSS: the book's pages link the exercise sheet (id STYLE_ID),
// any other page gets it adopted into the document, once.
function addStyleOnce() {
  if (document.getElementById(STYLE_ID)) return;
  adoptSheets(document, ['exercise']);
}

// What a reader does that says they are about to answer: the grader comes then, not when the
// exercise merely scrolls past (a pointer crossing it on the way down is no such sign).
const REACHING = ['focusin', 'pointerdown', 'touchstart'];

// Only the page's wiring comes from SbWidget: the book's problem shows (and the element starts)
// before any engine is here, and it lives in the light DOM with notices of its own. Its engine
// is the grader (engine.mjs's loadGrader): the module with the exercises domain, which a
// chapter's own module leaves out.
export class SbExercise extends SbWidget {
  #started = false;
  #shown = false; // the variant bar is up: the hash is followed from then on
  #file = ''; // an island's exercise, as the engine reads it
  #spec = null;
  #seed = 0;
  #live = null; // exercise-live.js's ExerciseLive for this element, once asked for
  #grading = null;
  #notices = new Map();
  #stopWatching = null;
  #onHash = () => this.#followHash();

  get seed() { return this.#seed; }
  get exerciseId() { return this.#spec?.id ?? this.id; }

  // The grader, loading it the first time; a failed load is tried again at the next call.
  grader() {
    this.#grading ??= loadGrader().catch((err) => {
      this.#grading = null;
      throw err;
    });
    return this.#grading;
  }

  // Grades part `index`; resolves once the feedback line is written. Never throws.
  async check(index) {
    try {
      await (await this.#loadLive()).check(index);
    } catch (err) {
      const part = this.#parts()[index];
      if (part) this.#say(part, 'invalid', `This answer cannot be checked: ${message(err)}`);
    }
  }

  // Draws a random variant the engine accepts, shows it and puts it in the URL.
  async newVariant() {
    try {
      await (await this.#loadLive()).newVariant();
    } catch (err) {
      this.#notice('variant', `No variant can be drawn: ${message(err)}.`);
    }
  }

  // The rest of the element (exercise-live.js), loaded the first time; a failed load is tried
  // again at the next call.
  #loadLive() {
    this.#live ??= import('./exercise-live.js').then(({ ExerciseLive }) => new ExerciseLive(this, this.#host()), (err) => {
      this.#live = null;
      throw err;
    });
    return this.#live;
  }

  // What exercise-live.js reads and calls of this element.
  #host() {
    const element = this;
    return {
      file: this.#file,
      spec: this.#spec,
      get seed() { return element.#seed; },
      set seed(seed) {
        element.#seed = seed;
        element.#showVariantBar(seed);
      },
      parts: () => this.#parts(),
      notice: (kind, text) => this.#notice(kind, text),
      say: (part, result, text) => this.#say(part, result, text),
      clearAnswers: () => this.#clearAnswers(),
      showSaved: (restoreAnswers) => this.#showSaved(restoreAnswers),
    };
  }

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
    // What is saved is read before the exercise shows (nothing to read on a first visit).
    const store = await savedProgress().catch((err) => {
      this.#notice('store', `Your saved progress could not be read here: ${message(err)}.`);
      return null;
    });
    this.querySelector('[data-variant-bar]').hidden = false;
    this.#shown = true;
    const saved = store?.get(this.exerciseId);
    if (store && document.querySelector('sb-exercise') === this) {
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
      const failed = (err) => this.#notice('engine',
        `The exercise engine failed to load (${message(err)}): answers cannot be checked.`);
      this.grader().catch(failed);
      this.#loadLive().then((live) => live.reach(), (err) => {
        failed(err);
        return false;
      }).then((ok) => { if (!ok) listen(); });
    };
    listen();
    if (seed !== 0) {
      this.#showSeed(seed, { updateHash: false });
      return;
    }
    // The book's problem, as the build drew it.
    this.#showVariantBar(0);
    this.#clearAnswers();
    this.#showSaved(true);
  }

  // A variant other than the book's (or the book's back after one) is drawn by exercise-live.js.
  #showSeed(seed, options) {
    this.#loadLive().then((live) => live.showSeed(seed, options), (err) => {
      this.#notice('variant', `Variant ${seed} cannot be shown: ${message(err)}. This is the book's problem.`);
    });
  }

  // An island is read at once; a data-src is fetched by exercise-live.js.
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
      return await (await this.#loadLive()).renderShell();
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
      // Without exercise-live.js the solution box keeps its link to the solutions page.
      if (summary && event.target.open) this.#loadLive().then((live) => live.openSolution(event.target), () => {});
    }, true);
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
    const record = currentProgress()?.get(this.exerciseId);
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
    if (!this.#shown) return; // not started yet: #start reads the hash itself
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
