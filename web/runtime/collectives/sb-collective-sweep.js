// <sb-collective-sweep op="all-gather" chip="tpu-v5e" axis_size="16" wraparound="yes">: the
// bandwidth a collective reaches against the size of the array, from 10 kB to 10 GB, with the
// chip's peak, the latency/bandwidth crossover and the size at which it reaches 90% of peak,
// every number from the engine's collective calculator (`axes="8x16"` runs it over several
// axes). The static page carries the first plot (declarative shadow DOM); the reader can change
// the collective, the chip, the axes and the wraparound.
import { loadEngine } from '../../../bindings/wasm/engine.mjs';
import { CALCULATOR, FIELDS, bandwidthSVG, collectiveSweepHTML, readoutInner, reachBytes, runSweep, settingsValues, sweepTitle } from './bandwidth-plot.js';
import { SHADOW_CSS, BANDWIDTH_CSS } from '../core/styles.js';
import { escapeHTML } from '../core/escape.js';
import { clearErrors, showError, readFields, setField, attributeName } from '../core/widget-dom.js';

const CSS = `${SHADOW_CSS}${BANDWIDTH_CSS}`;
// The collective calculator's inputs the element takes, as attributes by attributeName.
const SETTINGS = ['op', 'chip', 'axis_size', 'axes', 'wraparound'];

export class SbCollectiveSweep extends HTMLElement {
  static observedAttributes = SETTINGS.map(attributeName);

  #engine = null;
  #started = false;
  #lastKey = '';
  #sweep = null;

  // The plotted numbers (bandwidthSweep's answer), for scripts and tests.
  get sweep() { return this.#sweep; }

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    if (!this.shadowRoot?.querySelector('form')) {
      (this.shadowRoot ?? this.attachShadow({ mode: 'open' })).innerHTML =
        `<style>${CSS}</style><p class="loading" role="status">Loading the calculator engine…</p>`;
    }
    this.#start();
  }

  attributeChangedCallback() {
    const form = this.#form();
    if (!form || !this.#engine) return; // the first render reads the attributes itself
    const values = settingsValues((name) => this.getAttribute(attributeName(name)));
    for (const name of FIELDS) setField(form.elements.namedItem(name), values[name]);
    this.#redraw();
  }

  async #start() {
    try {
      this.#engine = await loadEngine();
      this.#engine.schema(CALCULATOR);
    } catch (err) {
      this.shadowRoot.innerHTML = `<style>${CSS}</style>` +
        `<p class="error" role="alert">${escapeHTML(`the calculator engine failed to load: ${err?.message ?? err}`)}</p>`;
      return;
    }
    if (!this.#form()) {
      const values = settingsValues((name) => this.getAttribute(attributeName(name)));
      this.shadowRoot.innerHTML = collectiveSweepHTML({
        css: CSS, schema: this.#engine.schema(CALCULATOR), chips: this.#engine.chips(), values, run: runSweep(this.#engine, values),
      });
    }
    const form = this.#form();
    form.addEventListener('change', () => this.#redraw());
    form.addEventListener('input', () => this.#redraw());
    form.addEventListener('submit', (event) => event.preventDefault());
    this.#redraw(true);
  }

  #form() {
    return this.shadowRoot?.querySelector('form');
  }

  // Redraws after an edit; a bad field shows the engine's message beside it and keeps the last
  // good plot on screen, dimmed.
  #redraw(force = false) {
    const values = readFields(this.#form());
    const key = JSON.stringify(values);
    if (!force && key === this.#lastKey) return; // input and change both fire for one edit
    this.#lastKey = key;
    const run = runSweep(this.#engine, values);
    if (run.error) {
      showError(this.shadowRoot, run.error, String(values[run.error.field] ?? ''));
      return;
    }
    clearErrors(this.shadowRoot);
    this.#sweep = run.sweep;
    this.shadowRoot.querySelector('[data-plot]').innerHTML = bandwidthSVG(run.sweep, sweepTitle(values, this.#engine.chips()));
    const readout = this.shadowRoot.querySelector('[data-readout]');
    readout.innerHTML = readoutInner(run.sweep);
    if (reachBytes(run.sweep)) readout.dataset.bytes = reachBytes(run.sweep);
    else delete readout.dataset.bytes;
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { inputs: values, sweep: run.sweep } }));
  }
}
