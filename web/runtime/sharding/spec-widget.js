// The base of <sb-sharding> and <sb-sharded-matmul>: a form with a spec in the book's notation,
// a size field for each dimension the spec names, and a body the engine's answer fills.
// A subclass says which calculator it uses and how to run and draw it. Inputs come from
// attributes (each name's attributeName, its lower case: <sb-sharding array="A[I_X, J]" i="1024">)
// and then from the form;
// the static page's markup (declarative shadow DOM) is kept until the engine arrives.
//
// Why every attribute is watched (watchAllAttributes) and not observedAttributes: the
// dimension names come from the spec, so the attributes worth watching are only known at run
// time.
import { SbWidget } from '../core/widget-base.js';
import { effectiveValue } from '../core/widget-form.js';
import { readFields, texOnDemand, attributeName } from '../core/widget-dom.js';

export class SpecWidget extends SbWidget {
  // Subclasses set: calculator (schema name), spec (the spec input's name), loading (text), and
  // implement dimNames(values), html(values, run), dimsHTML(names, values), run(values),
  // body(run) (the body's HTML, or null to keep the last good one), and may check the engine in
  // ready(engine) (throw if it lacks something; then call super.ready).
  static calculator = '';
  static spec = '';
  static watchAllAttributes = true;

  api = null; // the engine, once started (a field named engine would hide SbWidget.engine())
  schema = null;
  tex = null;
  #lastKey = '';
  #lastRun = null;
  #askTex = () => {};
  #sizes = new Map(); // dimension sizes typed so far, by name

  // The last engine answer ({ error, ... } as run(values) returned it).
  get lastRun() { return this.#lastRun; }

  ready(engine) {
    this.schema = engine.schema(this.constructor.calculator);
  }

  start(engine) {
    this.api = engine;
    const fromBuild = Boolean(this.form());
    if (!fromBuild) {
      const values = this.#attributeValues();
      this.shadowRoot.innerHTML = this.html(values, this.run(values));
    }
    this.#wire();
    // Formulas come when KaTeX has loaded; until then the LaTeX shows as code.
    this.#askTex = texOnDemand(this.shadowRoot, fromBuild, (tex) => {
      this.tex = tex;
      this.#update(true);
    });
    // The build drew the same answer with its formulas typeset: keep that body, unless the
    // reader changed a field while the engine was on its way.
    this.#update(true, fromBuild && !this.editedEarly);
  }

  #attributeValues() {
    const values = this.attributeValues(this.schema);
    return { ...values, ...this.attributeValues(this.dimNames(values)) };
  }

  #wire() {
    const root = this.shadowRoot;
    this.onEdit(() => this.#update(), root);
    root.addEventListener('click', (event) => {
      const preset = event.target.closest?.('button[data-preset]')?.dataset.preset;
      if (!preset) return;
      this.form().elements.namedItem(this.constructor.spec).value = preset;
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

  // An attribute set after load moves the matching field (a dimension's too) and redraws.
  rerender() {
    this.#update();
  }

  // Runs and redraws with the fields as they are (a subclass whose run changed: a module that
  // explains has arrived).
  refresh() {
    this.#update(true);
  }

  #update(force = false, keepBody = false) {
    if (!this.schema || !this.form()) return;
    const values = this.#syncDims(readFields(this.form()));
    const key = JSON.stringify(values);
    if (!force && key === this.#lastKey) return; // input and change both fire for one edit
    this.#lastKey = key;
    for (const button of this.shadowRoot.querySelectorAll('button[data-preset]')) {
      button.setAttribute('aria-pressed', String(button.dataset.preset === effectiveValue(this.schema, values, this.constructor.spec)));
    }
    const run = this.run(values);
    this.#lastRun = run;
    const body = this.body(run);
    this.clearErrors();
    if (body !== null && !keepBody) {
      if (!this.tex) this.#askTex();
      this.shadowRoot.querySelector('[data-body]').innerHTML = body;
    }
    if (run.error) {
      this.showError(run.error, effectiveValue(this.schema, values, run.error.field), body === null);
      return;
    }
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { inputs: values, ...run } }));
  }
}
