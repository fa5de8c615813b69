// What an <sb-exercise> (sb-exercise.js) does once a reader reaches for it, or a saved or linked
// variant must show: the exercise's data fetched, an answer checked and saved, a variant drawn,
// a worked solution fetched from the solutions page, the shell of an exercise embedded bare.
// A reader who only reads never loads it: the element imports it then, by import().
//
// The element keeps what a page shows before that (the variant bar, the saved answers, the
// notices) and the grader (its grader()), and hands this its `host`: { file, spec } (from an
// inline island, else empty: the data comes from data-src), the seed on screen (`seed`, whose
// setter also names it in the variant bar), parts(), notice(kind, text), say(part, result,
// text), clearAnswers() and showSaved(restoreAnswers).
import { exerciseShellHTML, partSolutionHTML } from './exercise-html.js';
import { hashWithSeed, randomSeed } from './variant-hash.js';
import { writableProgress, announceProgress } from './page-progress.js';
import { canFetchSolutions, fetchSolution } from './solution-page.js';
import { fetchExercise } from './exercise-data.js';
import { focusScrollable } from '../core/scroll-focus.js';

const VARIANT_TRIES = 5; // a drawn seed can fail the exercise's conditions; try a few
// A Check that waits longer than this for the grader says so, so the click is seen to work.
const WAIT_NOTE_MS = 250;
const message = (err) => err?.message ?? String(err);

// The browser's Markdown + KaTeX, fetched only when a variant needs it (see typeset.js).
const typeset = () => import('../core/typeset.js');

export class ExerciseLive {
  #element;
  #host;
  #file;
  #spec;
  #fetching = null; // the data file's fetch, while it is on its way
  #book = null; // the prerendered seed-0 prompt and solutions, restored by "Book's problem"
  #generation = 0; // the latest variant request; older ones finishing late are dropped

  constructor(element, host) {
    this.#element = element;
    this.#host = host;
    this.#file = host.file;
    this.#spec = host.spec;
  }

