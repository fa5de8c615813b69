// Base class of the calculator elements (<sb-roofline>, <sb-matmul>, ...). A subclass only
// names its engine calculator; the form, the outputs and the errors all follow its schema.
//
// Inputs come from attributes (each input's attributeName, its name in lower case:
// <sb-matmul b="512" chip="h100">) and then from the form. The state lives in the form fields of the shadow root; `result` and `inputs` are the
// last good calculation, readable by a plot that connects late.
//
// Why every attribute is watched (watchAllAttributes) and not observedAttributes:
// customElements.define() reads observedAttributes synchronously, but the input names come
// from the schema, which arrives with the engine later; listing them here would type the
// schema twice. So the element watches its own attributes and keeps those that name an input
// (by attributeName).
import { asError } from './widget-form.js';
import { SbWidget } from './widget-base.js';
import { calculatorHTML, outputCellHTML, ownTablesOf, placeholderFor, resultNumbers, tableRowsHTML } from './render.js';
import { primeTexts } from './format.js';
import { attachFormHooks, resolveFormValues } from './form-hooks.js';
import { Announcer } from './announce.js';
import { LongRunner, workerFor } from './long-runner.js';
import { LongStatus } from './long-status.js';
import { FOLD_FILLED } from './lazy-folds.js';

// Sets `el`'s markup unless it is already that (most cells do not change with one edit, and
// each write costs a parse and a layout).
const written = new WeakMap();
function writeOnce(el, html) {
  if (written.get(el) === html) return;
  written.set(el, html);
  el.innerHTML = html;
}

