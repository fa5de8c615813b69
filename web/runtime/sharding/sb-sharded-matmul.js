// <sb-sharded-matmul spec="A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]" mesh="X=4, Y=4" i="4096"
// j="8192" k="16384" dtype="bf16" chip="tpu-v5e">: the sharded-matmul planner. The engine's
// sharded-matmul calculator finds the case, the collectives to insert and what they cost; this
// element lays its answer out and redoes it as the reader types. The form offers a size field
// for each dimension the spec names (read here only to build the form; the engine checks the
// spec). Errors go beside the field they name, the spec's with the offending character marked.
//
// The worked steps sit in a closed section. Where the page's engine module computes numbers
// only (chapter 5's), opening it fetches the page's explainer (engine.mjs's loadExplainer),
// which then computes every plan with its steps; a pointer or the focus on the summary starts
// that fetch early.
import { loadExplainer } from '../../../bindings/wasm/engine.mjs';
import { SpecWidget } from './spec-widget.js';
import { CALCULATOR, plannerDims, plannerHTML, plannerBodyHTML, plannerDimsHTML, runPlanner } from './planner-view.js';
import './sharding-css.js';

const SUMMARY = 'details.worked > summary';

export class SbShardedMatmul extends SpecWidget {
  static calculator = CALCULATOR;
  static spec = 'spec';
  static loading = 'Loading the planner engine…';

  #explainer = null; // the module that explains, once a reader has opened the steps
  #explaining = null; // its promise, while on the way
  #failure = null; // why it did not come
  #open = false; // the steps' section is open

  start(engine) {
    super.start(engine);
    const root = this.shadowRoot;
    root.addEventListener('toggle', (event) => {
      if (!event.target.matches?.('details.worked')) return;
      this.#open = event.target.open;
      if (this.#open && event.target.hasAttribute('data-explain')) this.#explain();
    }, true);
    const near = (event) => {
      if (event.target.closest?.('details[data-explain] > summary')) this.#explain();
    };
    for (const type of ['pointerover', 'focusin']) root.addEventListener(type, near, { capture: true, passive: true });
  }

  // Fetches the explainer once, then redraws with its steps (the summary keeps the focus).
  #explain() {
    if (this.#explainer || this.#explaining) return;
    this.#failure = null;
    this.#explaining = loadExplainer().then((api) => {
      this.#explainer = api;
    }, () => {
      // Emscripten's own words for a failed fetch ("Aborted(...)") would tell a reader nothing.
      this.#failure = 'The worked steps could not load: the engine module that explains them did not arrive. ' +
        'Close this section and open it again to try again.';
    }).finally(() => {
      this.#explaining = null;
      if (!this.#open) return;
      const focused = this.shadowRoot.activeElement?.matches?.(SUMMARY);
      this.refresh();
      if (focused) this.shadowRoot.querySelector(SUMMARY)?.focus();
    });
  }

  dimNames(values) {
    return plannerDims(this.schema, values);
  }

  html(values, run) {
    return plannerHTML({ schema: this.schema, chips: this.api.chips(), values, run, tex: this.tex, worked: this.#worked() });
  }

  dimsHTML(names, values) {
    return plannerDimsHTML(this.schema, names, values, null);
  }

  run(values) {
    return runPlanner(this.#explainer ?? this.api, this.schema, values);
  }

  body(run) {
    if (!run.result) return null;
    // An open section whose steps this module cannot give asks for the explainer.
    if (this.#open && !run.result.steps?.length && !this.#failure) queueMicrotask(() => this.#explain());
    return plannerBodyHTML(this.schema, run.result, this.tex, this.#worked());
  }

  #worked() {
    return { open: this.#open, onOpen: true, status: this.#failure ?? undefined };
  }
}
