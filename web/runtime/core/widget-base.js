// SbWidget: what every hand-written element shares, written once. An element
//   - gets its engine from engine(): the page's one loadEngine(), registered with the number
//     formatter (format.js) before anything is drawn; one the build drew starts (listens, keeps
//     early edits) at once but asks for the engine only when the page wakes (wake.js);
//   - starts on its first connect: a loading line unless the static page (declarative shadow
//     DOM) already holds its form, then ready(engine) (throws when the engine lacks something;
//     the element then shows `failure: message` instead), then start(engine);
//   - reads attributes into field values by attributeName (attributeValues);
//   - follows attribute changes at most once a frame: the changed attributes are collected and
//     attributesChanged(names) runs once (the default moves the matching form fields and calls
//     rerender()). observedAttributes lists them, or `static watchAllAttributes = true` watches
//     every attribute (for elements whose input names arrive with the schema);
//   - shows an error beside the field it names (or in the general slot) with the widget-dom
//     helpers, dimming its last good picture (`static stale`: which element, which class).
import { loadEngine } from '../../../bindings/wasm/engine.mjs';
import { useEngine } from './format.js';
import { adoptSheets, sheetsOf } from './sheets.js';
import { watchSizes } from './sizes.js';
import { escapeHTML } from './escape.js';
import { attributeName, clearErrors, showError, setField } from './widget-dom.js';
import { fitHeadings } from './heading-level.js';
import { wake, wakeWhenSeen, whenAwake } from './wake.js';

// loadEngine() with the formatter registered: the one way the runtime gets its engine.
function widgetEngine() {
  return loadEngine().then((engine) => {
    useEngine(engine);
    return engine;
  });
}

const messageOf = (err) => err?.message ?? err;

// The line a widget drawn by the build shows while its engine is on the way: the static page
// looks live but cannot compute yet, and on a slow connection that lasts seconds. A
// constructable sheet, so it styles any shadow root whatever CSS the widget brought.
const STATUS_CSS = `.sb-engine-status { margin: 0 0 0.5rem; padding: 0.3rem 0.6rem; border-radius: 4px;
  font: italic 0.85rem/1.4 system-ui, sans-serif; color: var(--sb-muted, #5b6477);
  background: color-mix(in srgb, currentColor 7%, transparent); }`;