// Only non-empty strings go to the engine: an empty field means "use the default".
function filled(values) {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

export class SbCalculator extends SbWidget {
  static calculator = '';
  static loading = 'Loading the calculator engine…';
  static failure = 'the calculator engine failed to load';
  static watchAllAttributes = true;
  static stale = ['.outputs', 'stale'];
  // The names of the few outputs drawn first, before the form, the rest folded (render.js).
  static lead = null;
  // A long calculation's status line words (long-status.js): { working, label, stopped }.
  static statusWords = null;

  #engine = null;
  #schema = null;
  #result = null;
  #inputs = null;
  #wired = false;
  #lastAttempt = null;
  #announcer = null;
  #error = null; // the message of the last failed calculation, spoken when its field is committed
  #folded = new WeakMap(); // a folded table's pending redraw, run when it opens
  #pending = new WeakMap(); // an off-screen table's pending redraw, run when it comes into view
  #seen = null; // watches the tables' bodies (IntersectionObserver)
  #onScreen = new WeakSet(); // bodies in or near the viewport
  #runner = null; // a long-running calculator's (its schema says long_running): its worker
  #status = null; // and its status line

  get result() { return this.#result; }
  get inputs() { return this.#inputs; }
  get calculator() { return this.constructor.calculator; }
  // How far the running long calculation has got (0 to 1, as its worker last said), or null.
  get progress() { return this.#status?.fraction ?? null; }

  // A shadow root already here came from the static page (declarative shadow DOM): keep
  // its markup, so nothing flashes, and only attach listeners.
  placeholder() {
    if (this.shadowRoot) this.#wire();
    else super.placeholder();
  }

  ready(engine) {
    this.#schema = engine.schema(this.calculator);
  }

  start(engine) {
    this.#engine = engine;
    if (this.#schema.long_running) {
      this.#runner = new LongRunner(engine, workerFor(this.localName));
      this.#status = new LongStatus(this.shadowRoot, this.constructor.statusWords, () => this.#runner.cancel());
    }
    const loaded = this.#fromAddress();
    if (this.form()) {
      const form = this.form();
      for (const [name, value] of Object.entries(loaded)) {
        const field = form.elements.namedItem(name);
        if (!field) continue;
        this.setFieldValue(field, value);
        field.closest('details')?.setAttribute('open', '');
      }
      this.#recalc(true); // fields may differ from the static page if the user typed early
      return;
    }
    const values = { ...this.attributeValues(this.#schema), ...loaded };
    let result = null;
    let error = null;
    try {
      result = this.#engine.calculate(this.calculator, filled(values), { steps: false });
    } catch (err) {
      error = asError(err);
    }
    if (result) primeTexts(resultNumbers(this.#schema, result));
    this.shadowRoot.innerHTML = calculatorHTML({
      schema: this.#schema, values, result, error, chips: this.#engine.chips(), shown: this.#shown(), lead: this.constructor.lead,
    }) + this.afterFormHTML(result);
    this.#lastAttempt = JSON.stringify(filled(values));
    this.#wire();
    if (result) this.#succeed(filled(values), result);
  }

  // outputs="a,b": the outputs the element shows (the builder checks the names); absent: all.
  #shown() {
    const names = (this.getAttribute('outputs') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    return names.length ? names : null;
  }

  // A link may load inputs into the element with this id: page.html?load=ID&shape=4x4x4#ID
  // (the search's rows open the chapter 5 explorer so). Only the schema's inputs are taken, each
  // a short string the engine then checks like anything typed.
  #fromAddress() {
    if (!this.id || typeof location === 'undefined') return {};
    const params = new URLSearchParams(location.search);
    if (params.get('load') !== this.id) return {};
    const values = {};
    for (const input of this.#schema.inputs) {
      if (params.has(input.name)) values[input.name] = params.get(input.name).slice(0, 200);
    }
    return values;
  }

  #wire() {
    if (this.#wired) return;
    this.#wired = true;
    const root = this.shadowRoot;
    this.#announcer = new Announcer(root);
    attachFormHooks(root, () => this.#recalc(true)); // first: my chip fills overrides before a recalc
    root.addEventListener(FOLD_FILLED, () => this.#refill());
    this.onEdit((event) => {
      this.#recalc();
      if (event.type === 'change' && this.#error) this.#announcer.say(this.#error, 0);
    }, root);
  }

  #fieldValues() {
    const form = this.form();
    const values = {};
    for (const input of this.#schema.inputs) {
      values[input.name] = (form.elements.namedItem(input.name)?.value ?? '').trim();
    }
    return resolveFormValues(values); // "my-chip" -> its base chip and overrides
  }

  // An attribute set after load moves the matching field and recalculates.
  rerender() {
    this.#recalc();
  }

  #recalc(force = false) {
    if (!this.#engine || !this.#schema || !this.form()) return; // the engine's arrival recalcs
    const inputs = filled(this.#fieldValues());
    const key = JSON.stringify(inputs);
    if (!force && key === this.#lastAttempt) return; // input + change fire for one edit
    this.#lastAttempt = key;
    let result;
    try {
      result = this.compute(inputs);
    } catch (err) {
      this.#fail(err, inputs);
      return;
    }
    if (typeof result?.then !== 'function') {
      this.#show(inputs, result);
      return;
    }
    // A long calculation (a search in a worker): only the latest edit's answer is shown. One
    // the reader stopped is no error, and the same inputs may be asked again.
    this.busy(true);
    result.then((r) => { if (key === this.#lastAttempt) this.#show(inputs, r); },
      (err) => {
        if (key !== this.#lastAttempt) return;
        if (err?.cancelled) this.#lastAttempt = null;
        else this.#fail(err, inputs);
      })
      .finally(() => { if (key === this.#lastAttempt || this.#lastAttempt === null) this.busy(false); });
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#runner?.cancel();
    this.#status?.stop();
  }

  // Markup a subclass draws after the form (the build draws the same after its own).
  afterFormHTML(_result) {
    return '';
  }

  // Called with each good result, before sb-change: a subclass updates what afterFormHTML drew.
  afterResult(_result) {}

  // The engine's answer for these inputs, or a promise of it: a long-running calculator's comes
  // from its worker, reporting its progress (a subclass may compute elsewhere).
  compute(inputs) {
    if (this.#runner) {
      return this.#runner.run(this.calculator, inputs, { onProgress: (f) => { this.#status.fraction = f; } });
    }
    return this.#engine.calculate(this.calculator, inputs, { steps: false });
  }

  // Called with true while a promised answer is on its way, and false when it has come: a long
  // calculation's status line runs meanwhile.
  busy(on) {
    if (on) this.#status?.start();
    else this.#status?.stop();
  }

  #fail(err, inputs) {
    // Outputs keep their last good values, struck through as stale: never a blank or a NaN.
    const error = asError(err);
    this.showError(error, inputs[error.field] ?? '');
    this.#error = error.message;
    this.#announcer?.cancel();
  }

  #show(inputs, result) {
    this.#error = null;
    primeTexts(resultNumbers(this.#schema, result));
    this.#showResult(result);
    this.#announcer?.say(this.#summary());
    this.#succeed(inputs, result);
  }

  #succeed(inputs, result) {
    this.#inputs = inputs;
    this.#result = result;
    this.afterResult(result);
    this.dispatchEvent(new CustomEvent('sb-change', {
      bubbles: true, composed: true, detail: { calculator: this.calculator, inputs, result },
    }));
  }

  // A section the build left for later (lazy-folds.js) came with the build's numbers: once live,
  // it shows the last result's, dimmed as the rest when the last edit failed.
  #refill() {
    if (!this.#result) return;
    this.#writeResult(this.#result);
    this.afterResult(this.#result);
    const mark = this.constructor.stale;
    if (this.#error && mark) for (const el of this.shadowRoot.querySelectorAll(mark[0])) el.classList.add(mark[1]);
  }

  // Updates cells and placeholders in place: re-rendering the form would lose focus mid-typing.
  #showResult(result) {
    this.clearErrors();
    this.#writeResult(result);
    for (const input of this.#schema.inputs) {
      const field = this.form().elements.namedItem(input.name);
      if (field?.tagName === 'INPUT') field.placeholder = placeholderFor(input, result);
    }
  }

  // The result's outputs and tables into the cells there are.
  #writeResult(result) {
    const root = this.shadowRoot;
    for (const output of this.#schema.outputs) {
      const cell = root.querySelector(`[data-output="${CSS.escape(output.name)}"]`);
      if (cell) writeOnce(cell, outputCellHTML(output, result[output.name], result.absent?.[output.name]));
    }
    const own = ownTablesOf(this.calculator); // drawn by the element itself (afterResult)
    for (const table of this.#schema.tables ?? []) {
      if (own.includes(table.name)) continue;
      const body = root.querySelector(`[data-table="${CSS.escape(table.name)}"] tbody`);
      if (!body) continue;
      const draw = () => writeOnce(body, tableRowsHTML(table, result[table.name]));
      // A folded table (a plot's hundred rows) fills in when it opens, not at every keystroke.
      const fold = body.closest('details');
      if (fold && !fold.open) {
        this.#folded.set(fold, draw);
        if (!fold.dataset.watched) {
          fold.dataset.watched = 'yes';
          fold.addEventListener('toggle', () => {
            if (!fold.open) return;
            this.#folded.get(fold)?.();
            this.#folded.delete(fold);
          });
        }
        continue;
      }
      this.#folded.delete(fold);
      // An open table off screen (the reader types in the form above it) fills in as it scrolls
      // into view: a hundred rows rewritten per keystroke cost a frame.
      if (this.#offScreen(body, draw)) continue;
      draw();
    }
  }

  // True (and `draw` kept for later) if `body` is known to be off screen; the first time, it is
  // watched and drawn now.
  #offScreen(body, draw) {
    if (typeof IntersectionObserver !== 'function') return false;
    if (!this.#seen) {
      this.#seen = new IntersectionObserver((entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) {
            this.#onScreen.delete(entry.target);
            continue;
          }
          this.#onScreen.add(entry.target);
          this.#pending.get(entry.target)?.();
          this.#pending.delete(entry.target);
        }
      }, { rootMargin: '200px 0px' });
    }
    if (!body.dataset.seen) {
      body.dataset.seen = 'yes';
      // Until the observer's first word, where it is now (with the same margin).
      const box = body.getBoundingClientRect();
      if (box.bottom > -200 && box.top < innerHeight + 200) this.#onScreen.add(body);
      this.#seen.observe(body);
    }
    if (this.#onScreen.has(body)) {
      this.#pending.delete(body);
      return false;
    }
    this.#pending.set(body, draw);
    return true;
  }

  // The outputs as one sentence: "Results: label value, label value" (the lead ones alone when
  // the element has them: 69 outputs read out after every edit would say nothing).
  #summary() {
    const lead = this.constructor.lead;
    const outputs = lead ? this.#schema.outputs.filter((o) => lead.includes(o.name)) : this.#schema.outputs;
    const items = outputs.map((output) => {
      const cell = this.shadowRoot.querySelector(`[data-output="${CSS.escape(output.name)}"]`);
      return cell ? `${output.label ?? output.name} ${cell.textContent.trim()}` : '';
    });
    return `Results: ${items.filter(Boolean).join(', ')}`;
  }

  showFatal(message) {
    if (this.form()) this.showError({ field: '', message });
    else super.showFatal(message);
  }

  // A select takes the schema's default for an empty attribute, and gains an option it lacks.
  setFieldValue(field, value) {
    if (field.tagName !== 'SELECT') {
      field.value = value;
      return;
    }
    const input = this.#schema?.inputs.find((i) => i.name === field.name);
    const wanted = value || (input?.default ?? '');
    if (![...field.options].some((option) => option.value === wanted)) field.add(new Option(wanted, wanted));
    field.value = wanted;
  }
}

// The element of a calculator that needs nothing beyond the form and its tables: what a domain's
// elements.js gets for an entry with a calculator and no load of its own.
export function plainCalculator(calculator) {
  return class extends SbCalculator {
    static calculator = calculator;
  };
}
