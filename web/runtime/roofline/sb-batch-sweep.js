// <sb-batch-sweep chip="tpu-v5e" dtype_weights="int8" sizes="4096,1024" max_batch="512">:
// achievable FLOP/s of a matmul against its token batch, one curve per size D = F, computed
// by the engine for every batch. The static page carries the first plot (declarative shadow
// DOM); the reader can change the chip and the number formats. A chip or format not given is
// the matmul calculator's default.
import { CalculatorError } from '../../../bindings/wasm/engine.mjs';
import { SbWidget } from '../core/widget-base.js';
import { batchSweepHTML, batchSweepSVG, sweepCurves, sweepTitle } from '../core/sweep-plot.js';
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

const messageOf = (err) => (err instanceof CalculatorError ? err.message : String(err));

export class SbBatchSweep extends SbWidget {
  static loading = 'Loading the calculator engine…';
  static failure = 'the calculator engine failed to load';

  #engine = null;

  // Any shadow root is the static page's: its plot stays until the engine is here.
  placeholder() {
    if (!this.shadowRoot) super.placeholder();
  }

  start(engine) {
    this.#engine = engine;
    if (!this.form()) this.#render(sweepSettings(this, engine.schema('matmul')).values);
    this.shadowRoot.addEventListener('change', () => this.#redraw());
    if (this.editedEarly) this.#redraw(); // a choice made on the build's plot before the engine came
  }

  #values() {
    return Object.fromEntries(new FormData(this.form()).entries());
  }

  // The curves and the plot for `values`; throws the engine's error.
  #plot(values) {
    const settings = sweepSettings(this, this.#engine.schema('matmul'));
    const { curves, peak } = sweepCurves(this.#engine, { inputs: values, sizes: settings.sizes, maxBatch: settings.maxBatch });
    return batchSweepSVG({ curves, peak, maxBatch: settings.maxBatch, title: sweepTitle(values) });
  }

  #render(values) {
    const schema = this.#engine.schema('matmul');
    const chips = this.#engine.chips();
    const dtypes = schema.inputs.find((i) => i.name === 'dtype').choices;
    let svg = '';
    let error = '';
    try {
      svg = this.#plot(values);
    } catch (err) {
      error = messageOf(err);
    }
    this.shadowRoot.innerHTML = batchSweepHTML({ chips, dtypes, values, svg, error });
  }

  // A format the chip has no peak for: say so beside the controls, keep the last plot.
  #redraw() {
    let svg;
    try {
      svg = this.#plot(this.#values());
    } catch (err) {
      this.showError({ field: '', message: messageOf(err) }, '', false);
      return;
    }
    this.shadowRoot.querySelector('[data-plot]').innerHTML = svg;
    this.clearErrors();
  }
}
