// <sb-transformer model="llama-3-70b" b="1" t="4096" k="16">: one Transformer layer drawn with
// the engine's shapes, parameters and FLOPs per block, the model's totals and KV cache, and
// attention's share of the FLOPs against context length. Attributes: model, b, t, dtype,
// causal and any catalog field (l, d, f, n, k, h, v, gated, e, experts_per_token, ...).
// The builder emits the first render in a declarative shadow root; this element recomputes
// when the reader picks a preset (its fields fill the form) or edits a field. An engine error
// shows beside the field it names and the last good picture stays, dimmed.
import { SbWidget } from '../core/widget-base.js';
import {
  attributeInputs, formValues, engineInputs, evaluate, shareCurve, transformerHTML, bodyHTML,
  blockDetailHTML, ALL_FIELDS,
} from './transformer-view.js';
import './transformer-css.js';


export class SbTransformer extends SbWidget {
  static loading = null;
  static stale = ['[data-body]', 'stale'];

  #engine = null;
  #models = null;
  #schema = null;
  #blocks = [];
  #pending = 0;

  ready(engine) {
    this.#models = engine.models();
    this.#schema = engine.schema('transformer');
  }

  start(engine) {
    this.#engine = engine;
    const root = this.root();
    if (!this.form()) {
      const attrs = Object.fromEntries([...this.attributes].map((a) => [a.name, a.value]));
      const values = formValues(this.#models, this.#schema, attributeInputs(attrs));
      root.innerHTML = transformerHTML({ models: this.#models, schema: this.#schema, values, result: null, curve: null });
    }
    root.addEventListener('change', (event) => this.#changed(event.target));
    root.addEventListener('input', (event) => {
      if (event.target.tagName === 'INPUT') this.#schedule();
    });
    root.addEventListener('submit', (event) => event.preventDefault());
    for (const type of ['pointerover', 'focusin', 'click']) {
      root.addEventListener(type, (event) => this.#point(event));
    }
    this.#update();
  }

  #values() {
    const form = this.form();
    return Object.fromEntries(ALL_FIELDS.map((name) => [name, form.elements[name]?.value ?? '']));
  }

  #changed(target) {
    if (target.name === 'model' && target.value !== 'custom') {
      // A preset fills every shape field with its own values.
      const values = formValues(this.#models, this.#schema, { ...this.#runValues(), model: target.value });
      const form = this.form();
      for (const name of ALL_FIELDS) if (form.elements[name]) form.elements[name].value = values[name];
    }
    this.#update();
  }

  #runValues() {
    const { B, T, dtype, causal } = this.#values();
    return { B, T, dtype, causal };
  }

  // Typing recomputes once per frame, not per keystroke.
  #schedule() {
    if (this.#pending) return;
    this.#pending = requestAnimationFrame(() => {
      this.#pending = 0;
      this.#update();
    });
  }

  #update() {
    const values = this.#values();
    const inputs = engineInputs(this.#models, values);
    const { result, error } = evaluate(this.#engine, inputs);
    // An error goes beside its field (a field under "more" opens it) and dims the last picture.
    if (error) {
      this.showError(error);
      return;
    }
    this.clearErrors();
    const body = this.shadowRoot.querySelector('[data-body]');
    this.#blocks = result.blocks;
    const detail = body.querySelector('[data-detail]');
    const active = detail?.dataset.block;
    body.innerHTML = bodyHTML(result, shareCurve(this.#engine, inputs), values);
    if (active) this.#show(active);
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { inputs, params: result.params } }));
  }

  #point(event) {
    const block = event.target.closest?.('[data-block]');
    if (!block) return;
    this.#show(block.dataset.block);
    // On a phone the detail sits below the picture: a tap brings it into view.
    const detail = this.shadowRoot.querySelector('[data-detail]');
    const box = detail.getBoundingClientRect();
    if (event.type === 'click' && (box.top < 0 || box.bottom > window.innerHeight)) {
      detail.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    }
  }

  #show(id) {
    const detail = this.shadowRoot.querySelector('[data-detail]');
    const block = this.#blocks.find((b) => b.block === id);
    if (!detail || !block) return;
    detail.dataset.block = id;
    detail.innerHTML = blockDetailHTML(block);
    for (const g of this.shadowRoot.querySelectorAll('[data-block]')) g.classList.toggle('active', g.dataset.block === id);
  }
}
