// Base class of the calculator elements (<sb-roofline>, <sb-matmul>, ...). A subclass only
// names its engine calculator; the form, the outputs and the errors all follow its schema.
//
// Inputs come from attributes (each input's attributeName, its name in lower case:
// <sb-matmul b="512" chip="h100">) and then from the form. The state lives in the form fields of the shadow root; `result` and `inputs` are the
// last good calculation, readable by a plot that connects late.
//
// Why a MutationObserver and not observedAttributes: customElements.define() reads
// observedAttributes synchronously, but the input names come from the schema, which arrives
// with the engine later; listing them here would type the schema twice. So the element
// watches its own attributes and keeps those that name an input (by attributeName).
import { loadEngine, CalculatorError } from '../../../bindings/wasm/engine.mjs';
import { calculatorHTML, loadingHTML, outputCellHTML, placeholderFor, escapeHTML } from './render.js';
import { SHADOW_CSS } from './styles.js';
import { attachMyChip, resolveMyChip } from '../hardware/my-chip.js';
import { attributeName } from './widget-dom.js';

// Only non-empty strings go to the engine: an empty field means "use the default".
function filled(values) {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

function asError(err) {
  if (err instanceof CalculatorError) return { field: err.field, message: err.message };
  return { field: '', message: `the engine failed: ${err?.message ?? err}` };
}

export class SbCalculator extends HTMLElement {
  static calculator = '';

  #engine = null;
  #schema = null;
  #result = null;
  #inputs = null;
  #started = false;
  #wired = false;
  #lastAttempt = null;
  #observer = new MutationObserver((records) => this.#onAttributes(records));

  get result() { return this.#result; }
  get inputs() { return this.#inputs; }
  get calculator() { return this.constructor.calculator; }

  connectedCallback() {
    this.#observer.observe(this, { attributes: true });
    if (this.#started) return;
    this.#started = true;
    // A shadow root already here came from the static page (declarative shadow DOM): keep
    // its markup, so nothing flashes, and only attach listeners.
    if (this.shadowRoot) this.#wire();
    else this.attachShadow({ mode: 'open' }).innerHTML = loadingHTML();
    this.#start();
  }

  disconnectedCallback() {
    this.#observer.disconnect();
  }

  async #start() {
    try {
      this.#engine = await loadEngine();
      this.#schema = this.#engine.schema(this.calculator);
    } catch (err) {
      this.#showFatal(`the calculator engine failed to load: ${err?.message ?? err}`);
      return;
    }
    if (this.#form()) {
      this.#recalc(true); // fields may differ from the static page if the user typed early
      return;
    }
    const values = this.#attributeValues();
    let result = null;
    let error = null;
    try {
      result = this.#engine.calculate(this.calculator, filled(values), { steps: false });
    } catch (err) {
      error = asError(err);
    }
    this.shadowRoot.innerHTML = calculatorHTML({
      schema: this.#schema, values, result, error, chips: this.#engine.chips(),
    });
    this.#lastAttempt = JSON.stringify(filled(values));
    this.#wire();
    if (result) this.#succeed(filled(values), result);
  }

  #form() {
    return this.shadowRoot.querySelector('form');
  }

  #wire() {
    if (this.#wired) return;
    this.#wired = true;
    const root = this.shadowRoot;
    attachMyChip(root, () => this.#recalc(true)); // first: it fills overrides before a recalc
    root.addEventListener('input', () => this.#recalc());
    root.addEventListener('change', () => this.#recalc());
    root.addEventListener('submit', (event) => event.preventDefault());
  }

  #attributeValues() {
    const values = {};
    for (const input of this.#schema.inputs) {
      values[input.name] = (this.getAttribute(attributeName(input.name)) ?? '').trim();
    }
    return values;
  }

  #fieldValues() {
    const form = this.#form();
    const values = {};
    for (const input of this.#schema.inputs) {
      values[input.name] = (form.elements.namedItem(input.name)?.value ?? '').trim();
    }
    return resolveMyChip(values); // "my-chip" -> its base chip and overrides
  }

  #recalc(force = false) {
    if (!this.#engine || !this.#schema || !this.#form()) return; // the engine's arrival recalcs
    const inputs = filled(this.#fieldValues());
    const key = JSON.stringify(inputs);
    if (!force && key === this.#lastAttempt) return; // input + change fire for one edit
    this.#lastAttempt = key;
    let result;
    try {
      result = this.#engine.calculate(this.calculator, inputs, { steps: false });
    } catch (err) {
      this.#showError(asError(err));
      return;
    }
    this.#showResult(result);
    this.#succeed(inputs, result);
  }

  #succeed(inputs, result) {
    this.#inputs = inputs;
    this.#result = result;
    this.dispatchEvent(new CustomEvent('sb-change', {
      bubbles: true, composed: true, detail: { calculator: this.calculator, inputs, result },
    }));
  }

  // Updates cells and placeholders in place: re-rendering the form would lose focus mid-typing.
  #showResult(result) {
    const root = this.shadowRoot;
    this.#clearErrors();
    for (const output of this.#schema.outputs) {
      const cell = root.querySelector(`[data-output="${CSS.escape(output.name)}"]`);
      if (cell) cell.innerHTML = outputCellHTML(output, result[output.name]);
    }
    for (const input of this.#schema.inputs) {
      const field = this.#form().elements.namedItem(input.name);
      if (field?.tagName === 'INPUT') field.placeholder = placeholderFor(input, result);
    }
    root.querySelector('.outputs')?.classList.remove('stale');
  }

  #clearErrors() {
    for (const slot of this.shadowRoot.querySelectorAll('[data-error-for]')) slot.textContent = '';
    for (const field of this.shadowRoot.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
  }

  // The message goes beside its field (or in the general slot); outputs keep their last good
  // values, struck through as stale, so the page never shows a blank or a NaN.
  #showError({ field, message }) {
    const root = this.shadowRoot;
    this.#clearErrors();
    const slot = (field && root.querySelector(`[data-error-for="${CSS.escape(field)}"]`)) ||
      root.querySelector('[data-error-for=""]');
    if (!slot) return;
    slot.textContent = message;
    const control = field && this.#form()?.elements.namedItem(field);
    if (control) control.setAttribute('aria-invalid', 'true');
    const details = slot.closest('details');
    if (details) details.open = true;
    root.querySelector('.outputs')?.classList.add('stale');
  }

  #showFatal(message) {
    if (this.#form()) this.#showError({ field: '', message });
    else this.shadowRoot.innerHTML = `<style>${SHADOW_CSS}</style><p class="error" role="alert">${escapeHTML(message)}</p>`;
  }

  // An attribute set after load moves the matching field and recalculates.
  #onAttributes(records) {
    const form = this.#form();
    if (!form) return; // not rendered yet: the first render reads the attributes itself
    let changed = false;
    for (const { attributeName: attribute } of records) {
      const field = [...form.elements].find((el) => el.name && attributeName(el.name) === attribute);
      if (!field) continue;
      const value = (this.getAttribute(attribute) ?? '').trim();
      if (field.tagName === 'SELECT') this.#choose(field, value);
      else field.value = value;
      changed = true;
    }
    if (changed) this.#recalc();
  }

  #choose(select, value) {
    const input = this.#schema?.inputs.find((i) => i.name === select.name);
    const wanted = value || (input?.default ?? '');
    if (![...select.options].some((option) => option.value === wanted)) select.add(new Option(wanted, wanted));
    select.value = wanted;
  }
}
