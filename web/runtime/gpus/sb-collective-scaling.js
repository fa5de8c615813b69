// <sb-collective-scaling op="all-gather" bytes="1e9" gpu="h100" cluster="dgx-h100-superpod"
// tpu="tpu-v5p">: chapter 12's GPU against TPU overlay, the bandwidth one chip gets in a
// collective against how many chips take part, both series from the collective calculator
// (collective-scaling.js). The static page carries the first plot; the reader can change the
// collective, the size, the GPU cluster and the TPU.
import { SbWidget } from '../core/widget-base.js';
import { FIELDS, collectiveScalingHTML, legendHTML, runScaling, scalingSVG, scalingTableHTML } from './collective-scaling.js';
import { readFields, attributeName } from '../core/widget-dom.js';
import './gpu-collective-css.js';

export class SbCollectiveScaling extends SbWidget {
  static observedAttributes = FIELDS.map(attributeName);
  static loading = 'Loading the calculator engine…';
  static failure = 'the calculator engine failed to load';

  #engine = null;
  #lastKey = '';
  #run = null;

  // The plotted points (scalingRun's answer), for scripts and tests.
  get scaling() { return this.#run; }

  ready(engine) {
    engine.schema('collective');
    engine.schema('gpu-cluster');
  }

  start(engine) {
    this.#engine = engine;
    if (!this.form()) {
      const values = this.attributeValues(FIELDS);
      this.shadowRoot.innerHTML = collectiveScalingHTML({ engine, values, run: runScaling(engine, values) });
    }
    this.onEdit(() => this.#redraw());
    this.#redraw(true);
  }

  rerender() {
    if (this.#engine) this.#redraw();
  }

  // A bad field shows the engine's message beside it and keeps the last plot, dimmed.
  #redraw(force = false) {
    const values = readFields(this.form());
    const key = JSON.stringify(values);
    if (!force && key === this.#lastKey) return;
    this.#lastKey = key;
    const result = runScaling(this.#engine, values);
    if (result.error) {
      this.showError(result.error, String(values[result.error.field] ?? ''));
      return;
    }
    this.clearErrors();
    this.#run = result.run;
    this.shadowRoot.querySelector('[data-body]').innerHTML =
      `${legendHTML(result.run)}<div class="plot" data-plot>${scalingSVG(result.run)}</div>${scalingTableHTML(result.run)}`;
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { inputs: values, scaling: result.run } }));
  }
}
