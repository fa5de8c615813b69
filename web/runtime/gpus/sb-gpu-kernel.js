// <sb-gpu-kernel>: chapter 12's GPU kernel roofline, the calculator form with the roofline
// and the H200's measured matmuls after it (kernel-view.js). The measurements come with the
// page, as a JSON island the builder copies from the reference file into the element
// (<script type="application/json" data-measured>), never typed into code; each redraw runs the
// measured shapes of the chosen format through the engine.
import { SbCalculator } from '../core/sb-calculator.js';
import { schemaDefault } from '../core/widget-form.js';
import { kernelExtrasHTML, measuredPoints, memoryLabel } from './kernel-view.js';
import './gpus-css.js';

export class SbGpuKernel extends SbCalculator {
  static calculator = 'gpu-kernel';
  #engine = null;
  #measured;
  #sweeps = new Map();

  get measured() {
    if (this.#measured === undefined) {
      const island = this.querySelector('script[type="application/json"][data-measured]');
      try {
        this.#measured = island ? JSON.parse(island.textContent) : null;
      } catch {
        this.#measured = null;
      }
    }
    return this.#measured;
  }

  #sweep(dtype) {
    if (!this.#engine || !this.measured) return null;
    if (!this.#sweeps.has(dtype)) this.#sweeps.set(dtype, measuredPoints(this.#engine, this.measured, dtype));
    return this.#sweeps.get(dtype);
  }

  #dtype(inputs) {
    return inputs?.dtype || this.getAttribute('dtype') || schemaDefault(this.#engine.schema(this.calculator), 'dtype');
  }

  // The roof's name, as the schema labels the memory chosen.
  #memory(inputs) {
    return memoryLabel(this.#engine.schema(this.calculator), inputs?.memory || this.getAttribute('memory') || undefined);
  }

  start(engine) {
    this.#engine = engine;
    this.addEventListener('sb-change', (event) => {
      if (event.target !== this) return;
      const extras = this.shadowRoot.querySelector('[data-extras]');
      if (extras) extras.outerHTML = kernelExtrasHTML(event.detail.result, this.#sweep(this.#dtype(event.detail.inputs)), this.#memory(event.detail.inputs));
    });
    super.start(engine);
  }

  afterFormHTML(result) {
    return kernelExtrasHTML(result, this.#engine ? this.#sweep(this.#dtype(this.inputs)) : null, this.#engine ? this.#memory(this.inputs) : undefined);
  }
}