  // What a reach for the exercise starts here (the element has asked for the grader): the
  // data, its failure said in the notice line, and the store a check saves with. Resolves false
  // when the data failed (the element listens for the next reach).
  reach() {
    writableProgress().catch(() => {}); // a failure is said by the check that needs it
    return this.#data().then(() => true, (err) => {
      this.#host.notice('data', `The exercise's data failed to load (${message(err.cause ?? err)}): answers cannot be ` +
        `checked. ${location.protocol === 'file:' ? 'A page opened from disk cannot fetch it: serve the book ' +
        '(scripts/serve).' : 'It is fetched again when you next use the exercise.'}`);
      return false;
    });
  }

  // This exercise's data (#file, #spec): there already from an island, else fetched from data-src;
  // a failed fetch is tried again at the next call.
  #data() {
    if (this.#spec) return Promise.resolve();
    this.#fetching ??= fetchExercise(this.#element.dataset.src, this.#element.id).then(({ spec, file }) => {
      this.#spec = spec;
      this.#file = file;
      this.#host.notice('data', '');
    }, (err) => {
      this.#fetching = null;
      throw new Error(`its data did not load (${message(err)})`, { cause: err });
    });
    return this.#fetching;
  }

  // The grader, once this exercise's data is here too: what a check or a variant waits for.
  async #ready() {
    const [engine] = await Promise.all([this.#element.grader(), this.#data()]);
    return engine;
  }

  get #id() { return this.#element.exerciseId; }

  // The book's problem as the page shows it now, kept the first time a variant may replace it.
  #keepBook() {
    this.#book ??= {
      prompt: this.#element.querySelector('[data-prompt]').innerHTML,
      solutions: this.#host.parts().map((p) => p.querySelector('[data-solution]')?.innerHTML ?? ''),
    };
  }

  // A bare <sb-exercise> (an embed): the shell is built from the engine's book variant.
  async renderShell() {
    try {
      const [engine, { renderPrompt, renderTex }] = await Promise.all([this.#ready(), typeset()]);
      const variant = engine.exerciseVariant(this.#file, this.#id, 0);
      this.#element.insertAdjacentHTML('beforeend', exerciseShellHTML({
        id: this.#id,
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
      this.#host.notice('engine', `This exercise cannot be shown: ${message(err)}.`);
      return false;
    }
  }

  // A worked solution opened (`details`): one too wide for a phone scrolls, by keyboard too, and
  // the book's, while it lives on the chapter's solutions page (solution-page.js), is fetched;
  // its box holds a link to it meanwhile, which stays if it cannot come.
  async openSolution(details) {
    focusScrollable(details);
    const box = details.querySelector('[data-solution]');
    const link = box?.querySelector(':scope > [data-solution-link]');
    if (!link || !box.dataset.src || this.#host.seed !== 0 || !canFetchSolutions() || box.hasAttribute('aria-busy')) return;
    this.#keepBook();
    box.setAttribute('aria-busy', 'true');
    const note = link.querySelector('[data-solution-error]');
    note?.remove();
    try {
      const html = await fetchSolution(box.dataset.src);
      if (this.#host.seed !== 0 || !box.contains(link)) return; // a variant replaced it meanwhile
      box.innerHTML = html;
      focusScrollable(box);
      const index = this.#host.parts().indexOf(box.closest('.sb-exercise-part'));
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
    const part = this.#host.parts()[index];
    if (!part) return;
    const answer = part.dataset.kind === 'choice'
      ? part.querySelector('[data-answer]:checked')?.value ?? ''
      : part.querySelector('[data-answer]')?.value ?? '';
    const seed = this.#host.seed;
    let grade;
    const waiting = setTimeout(() => this.#host.say(part, '', 'Loading the grader…'), WAIT_NOTE_MS);
    try {
      const engine = await this.#ready();
      clearTimeout(waiting);
      grade = engine.exerciseGrade(this.#file, this.#id, seed, index, answer);
    } catch (err) {
      clearTimeout(waiting);
      this.#host.say(part, 'invalid', `This answer cannot be checked: ${message(err)}`);
      return;
    }
    if (seed !== this.#host.seed) return; // the variant changed while the engine loaded
    const unread = grade.parsed === null && grade.slip !== 'wrong-unit';
    const result = grade.correct ? 'correct' : unread ? 'invalid' : 'incorrect';
    this.#host.say(part, result, grade.feedback);
    if (result === 'invalid') return; // an unreadable answer is not an attempt
    let store;
    try {
      store = await writableProgress();
    } catch (err) {
      this.#host.notice('save', `Your answer could not be saved: ${message(err)}. Nothing saved before is lost.`);
      return;
    }
    store.record(this.#id, {
      seed, part: part.dataset.part, parts: this.#host.parts().map((p) => p.dataset.part), answer, correct: grade.correct,
    });
    // Here, beside the answer, and not only in the progress box at the chapter's end.
    this.#host.notice('save', store.writeProblem);
    announceProgress([this.#id]);
    this.#element.dispatchEvent(new CustomEvent('sb-graded', {
      bubbles: true, detail: { id: this.#id, seed, part: part.dataset.part, ...grade },
    }));
  }

  // Draws a random variant the engine accepts, shows it and puts it in the URL.
  async newVariant() {
    const [loaded, data] = await Promise.allSettled([this.#element.grader(), this.#data()]);
    if (loaded.status === 'rejected') {
      this.#host.notice('variant', `No variant can be drawn: the engine failed to load (${message(loaded.reason)}).`);
      return;
    }
    if (data.status === 'rejected') {
      this.#host.notice('variant', `No variant can be drawn: ${message(data.reason)}.`);
      return;
    }
    const engine = loaded.value;
    let lastError = null;
    for (let i = 0; i < VARIANT_TRIES; i += 1) {
      const seed = randomSeed();
      try {
        const variant = engine.exerciseVariant(this.#file, this.#id, seed);
        await this.showSeed(seed, { updateHash: true, variant });
        return;
      } catch (err) {
        lastError = err;
      }
    }
    this.#host.notice('variant', `No variant could be drawn: ${message(lastError)}.`);
  }

  async showSeed(seed, { updateHash, variant = null }) {
    this.#keepBook();
    const generation = ++this.#generation;
    this.#host.seed = seed;
    this.#host.notice('variant', '');
    if (updateHash) {
      this.#host.notice('hash', '');
      history.replaceState(history.state, '', hashWithSeed(location.hash, this.#id, seed));
    }
    this.#host.clearAnswers();
    if (seed === 0) {
      this.#fill(this.#book.prompt, this.#book.solutions);
      this.#host.showSaved(true);
      return;
    }
    const element = this.#element;
    element.classList.add('is-loading');
    element.setAttribute('aria-busy', 'true');
    try {
      const [engine, { renderPrompt, renderTex }] = await Promise.all([this.#ready(), typeset()]);
      variant ??= engine.exerciseVariant(this.#file, this.#id, seed);
      if (generation !== this.#generation) return;
      this.#fill(renderPrompt(variant.prompt), variant.parts.map((part) => partSolutionHTML(part, renderTex)));
    } catch (err) {
      if (generation !== this.#generation) return;
      this.#host.notice('variant', `Variant ${seed} cannot be shown: ${message(err)}. This is the book's problem.`);
      this.#host.seed = 0;
      this.#fill(this.#book.prompt, this.#book.solutions);
    } finally {
      if (generation === this.#generation) {
        element.classList.remove('is-loading');
        element.removeAttribute('aria-busy');
      }
    }
    if (generation === this.#generation) this.#host.showSaved(true);
  }

  #fill(promptHTML, solutions) {
    this.#element.querySelector('[data-prompt]').innerHTML = promptHTML;
    this.#host.parts().forEach((part, i) => {
      const solution = part.querySelector('[data-solution]');
      if (solution) solution.innerHTML = solutions[i] ?? '';
      const details = solution?.closest('details');
      if (details) details.open = false;
    });
  }
}
