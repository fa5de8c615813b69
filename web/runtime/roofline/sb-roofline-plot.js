// <sb-roofline-plot for="ID" chips="tpu-v5e,h100">: a log-log roofline that follows the
// calculator element with id ID (any element firing `sb-change` whose result has peak_flops,
// hbm_bandwidth, intensity, achieved_flops and critical_intensity: roofline, matmul).
// `chips` (optional) adds faint roofs of those catalog chips for comparison.
//
// Static content contract: the builder emits the plot in a declarative shadow root,
//   <sb-roofline-plot for="r"><template shadowrootmode="open">
//     ${rooflinePlotHTML(rooflinePlotOptions({ result, inputs, schema, chips, extraChipIds }))}
//   </template></sb-roofline-plot>
// (both from render.js). A shadow root because the SVG's CSS must not leak into the page.
// That SVG stays until the first `sb-change` from the calculator, then is redrawn in place.
// Without static content the element shows a waiting line until then.
import { SbWidget } from '../core/widget-base.js';
import { adoptSheets, sheetsOf } from '../core/sheets.js';
import { rooflinePlotHTML, rooflinePlotOptions, rooflinePlotSVG } from '../core/plot.js';

export class SbRooflinePlot extends SbWidget {
  #latest = null;
  #catalog = null;
  #loading = false;
  #onChange = (event) => {
    if (event.target?.id && event.target.id === this.getAttribute('for')) this.#draw(event.detail);
  };

  // No engine of its own until the first draw: the plot follows its calculator.
  connectedCallback() {
    if (!this.shadowRoot) this.attachShadow({ mode: 'open' }).innerHTML = rooflinePlotHTML(null);
    adoptSheets(this.shadowRoot, sheetsOf(this.localName));
    document.addEventListener('sb-change', this.#onChange);
    // A calculator that computed before this plot connected has already fired its event.
    const source = document.getElementById(this.getAttribute('for') ?? '');
    if (source?.result && !this.#latest) {
      this.#draw({ calculator: source.calculator, inputs: source.inputs, result: source.result });
    }
  }

  disconnectedCallback() {
    document.removeEventListener('sb-change', this.#onChange);
  }

  // The engine gives chip names, the comparison chips and every printed number. Events that
  // arrive while it loads only replace #latest: the one pending draw then uses the newest.
  async #draw(detail) {
    this.#latest = detail;
    if (!this.#catalog) {
      if (this.#loading) return;
      this.#loading = true;
      try {
        const engine = await this.engine();
        this.#catalog = { engine, chips: engine.chips() };
      } catch (err) {
        // The calculator that fired has an engine, so this is a second failure: say so.
        this.#loading = false;
        this.showFatal(`the plot's engine failed to load: ${err?.message ?? err}`);
        return;
      }
    }
    const { calculator, inputs, result } = this.#latest;
    const { engine, chips } = this.#catalog;
    let schema = null;
    try {
      schema = engine.schema(calculator);
    } catch {
      // an unknown calculator name: the label falls back to the chip id
    }
    const extraChipIds = (this.getAttribute('chips') ?? '').split(',').map((id) => id.trim()).filter(Boolean);
    const options = rooflinePlotOptions({ result, inputs, schema, chips, extraChipIds });
    const slot = this.shadowRoot.querySelector('[data-plot]');
    if (slot) slot.innerHTML = rooflinePlotSVG(options);
    else this.shadowRoot.innerHTML = rooflinePlotHTML(options);
  }
}
