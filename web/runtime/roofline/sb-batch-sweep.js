// <sb-batch-sweep chip="tpu-v5e" dtype_weights="int8" sizes="4096,1024" max_batch="512">:
// achievable FLOP/s of a matmul against its token batch, one curve per size D = F, computed
// by the engine for every batch. The static page carries the first plot (declarative shadow
// DOM); the reader can change the chip and the number formats. A chip or format not given is
// the matmul calculator's default.
import { CalculatorError } from '../../../bindings/wasm/engine.mjs';
import { widgetEngine } from '../core/widget-base.js';
import { batchSweepHTML, batchSweepSVG, sweepCurves, sweepTitle } from '../core/sweep-plot.js';
import { SHADOW_CSS } from '../core/styles.js';
import { escapeHTML } from '../core/escape.js';
import { schemaDefault } from '../core/widget-form.js';
import { attributeName } from '../core/widget-dom.js';

// The element's settings; schema: the matmul calculator's (for the defaults).
export function sweepSettings(element, schema) {
  const get = (name) => element.getAttribute(attributeName(name));
  const sizes = (get('sizes') ?? '4096,1024').split(',').map(Number)
    .filter((n) => Number.isInteger(n) && n > 0).slice(0, 4);
  const maxBatch = Number(get('max_batch') ?? 512);
  const dtype = schemaDefault(schema, 'dtype');
  return {
    sizes: sizes.length ? sizes : [4096],
    maxBatch: Number.isInteger(maxBatch) && maxBatch >= 8 && maxBatch <= 65536 ? maxBatch : 512,
    values: {
      chip: get('chip') ?? schemaDefault(schema, 'chip'),
      dtype_weights: get('dtype_weights') ?? dtype,
      dtype_activations: get('dtype_activations') ?? dtype,
    },
  };
}


export class SbBatchSweep extends HTMLElement {
  #engine = null;

  async connectedCallback() {
    if (this.#engine) return;
    if (!this.shadowRoot) this.attachShadow({ mode: 'open' }).innerHTML = `<style>${SHADOW_CSS}</style><p class="loading">Loading the calculator engine…</p>`;
    try {
      this.#engine = await widgetEngine();
    } catch (err) {
      this.#show(`the calculator engine failed to load: ${err?.message ?? err}`);
      return;
    }
    if (!this.shadowRoot.querySelector('form')) this.#render(sweepSettings(this, this.#engine.schema('matmul')).values);
    this.shadowRoot.addEventListener('change', () => this.#redraw());
  }

  #values() {
    const form = this.shadowRoot.querySelector('form');
    return Object.fromEntries(new FormData(form).entries());
  }

  #render(values) {
    const schema = this.#engine.schema('matmul');
    const settings = sweepSettings(this, schema);
    const chips = this.#engine.chips();
    const dtypes = schema.inputs.find((i) => i.name === 'dtype').choices;
    let svg = '';
    let error = '';
    try {
      const { curves, peak } = sweepCurves(this.#engine, { inputs: values, sizes: settings.sizes, maxBatch: settings.maxBatch });
      svg = batchSweepSVG({ curves, peak, maxBatch: settings.maxBatch, title: sweepTitle(values) });
    } catch (err) {
      error = err instanceof CalculatorError ? err.message : String(err);
    }
    this.shadowRoot.innerHTML = batchSweepHTML({ css: SHADOW_CSS, chips, dtypes, values, svg, error });
  }

  #redraw() {
    const values = this.#values();
    const settings = sweepSettings(this, this.#engine.schema('matmul'));
    const slot = this.shadowRoot.querySelector('[data-error-for=""]');
    try {
      const { curves, peak } = sweepCurves(this.#engine, { inputs: values, sizes: settings.sizes, maxBatch: settings.maxBatch });
      this.shadowRoot.querySelector('[data-plot]').innerHTML =
        batchSweepSVG({ curves, peak, maxBatch: settings.maxBatch, title: sweepTitle(values) });
      slot.textContent = '';
    } catch (err) {
      // A format the chip has no peak for: say so beside the controls, keep the last plot.
      slot.textContent = err instanceof CalculatorError ? err.message : String(err);
    }
  }

  #show(message) {
    this.shadowRoot.innerHTML = `<style>${SHADOW_CSS}</style><p class="error" role="alert">${escapeHTML(message)}</p>`;
  }
}
