// <sb-gpu-chip compare="tpu-v5p">: chapter 12's GPU against TPU explorer, the gpu-chip form
// for the GPU with both chips drawn side by side after it (chip-view.js). `compare` names the
// other chip (not a calculator input: the element runs gpu-chip a second time for it, in the
// form's number format); the reader changes it in the picture, and zooms both chips at once.
import { SbCalculator } from '../core/sb-calculator.js';
import { schemaDefault } from '../core/widget-form.js';
import { chipExtrasHTML, chipPair, DEFAULT_COMPARE } from './chip-view.js';
import './gpus-css.js';


export class SbGpuChip extends SbCalculator {
  static calculator = 'gpu-chip';
  #engine = null;
  #depth = null;

  #settings(inputs) {
    const schema = this.#engine.schema(this.calculator);
    return {
      chip: inputs?.chip || this.getAttribute('chip') || schemaDefault(schema, 'chip'),
      dtype: inputs?.dtype || this.getAttribute('dtype') || schemaDefault(schema, 'dtype'),
      compare: this.getAttribute('compare') || DEFAULT_COMPARE,
    };
  }

  #extras(result, inputs) {
    if (!this.#engine || !result) return chipExtrasHTML(null);
    try {
      return chipExtrasHTML(chipPair(this.#engine, result, this.#settings(inputs)));
    } catch {
      // A chip the compare attribute names that the engine refuses: the GPU's side alone.
      return chipExtrasHTML(null);
    }
  }

  #redraw(result, inputs, focus = null) {
    const extras = this.shadowRoot.querySelector('[data-extras]');
    if (!extras) return;
    extras.outerHTML = this.#extras(result, inputs);
    this.#zoom(this.#depth);
    if (focus) this.shadowRoot.querySelector(focus)?.focus();
  }

  // Opens every level down to `depth` on both chips and closes the rest (null: as they are).
  #zoom(depth) {
    if (depth === null) return;
    this.#depth = depth;
    const root = this.shadowRoot;
    for (const d of root.querySelectorAll('[data-extras] details[data-level]')) d.open = Number(d.dataset.level) <= depth;
    for (const b of root.querySelectorAll('[data-extras] button[data-depth]')) b.setAttribute('aria-pressed', String(Number(b.dataset.depth) === depth));
  }

  start(engine) {
    this.#engine = engine;
    this.addEventListener('sb-change', (event) => {
      if (event.target === this) this.#redraw(event.detail.result, event.detail.inputs);
    });
    // The picture's own controls live in the shadow root; the calculator's form ignores them.
    this.shadowRoot.addEventListener('change', (event) => {
      const select = event.target.closest?.('select[data-compare]');
      if (!select) return;
      event.stopPropagation();
      this.setAttribute('compare', select.value);
      this.#redraw(this.result, this.inputs, 'select[data-compare]');
    });
    this.shadowRoot.addEventListener('click', (event) => {
      const button = event.target.closest?.('button[data-depth]');
      if (button) this.#zoom(Number(button.dataset.depth));
    });
    super.start(engine);
  }

  afterFormHTML(result) {
    return this.#extras(result, this.inputs);
  }
}