let statusSheet = null;
function statusStyles(root) {
  if (typeof CSSStyleSheet !== 'function' || !('adoptedStyleSheets' in root)) return;
  if (!statusSheet) {
    statusSheet = new CSSStyleSheet();
    statusSheet.replaceSync(STATUS_CSS);
  }
  if (!root.adoptedStyleSheets.includes(statusSheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, statusSheet];
}
// Shown only when the engine takes longer than this, so a cached engine never flashes it.
const STATUS_DELAY_MS = 250;

// True if a field of `form` no longer holds what its markup says (value, checked, selected).
function changedFromMarkup(form) {
  if (!form) return false;
  for (const field of form.elements) {
    if (field.localName === 'select') {
      // With no option marked selected, the markup's choice is the first.
      const options = [...field.options];
      if (field.selectedIndex !== Math.max(0, options.findIndex((option) => option.defaultSelected))) return true;
    } else if (field.type === 'checkbox' || field.type === 'radio') {
      if (field.checked !== field.defaultChecked) return true;
    } else if ('defaultValue' in field && field.value !== field.defaultValue) {
      return true;
    }
  }
  return false;
}

export class SbWidget extends HTMLElement {
  // The loading line shown until the engine arrives (null: none).
  static loading = 'Loading the engine…';
  // What a failed engine load says, before the error's message.
  static failure = 'the engine failed to load';
  // Watch every attribute, not only observedAttributes.
  static watchAllAttributes = false;
  // What an error dims: [selector, class] (by default the widget-dom helpers' .sb-calc.is-stale).
  static stale = null;

  #started = false;
  #early = false;
  #frame = 0;
  #changed = new Set();
  #observer = null;

  // The engine, for something that needs it now (it wakes the page).
  engine() {
    wake();
    return widgetEngine();
  }

  // The engine once the page wakes: what the build drew waits for the reader to get to it.
  engineWhenReached() {
    wakeWhenSeen(this);
    return whenAwake().then(() => this.engine());
  }

  root() {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    adoptSheets(root, sheetsOf(this.localName));
    watchSizes(root);
    return root;
  }

  form() {
    return this.shadowRoot?.querySelector('form') ?? null;
  }

  // Every edit of a field (input and change; both fire for one edit, so `handler` compares
  // with its last values) runs handler(event); the form never submits.
  onEdit(handler, target = this.form()) {
    target.addEventListener('input', handler);
    target.addEventListener('change', handler);
    target.addEventListener('submit', (event) => event.preventDefault());
  }

  // A playback control ([data-action]) and a figure ([data-stat]) of the shadow root.
  control(action) {
    return this.shadowRoot.querySelector(`[data-action="${action}"]`);
  }

  stat(key) {
    return this.shadowRoot.querySelector(`[data-stat="${key}"]`);
  }

  connectedCallback() {
    if (this.constructor.watchAllAttributes) {
      this.#observer ??= new MutationObserver((records) => this.#attributes(records.map((r) => r.attributeName)));
      this.#observer.observe(this, { attributes: true });
    }
    if (this.#started) return;
    this.#started = true;
    this.#boot();
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
  }

  attributeChangedCallback(name) {
    this.#attributes([name]);
  }

  // True if the reader changed a field of the build's markup before the engine arrived, even
  // before this element's code did (a field keeps what is typed into the static page; its
  // default is what the build wrote): start() then draws from the fields, not the build's picture.
  get editedEarly() { return this.#early || changedFromMarkup(this.form()); }

  async #boot() {
    const drawn = Boolean(this.shadowRoot); // the build's declarative shadow root
    this.placeholder();
    this.root();
    fitHeadings(this);
    const waiting = this.#waitForEngine();
    let engine;
    try {
      engine = await (drawn ? this.engineWhenReached() : this.engine());
      this.ready(engine);
    } catch (err) {
      waiting.done();
      this.showFatal(`${this.constructor.failure}: ${messageOf(err)}`);
      return;
    }
    waiting.done();
    await this.start(engine);
    waiting.replay();
  }

  // The build's markup (a form already here) says it is waiting for the engine, after a short
  // delay or at once when the reader edits a field; edits are noted for start(). Returns
  // { done() } to take the line away and { replay() } to give each field edited meanwhile a
  // change event once started, so what an edit does beyond the numbers (a preset filling the
  // shape fields) happens too.
  #waitForEngine() {
    const root = this.shadowRoot;
    const form = this.form();
    const { loading } = this.constructor;
    // A playback button clicked before start() wired it is pressed again then, not lost.
    const held = [];
    const hold = (event) => {
      const button = event.composedPath()[0]?.closest?.('button[data-action]');
      if (!button || held.includes(button)) return;
      wake();
      held.push(button);
    };
    root?.addEventListener('click', hold);
    const pressHeld = () => {
      root?.removeEventListener('click', hold);
      for (const button of held) if (button.isConnected) button.click();
    };
    if (!root || !form || loading === null) return { done() {}, replay: pressHeld };
    const fields = [];
    let line = null;
    const show = () => {
      if (line) return;
      statusStyles(root);
      line = document.createElement('p');
      line.className = 'sb-engine-status';
      line.setAttribute('role', 'status');
      line.textContent = `${loading} What you type now is applied when it arrives.`;
      form.before(line);
      form.setAttribute('aria-busy', 'true');
    };
    const edited = (event) => {
      wake(); // an edit is the surest sign the reader got here
      this.#early = true;
      const field = event.composedPath()[0];
      if (!fields.includes(field)) fields.push(field);
      show();
    };
    // The delay counts from the page's waking: until then nothing is on its way.
    let timer = 0;
    let over = false;
    whenAwake().then(() => { if (!over) timer = setTimeout(show, STATUS_DELAY_MS); });
    root.addEventListener('input', edited);
    root.addEventListener('change', edited);
    return {
      done: () => {
        over = true;
        clearTimeout(timer);
        root.removeEventListener('input', edited);
        root.removeEventListener('change', edited);
        line?.remove();
        form.removeAttribute('aria-busy');
      },
      replay: () => {
        for (const field of fields) if (field.isConnected) field.dispatchEvent(new Event('change', { bubbles: true }));
        pressHeld();
      },
    };
  }

  // Before the engine: the loading line, unless the static page gave the form.
  placeholder() {
    if (this.form()) return;
    const { loading } = this.constructor;
    const root = this.root();
    if (loading !== null) root.innerHTML = `<p class="loading" role="status">${escapeHTML(loading)}</p>`;
  }

  // Reads what the element needs from the engine (a schema, a catalog); throws if it cannot.
  ready(_engine) {}

  // The first render, with the engine here.
  start(_engine) {}

  // The one render after attribute changes (and whatever else a subclass calls it for).
  rerender() {}

  // The element cannot work: the message replaces its content.
  showFatal(message) {
    this.root().innerHTML = `<p class="error" role="alert">${escapeHTML(message)}</p>`;
  }

  // Field values by name from the attributes (attributeName of each), trimmed; `names` is a
  // list of input names or a schema (its inputs' names).
  attributeValues(names) {
    const list = Array.isArray(names) ? names : names.inputs.map((input) => input.name);
    return Object.fromEntries(list.map((name) => [name, (this.getAttribute(attributeName(name)) ?? '').trim()]));
  }

  // Changed attributes, collected until the next frame.
  #attributes(names) {
    for (const name of names) this.#changed.add(name);
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      const changed = [...this.#changed];
      this.#changed.clear();
      this.attributesChanged(changed);
    });
  }

  // Moves the form fields the attributes name and re-renders once; before the first render
  // there is nothing to move (it reads the attributes itself).
  attributesChanged(names) {
    if (this.syncFields(names)) this.rerender();
  }

  // Sets each form field whose attributeName is in `names` from its attribute; true if any.
  syncFields(names) {
    const form = this.form();
    if (!form) return false;
    let changed = false;
    for (const attribute of names) {
      const field = [...form.elements].find((el) => el.name && attributeName(el.name) === attribute);
      if (!field) continue;
      this.setFieldValue(field, (this.getAttribute(attribute) ?? '').trim());
      changed = true;
    }
    return changed;
  }

  setFieldValue(field, value) {
    setField(field, value);
  }

  // The engine's error beside its field (the offending character of `text` marked when it has a
  // position); `stale` dims the last good picture, which stays on screen.
  showError(error, text = '', stale = true) {
    const mark = this.constructor.stale;
    showError(this.shadowRoot, error, text, stale && !mark);
    if (stale && mark) for (const el of this.shadowRoot.querySelectorAll(mark[0])) el.classList.add(mark[1]);
  }

  clearErrors() {
    clearErrors(this.shadowRoot);
    const mark = this.constructor.stale;
    if (mark) for (const el of this.shadowRoot.querySelectorAll(mark[0])) el.classList.remove(mark[1]);
  }
}
