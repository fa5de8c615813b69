// <sb-batch-sweep chip="tpu-v5e" dtype-weights="int8" sizes="4096,1024" max-batch="512">:
// achievable FLOP/s of a matmul against its token batch, one curve per size D = F, computed
// by the engine for every batch. The static page carries the first plot (declarative shadow
// DOM); the reader can change the chip and the number formats.
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
import { batchSweepHTML, batchSweepSVG, sweepCurves, sweepTitle } from './sweep-plot.js';
import { SHADOW_CSS } from './styles.js';
import { escapeHTML } from './escape.js';

export function sweepSettings(element) {
  const sizes = (element.getAttribute('sizes') ?? '4096,1024').split(',').map(Number)
    .filter((n) => Number.isInteger(n) && n > 0).slice(0, 4);
  const maxBatch = Number(element.getAttribute('max-batch') ?? 512);
  return {
    sizes: sizes.length ? sizes : [4096],
    maxBatch: Number.isInteger(maxBatch) && maxBatch >= 8 && maxBatch <= 65536 ? maxBatch : 512,
    values: {
      chip: element.getAttribute('chip') ?? 'tpu-v5e',
      dtype_weights: element.getAttribute('dtype-weights') ?? 'bf16',
      dtype_activations: element.getAttribute('dtype-activations') ?? 'bf16',
    },
  };
}


export class SbBatchSweep extends HTMLElement {
  #engine = null;

  async connectedCallback() {
    if (this.#engine) return;
    if (!this.shadowRoot) this.attachShadow({ mode: 'open' }).innerHTML = `<style>${SHADOW_CSS}</style><p class="loading">Loading the calculator engine…</p>`;
    try {
      this.#engine = await loadEngine();
    } catch (err) {
      this.#show(`the calculator engine failed to load: ${err?.message ?? err}`);
      return;
    }
    if (!this.shadowRoot.querySelector('form')) this.#render(sweepSettings(this).values);
    this.shadowRoot.addEventListener('change', () => this.#redraw());
  }

  #values() {
    const form = this.shadowRoot.querySelector('form');
    return Object.fromEntries(new FormData(form).entries());
  }

  #render(values) {
    const settings = sweepSettings(this);
    const chips = this.#engine.chips();
    const dtypes = this.#engine.schema('matmul').inputs.find((i) => i.name === 'dtype').choices;
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
    const settings = sweepSettings(this);
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
