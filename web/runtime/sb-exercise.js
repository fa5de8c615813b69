// <sb-exercise>: an auto-graded exercise whose answer the engine computes.
//
// Markup contract (the builder emits it; the content is light DOM because the prompt and the
// solution hold KaTeX markup styled by the page's KaTeX CSS):
//
//   <sb-exercise id="ex-critical-batch" calculator="matmul" output="critical_batch"
//                inputs='{"chip":"tpu-v5e"}' answer-unit="tokens" rel-tol="0.02">
//     ${exerciseShellHTML({ id, title, promptHTML, solutionHTML, answerUnit })}
//   </sb-exercise>
//
// Attributes: calculator and output name an engine calculator and one of its outputs; inputs
// is a JSON object of its inputs; answer-unit is a format.js answer unit (the output, in SI
// base units, is converted into it); rel-tol is the relative tolerance (default 0.02).
// Inside, the element uses only these hooks, all made by exerciseShellHTML:
//   [data-answer]         the text input (its <label> names the unit)
//   [data-check]          the Check button (Enter in the input also checks)
//   [data-feedback]       the feedback line; data-result = correct | incorrect | invalid
//   [data-show-solution]  toggles [data-solution], the worked solution, hidden until asked
// With no such markup inside, the element adds a bare shell (no prompt, no solution).
// Progress is not stored.
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { toAnswerUnit } from './format.js';
import { exerciseShellHTML } from './render.js';
import { parseAnswer, checkAnswer } from './answer.js';
import { EXERCISE_CSS } from './styles.js';

const DEFAULT_REL_TOL = 0.02;
const STYLE_ID = 'sb-exercise-style';

// Light DOM cannot carry scoped CSS, so one <style> goes into the document, once.
function addStyleOnce() {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = EXERCISE_CSS;
  document.head.append(style);
}

export class SbExercise extends HTMLElement {
  #wired = false;

  connectedCallback() {
    addStyleOnce();
    if (this.#wired) return;
    this.#wired = true;
    if (!this.querySelector('[data-answer]')) {
      const id = this.id || `sb-exercise-${Math.random().toString(36).slice(2, 8)}`;
      this.insertAdjacentHTML('beforeend', exerciseShellHTML({ id, answerUnit: this.#unit() }));
    }
    this.querySelector('[data-check]')?.addEventListener('click', () => this.check());
    this.querySelector('[data-answer]')?.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        this.check();
      }
    });
    this.querySelector('[data-show-solution]')?.addEventListener('click', () => this.#toggleSolution());
  }

  // Grades the typed answer; resolves when the feedback line is written. Never throws.
  async check() {
    const answer = parseAnswer(this.querySelector('[data-answer]')?.value);
    const unit = this.#unit();
    if (answer === null) {
      this.#say('invalid', unit ? `Enter a number (in ${unit})` : 'Enter a number');
      return;
    }
    let expected;
    try {
      expected = await this.#expected();
    } catch (err) {
      this.#say('invalid', `This exercise cannot be checked: ${err?.message ?? err}`);
      return;
    }
    const { correct, hint } = checkAnswer(answer, expected, this.#relTol());
    if (correct) this.#say('correct', 'Correct');
    else this.#say('incorrect', hint ? `Not quite: ${hint}` : 'Not quite');
  }

  #unit() {
    return this.getAttribute('answer-unit') ?? '';
  }

  #relTol() {
    const tol = Number(this.getAttribute('rel-tol') ?? DEFAULT_REL_TOL);
    return Number.isFinite(tol) && tol >= 0 ? tol : DEFAULT_REL_TOL;
  }

  // The engine's output, in the answer unit. Recomputed per check: attributes may change.
  async #expected() {
    const engine = await loadEngine();
    const calculator = this.getAttribute('calculator') ?? '';
    const output = this.getAttribute('output') ?? '';
    let inputs;
    try {
      inputs = JSON.parse(this.getAttribute('inputs') || '{}');
    } catch {
      throw new Error('its inputs attribute is not valid JSON');
    }
    const value = engine.calculate(calculator, inputs)[output];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new Error(`${calculator} gives no number named "${output}"`);
    }
    return toAnswerUnit(value, this.#unit());
  }

  #say(result, text) {
    const feedback = this.querySelector('[data-feedback]');
    if (!feedback) return;
    feedback.textContent = text;
    feedback.dataset.result = result;
  }

  #toggleSolution() {
    const button = this.querySelector('[data-show-solution]');
    const solution = this.querySelector('[data-solution]');
    if (!solution) return;
    solution.hidden = !solution.hidden;
    button.setAttribute('aria-expanded', String(!solution.hidden));
    button.textContent = solution.hidden ? 'Show worked solution' : 'Hide worked solution';
  }
}
