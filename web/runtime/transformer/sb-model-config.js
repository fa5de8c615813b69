// <sb-model-config>: a paste box for a Hugging Face config.json. The engine reads it
// (modelFromConfig) into a custom model; the element shows which key gave each field, what it
// could not map, and the transformer calculator's parameter count and FLOPs per token. Its
// button hands the model to every element on the page with a model input (sb-transformer,
// sb-training, ...): it fills their forms as a reader would (model = custom and every field)
// and sends them a change, so each recomputes through its own path; it also dispatches
// `sb-model` on the window with { inputs } for anything else listening. An error (not JSON,
// each missing key named) shows beside the textarea.
import { SbWidget } from '../core/widget-base.js';
import { setField } from '../core/widget-dom.js';
import { modelConfigHTML, mappingHTML } from './model-config-view.js';
import './model-config-css.js';

const errorText = (err) => err?.message ?? String(err);

export class SbModelConfig extends SbWidget {
  static loading = null;

  #engine = null;
  #model = null;
  #pending = 0;

  start(engine) {
    this.#engine = engine;
    const root = this.root();
    if (!this.form()) root.innerHTML = modelConfigHTML();
    const form = this.form();
    form.addEventListener('submit', (event) => event.preventDefault());
    form.elements.config.addEventListener('input', () => this.#schedule());
    root.addEventListener('click', (event) => {
      const example = event.target.closest?.('[data-example]');
      if (example) this.#loadExample(example.dataset.example, example.textContent);
      if (event.target.closest?.('[data-use]')) this.#use();
    });
    if (form.elements.config.value.trim()) this.#read();
  }

  // Typing reads the text once per frame, not per keystroke.
  #schedule() {
    if (this.#pending) return;
    this.#pending = requestAnimationFrame(() => {
      this.#pending = 0;
      this.#read();
    });
  }

  async #loadExample(id, label) {
    const url = new URL(`model-configs/${encodeURIComponent(id)}.json`, import.meta.url);
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      this.form().elements.config.value = await response.text();
    } catch (err) {
      this.#fail(`could not load the ${label} example: ${errorText(err)}`);
      return;
    }
    this.#read();
    this.#say(`Loaded the ${label} config.json.`);
  }

  #read() {
    const text = this.form().elements.config.value;
    const result = this.shadowRoot.querySelector('[data-result]');
    this.#model = null;
    if (!text.trim()) {
      this.#clear();
      result.innerHTML = '';
      return;
    }
    let model;
    let totals;
    try {
      model = this.#engine.modelFromConfig(text);
      totals = this.#engine.calculate('transformer', model.inputs, { steps: false });
    } catch (err) {
      this.#fail(errorText(err));
      result.innerHTML = '';
      return;
    }
    this.#clear();
    this.#model = model;
    result.innerHTML = mappingHTML(model, totals);
  }

  #fail(message) {
    const field = this.form().elements.config;
    this.shadowRoot.querySelector('[data-error-for="config"]').textContent = message;
    field.setAttribute('aria-invalid', 'true');
  }

  #clear() {
    this.shadowRoot.querySelector('[data-error-for="config"]').textContent = '';
    this.form().elements.config.removeAttribute('aria-invalid');
  }

  #say(text) {
    this.shadowRoot.querySelector('[data-status]').textContent = text;
  }

  // Every other element of the page whose form has a model field takes the model.
  #use() {
    if (!this.#model) return;
    const { inputs } = this.#model;
    let count = 0;
    for (const element of document.querySelectorAll('*')) {
      if (element === this || !element.localName.startsWith('sb-')) continue;
      const form = element.shadowRoot?.querySelector('form');
      const picker = form?.elements.namedItem('model');
      if (!picker) continue;
      for (const [name, value] of Object.entries(inputs)) {
        const field = form.elements.namedItem(name);
        if (field) setField(field, String(value));
      }
      picker.dispatchEvent(new Event('change', { bubbles: true }));
      count += 1;
    }
    globalThis.dispatchEvent(new CustomEvent('sb-model', { detail: { inputs } }));
    this.#say(count === 1 ? 'The model is in 1 calculator on this page.' : `The model is in ${count} calculators on this page.`);
  }
}
