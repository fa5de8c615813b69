// <sb-slice chip="tpu-v5e" shape="4x4">: a TPU slice's chips and ICI links, with the axes that
// wrap. The builder emits the first picture in a declarative shadow root; this element redraws
// it when the reader picks another chip or types another shape (a bad shape gets a message
// beside the field and the last good picture stays, dimmed). The engine's slice calculator
// checks the shape and decides the wraparound; this element only draws its answer. Without a
// chip attribute it starts on the slice calculator's default chip.
import { SbWidget } from '../core/widget-base.js';
import { sliceHTML, sliceBodyHTML, sliceOf, sliceDims, torusChips, defaultShape, podText } from './slice-view.js';
import { schemaDefault } from '../core/widget-form.js';
import { attributeName } from '../core/widget-dom.js';
import './catalog-css.js';

export class SbSlice extends SbWidget {
  static loading = null;
  static stale = ['[data-body]', 'stale'];

  #catalog = null;
  #engine = null;

  ready(engine) {
    this.#catalog = torusChips(engine.chips());
  }

  start(engine) {
    this.#engine = engine;
    const root = this.root();
    if (!this.form()) {
      const id = this.getAttribute(attributeName('chip')) ?? schemaDefault(engine.schema('slice'), 'chip');
      const chip = this.#chip(id);
      if (!chip) {
        this.showFatal(`unknown chip "${id}"`);
        return;
      }
      const shape = this.getAttribute(attributeName('shape')) ?? defaultShape(chip);
      const { slice, error } = sliceOf(engine, chip.id, shape);
      root.innerHTML = `${sliceHTML({ catalog: this.#catalog, chip, shape, slice, error: error?.message })}`;
    }
    this.onEdit((event) => this.#update(event.target.name), root);
    // A reader may pick another chip on the static page before the engine arrives: that
    // counts as a chip change (its default shape if the typed one no longer fits).
    const built = this.getAttribute(attributeName('chip')) ?? schemaDefault(engine.schema('slice'), 'chip');
    this.#update(this.form().elements.chip.value === built ? '' : 'chip');
  }

  #chip(id) {
    return this.#catalog.find((c) => c.id === id);
  }

  // A new chip with a shape of the wrong rank gets that chip's default shape.
  #update(changed) {
    const form = this.form();
    const chip = this.#chip(form.elements.chip.value);
    const input = form.elements.shape;
    let result = sliceOf(this.#engine, chip.id, input.value);
    if (changed === 'chip' && result.error) {
      input.value = defaultShape(chip);
      result = sliceOf(this.#engine, chip.id, input.value);
    }
    const { slice, error } = result;
    this.shadowRoot.querySelector('[data-pod]').textContent = podText(chip);
    // The engine's message goes beside the shape (the only field a slice can get wrong).
    if (error) {
      this.showError({ ...error, field: 'shape' });
      return;
    }
    this.clearErrors();
    const body = this.shadowRoot.querySelector('[data-body]');
    const dims = sliceDims(slice);
    const key = `${chip.id}:${dims.join('x')}`;
    if (body.dataset.key === key) return;
    body.dataset.key = key;
    body.innerHTML = sliceBodyHTML(chip, slice);
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { chip: chip.id, dims } }));
  }
}
