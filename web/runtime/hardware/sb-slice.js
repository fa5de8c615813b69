// <sb-slice chip="tpu-v5e" shape="4x4">: a TPU slice's chips and ICI links, with the axes that
// wrap. The builder emits the first picture in a declarative shadow root; this element redraws
// it when the reader picks another chip or types another shape (a bad shape gets a message
// beside the field and the last good picture stays, dimmed). The engine's slice calculator
// checks the shape and decides the wraparound; this element only draws its answer. Without a
// chip attribute it starts on the slice calculator's default chip.
import { loadEngine } from '../../../bindings/wasm/engine.mjs';
import { sliceHTML, sliceBodyHTML, sliceOf, sliceDims, torusChips, defaultShape, podText } from './slice-view.js';
import { SHADOW_CSS, CATALOG_CSS } from '../core/styles.js';
import { escapeHTML } from '../core/escape.js';
import { schemaDefault } from '../core/widget-form.js';
import { attributeName } from '../core/widget-dom.js';

export class SbSlice extends HTMLElement {
  #catalog = null;
  #engine = null;
  #started = false;

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    this.#start();
  }

  async #start() {
    try {
      this.#engine = await loadEngine();
      this.#catalog = torusChips(this.#engine.chips());
    } catch (err) {
      this.#root().innerHTML = `<style>${SHADOW_CSS}</style><p class="error" role="alert">the engine failed to load: ${escapeHTML(err?.message ?? err)}</p>`;
      return;
    }
    const root = this.#root();
    if (!root.querySelector('form')) {
      const id = this.getAttribute(attributeName('chip')) ?? schemaDefault(this.#engine.schema('slice'), 'chip');
      const chip = this.#chip(id);
      if (!chip) {
        root.innerHTML = `<style>${SHADOW_CSS}</style><p class="error" role="alert">unknown chip "${escapeHTML(id)}"</p>`;
        return;
      }
      const shape = this.getAttribute(attributeName('shape')) ?? defaultShape(chip);
      const { slice, error } = sliceOf(this.#engine, chip.id, shape);
      root.innerHTML = `<style>${SHADOW_CSS}${CATALOG_CSS}</style>${sliceHTML({ catalog: this.#catalog, chip, shape, slice, error: error?.message })}`;
    }
    root.addEventListener('input', (event) => this.#update(event.target.name));
    root.addEventListener('change', (event) => this.#update(event.target.name));
    root.addEventListener('submit', (event) => event.preventDefault());
    this.#update('');
  }

  #root() {
    return this.shadowRoot ?? this.attachShadow({ mode: 'open' });
  }

  #chip(id) {
    return this.#catalog.find((c) => c.id === id);
  }

  // A new chip with a shape of the wrong rank gets that chip's default shape.
  #update(changed) {
    const form = this.shadowRoot.querySelector('form');
    const chip = this.#chip(form.elements.chip.value);
    const input = form.elements.shape;
    let result = sliceOf(this.#engine, chip.id, input.value);
    if (changed === 'chip' && result.error) {
      input.value = defaultShape(chip);
      result = sliceOf(this.#engine, chip.id, input.value);
    }
    const { slice, error } = result;
    this.shadowRoot.querySelector('[data-pod]').textContent = podText(chip);
    const message = this.shadowRoot.querySelector('[data-error-for="shape"]');
    const body = this.shadowRoot.querySelector('[data-body]');
    message.textContent = error?.message ?? '';
    if (error) {
      input.setAttribute('aria-invalid', 'true');
      body.classList.add('stale');
      return;
    }
    input.removeAttribute('aria-invalid');
    body.classList.remove('stale');
    const dims = sliceDims(slice);
    const key = `${chip.id}:${dims.join('x')}`;
    if (body.dataset.key === key) return;
    body.dataset.key = key;
    body.innerHTML = sliceBodyHTML(chip, slice);
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { chip: chip.id, dims } }));
  }
}
