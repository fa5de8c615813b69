// <sb-transformer model="llama-3-70b" b="1" t="4096" k="16">: one Transformer layer drawn with
// the engine's shapes, parameters and FLOPs per block, the model's totals and KV cache, and
// attention's share of the FLOPs against context length. Attributes: model, b, t, dtype,
// causal and any catalog field (l, d, f, n, k, h, v, gated, e, experts_per_token, ...).
// The builder emits the first render in a declarative shadow root; this element recomputes
// when the reader picks a preset (its fields fill the form) or edits a field. An engine error
// shows beside the field it names and the last good picture stays, dimmed.
import { loadEngine } from '../../../bindings/wasm/engine.mjs';
import {
  attributeInputs, formValues, engineInputs, evaluate, shareCurve, transformerHTML, bodyHTML,
  blockDetailHTML, ALL_FIELDS, MORE_FIELDS,
} from './transformer-view.js';
import { SHADOW_CSS, TRANSFORMER_CSS } from '../core/styles.js';
import { escapeHTML } from '../core/escape.js';

const CSS = `${SHADOW_CSS}${TRANSFORMER_CSS}`;

export class SbTransformer extends HTMLElement {
  #engine = null;
  #models = null;
  #schema = null;
  #blocks = [];
  #pending = 0;
  #started = false;

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    this.#start();
  }

  async #start() {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    try {
      this.#engine = await loadEngine();
      this.#models = this.#engine.models();
      this.#schema = this.#engine.schema('transformer');
    } catch (err) {
      root.innerHTML = `<style>${CSS}</style><p class="error" role="alert">the engine failed to load: ${escapeHTML(err?.message ?? err)}</p>`;
      return;
    }
    if (!root.querySelector('form')) {
      const attrs = Object.fromEntries([...this.attributes].map((a) => [a.name, a.value]));
      const values = formValues(this.#models, this.#schema, attributeInputs(attrs));
      root.innerHTML = transformerHTML({ models: this.#models, schema: this.#schema, values, result: null, curve: null, css: CSS });
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

  #form() {
    return this.shadowRoot.querySelector('form');
  }

  #values() {
    const form = this.#form();
    return Object.fromEntries(ALL_FIELDS.map((name) => [name, form.elements[name]?.value ?? '']));
  }

  #changed(target) {
    if (target.name === 'model' && target.value !== 'custom') {
      // A preset fills every shape field with its own values.
      const values = formValues(this.#models, this.#schema, { ...this.#runValues(), model: target.value });
      const form = this.#form();
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
    const form = this.#form();
    for (const slot of form.querySelectorAll('[data-error-for]')) {
      const name = slot.dataset.errorFor;
      const mine = error && (error.field === name || (name === '' && !ALL_FIELDS.includes(error.field)));
      slot.textContent = mine ? error.message : '';
      const field = name && form.elements[name];
      if (field && mine) field.setAttribute('aria-invalid', 'true');
      else if (field) field.removeAttribute('aria-invalid');
    }
    const body = this.shadowRoot.querySelector('[data-body]');
    if (error) {
      if (MORE_FIELDS.includes(error.field)) form.querySelector('details.more').open = true;
      body.classList.add('stale');
      return;
    }
    body.classList.remove('stale');
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
