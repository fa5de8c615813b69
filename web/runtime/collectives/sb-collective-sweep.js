// <sb-collective-sweep op="all-gather" chip="tpu-v5e" axis_size="16" wraparound="yes">: the
// bandwidth a collective reaches against the size of the array, from 10 kB to 10 GB, with the
// chip's peak, the latency/bandwidth crossover and the size at which it reaches 90% of peak,
// every number from the engine's collective calculator (`axes="8x16"` runs it over several
// axes). The static page carries the first plot (declarative shadow DOM); the reader can change
// the collective, the chip, the axes and the wraparound.
import { SbWidget } from '../core/widget-base.js';
import { CALCULATOR, FIELDS, GPU_FIELDS, bandwidthSVG, collectiveSweepHTML, readoutInner, reachBytes, runSweep, settingsValues, sweepTitle } from './bandwidth-plot.js';
import { readFields, setField, attributeName } from '../core/widget-dom.js';
import './bandwidth-css.js';

// The collective calculator's inputs the element takes, as attributes by attributeName.
const SETTINGS = ['op', 'chip', 'axis_size', 'axes', 'wraparound', 'latency', 'cluster', 'in_network'];

export class SbCollectiveSweep extends SbWidget {
  static observedAttributes = SETTINGS.map(attributeName);
  static loading = 'Loading the calculator engine…';
  static failure = 'the calculator engine failed to load';

  #engine = null;
  #lastKey = '';
  #sweep = null;

  // The plotted numbers (bandwidthSweep's answer), for scripts and tests.
  get sweep() { return this.#sweep; }

  // The attributes are not the fields one to one (axis_size and axes are both the shape field):
  // every field is set again from them.
  attributesChanged() {
    const form = this.form();
    if (!form) return; // the first render reads the attributes itself
    const values = this.#settings();
    for (const name of new Set([...FIELDS, ...GPU_FIELDS])) {
      const field = form.elements.namedItem(name);
      if (field) setField(field, values[name] ?? '');
    }
    if (this.#engine) this.#redraw();
  }

  #settings() {
    return settingsValues((name) => this.getAttribute(attributeName(name)));
  }

  ready(engine) {
    engine.schema(CALCULATOR);
  }

  start(engine) {
    this.#engine = engine;
    if (!this.form()) {
      const values = this.#settings();
      this.shadowRoot.innerHTML = collectiveSweepHTML({
        schema: engine.schema(CALCULATOR), chips: engine.chips(), values, run: runSweep(engine, values),
      });
    }
    this.onEdit(() => this.#redraw());
    this.#redraw(true);
  }

  // Redraws after an edit; a bad field shows the engine's message beside it and keeps the last
  // good plot on screen, dimmed.
  #redraw(force = false) {
    const values = readFields(this.form());
    const key = JSON.stringify(values);
    if (!force && key === this.#lastKey) return; // input and change both fire for one edit
    this.#lastKey = key;
    const run = runSweep(this.#engine, values);
    if (run.error) {
      this.showError(run.error, String(values[run.error.field] ?? ''));
      return;
    }
    this.clearErrors();
    this.#sweep = run.sweep;
    this.shadowRoot.querySelector('[data-plot]').innerHTML = bandwidthSVG(run.sweep, sweepTitle(values, this.#engine.chips()));
    const readout = this.shadowRoot.querySelector('[data-readout]');
    readout.innerHTML = readoutInner(run.sweep);
    if (reachBytes(run.sweep)) readout.dataset.bytes = reachBytes(run.sweep);
    else delete readout.dataset.bytes;
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { inputs: values, sweep: run.sweep } }));
  }
}
