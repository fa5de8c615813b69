// The base of <sb-sharding> and <sb-sharded-matmul>: a form with a spec in the book's notation,
// a size field for each dimension the spec names, and a body the engine's answer fills.
// A subclass says which calculator it uses and how to run and draw it. Inputs come from
// attributes (each name's attributeName, its lower case: <sb-sharding array="A[I_X, J]" i="1024">)
// and then from the form;
// the static page's markup (declarative shadow DOM) is kept until the engine arrives.
//
// Why a MutationObserver and not observedAttributes: the dimension names come from the spec, so
// the attributes worth watching are only known at run time.
import { loadEngine } from '../../../bindings/wasm/engine.mjs';
import { SHADOW_CSS } from '../core/styles.js';
import { escapeHTML } from '../core/escape.js';
import { effectiveValue } from '../core/widget-form.js';
import { clearErrors, showError, readFields, setField, loadTex, attributeName } from '../core/widget-dom.js';

export class SpecWidget extends HTMLElement {
  // Subclasses set: calculator (schema name), spec (the spec input's name), loading (text), and
  // implement dimNames(values), html(values, run), dimsHTML(names, values), run(values),
  // body(run) (the body's HTML, or null to keep the last good one) and ready(engine).
  static calculator = '';
  static spec = '';
  static loading = 'Loading the engine…';

  engine = null;
  schema = null;
  tex = null;
  #started = false;
  #lastKey = '';
  #lastRun = null;
  #sizes = new Map(); // dimension sizes typed so far, by name
  #observer = new MutationObserver((records) => this.#onAttributes(records));

  connectedCallback() {
    this.#observer.observe(this, { attributes: true });
    if (this.#started) return;
    this.#started = true;
    if (!this.shadowRoot?.querySelector('form')) {
      (this.shadowRoot ?? this.attachShadow({ mode: 'open' })).innerHTML =
        `<style>${SHADOW_CSS}</style><p class="loading" role="status">${escapeHTML(this.constructor.loading)}</p>`;
    }
    this.#start();
  }

  disconnectedCallback() {
    this.#observer.disconnect();
  }

  // The last engine answer ({ error, ... } as run(values) returned it).
  get lastRun() { return this.#lastRun; }

  async #start() {
    try {
      this.engine = await loadEngine();
      this.ready(this.engine);
      this.schema = this.engine.schema(this.constructor.calculator);
    } catch (err) {
      this.shadowRoot.innerHTML = `<style>${SHADOW_CSS}</style>` +
        `<p class="error" role="alert">${escapeHTML(`the engine failed to load: ${err?.message ?? err}`)}</p>`;
      return;
    }
    const fromBuild = Boolean(this.#form());
    if (!fromBuild) {
      const values = this.#attributeValues();
      this.shadowRoot.innerHTML = this.html(values, this.run(values));
    }
    this.#wire();
    // The build drew the same answer with its formulas typeset: keep that body until KaTeX is here.
    this.#update(true, fromBuild);
    // Formulas come when KaTeX has loaded; until then the LaTeX shows as code.
    loadTex().then((tex) => {
      if (!tex) return;
      this.tex = tex;
      this.#update(true);
    });
  }

  // Throws when the engine lacks what the element needs.
  ready(_engine) {}

  #form() {
    return this.shadowRoot?.querySelector('form');
  }

  #attributeValues() {
    const values = {};
    for (const input of this.schema.inputs) values[input.name] = (this.getAttribute(attributeName(input.name)) ?? '').trim();
    for (const name of this.dimNames(values)) values[name] = (this.getAttribute(attributeName(name)) ?? '').trim();
    return values;
  }

  #wire() {
    const root = this.shadowRoot;
    root.addEventListener('input', () => this.#update());
    root.addEventListener('change', () => this.#update());
    root.addEventListener('submit', (event) => event.preventDefault());
    root.addEventListener('click', (event) => {
      const preset = event.target.closest?.('button[data-preset]')?.dataset.preset;
      if (!preset) return;
      this.#form().elements.namedItem(this.constructor.spec).value = preset;
      this.#update();
    });
  }

  // A new set of dimension names rebuilds their size fields; a size typed once comes back with
  // its name (a spec half-typed, with no names yet, keeps the fields it had). The spec's own
  // field is untouched, so typing goes on.
  #syncDims(values) {
    const slot = this.shadowRoot.querySelector('[data-dims]');
    const names = this.dimNames(values);
    const shown = [...slot.querySelectorAll('input')].map((input) => input.name);
    for (const name of shown) this.#sizes.set(name, values[name] ?? '');
    if (names.join() === shown.join() || (names.length === 0 && shown.length > 0)) return values;
    const next = Object.fromEntries(Object.entries(values).filter(([name]) => !shown.includes(name)));
    for (const name of names) next[name] = this.#sizes.get(name) ?? (this.getAttribute(attributeName(name)) ?? '').trim();
    slot.innerHTML = this.dimsHTML(names, next);
    return next;
  }

  #update(force = false, keepBody = false) {
    if (!this.schema || !this.#form()) return;
    const values = this.#syncDims(readFields(this.#form()));
    const key = JSON.stringify(values);
    if (!force && key === this.#lastKey) return; // input and change both fire for one edit
    this.#lastKey = key;
    for (const button of this.shadowRoot.querySelectorAll('button[data-preset]')) {
      button.setAttribute('aria-pressed', String(button.dataset.preset === effectiveValue(this.schema, values, this.constructor.spec)));
    }
    const run = this.run(values);
    this.#lastRun = run;
    const body = this.body(run);
    clearErrors(this.shadowRoot);
    if (body !== null && !keepBody) this.shadowRoot.querySelector('[data-body]').innerHTML = body;
    if (run.error) {
      showError(this.shadowRoot, run.error, effectiveValue(this.schema, values, run.error.field), body === null);
      return;
    }
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { inputs: values, ...run } }));
  }

  // An attribute set after load moves the matching field (a dimension's too) and redraws.
  #onAttributes(records) {
    const form = this.#form();
    if (!form || !this.schema) return; // the first render reads the attributes itself
    let changed = false;
    for (const { attributeName: attribute } of records) {
      const field = [...form.elements].find((el) => el.name && attributeName(el.name) === attribute);
      if (!field) continue;
      setField(field, (this.getAttribute(attribute) ?? '').trim());
      changed = true;
    }
    if (changed) this.#update();
  }
}
