// <sb-systolic-sim rows="4" cols="4" m="6" n="4" k="5" dataflow="ws" convention="pipelined">:
// the engine's cycle-stepped systolic array, animated. The engine simulates once per change of
// a field and returns every cycle's PE states; playing, stepping and scrubbing only show stored
// frames, writing the changed texts and classes in place (one requestAnimationFrame loop).
// The static page carries the first frame (declarative shadow DOM); the element keeps that
// markup until the engine arrives, then renders once with the whole run.
import {
  SIM_FIELDS, DEFAULT_SPEED, runSimulation, macsSoFar, cellView, statsView, gridSVG,
  checkText, legendText, systolicSimHTML,
} from './systolic-view.js';
import { asError } from '../core/widget-form.js';
import { SbWidget } from '../core/widget-base.js';
import { Playback } from '../core/playback.js';
import { attributeName } from '../core/widget-dom.js';
import './systolic-css.js';

export class SbSystolicSim extends SbWidget {
  static observedAttributes = SIM_FIELDS.map(attributeName);
  static loading = 'Loading the simulator engine…';
  static failure = 'the simulator engine failed to load';

  #engine = null;
  #schema = null;
  #sim = null;
  #closed = null;
  #cumulative = [];
  #playback = null;
  #cells = [];
  #lastKey = '';

  get simulation() { return this.#sim; }

  // Any shadow root is the static page's: its first frame stays until the engine is here.
  placeholder() {
    if (!this.shadowRoot) super.placeholder();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#playback?.pause();
  }

  ready(engine) {
    this.#schema = engine.schema('systolic');
  }

  start(engine) {
    this.#engine = engine;
    // Fields the reader may have typed in before the engine arrived win over the attributes.
    const values = this.form() ? this.#fieldValues() : this.attributeValues(SIM_FIELDS);
    let error = null;
    try {
      ({ sim: this.#sim, closed: this.#closed } = runSimulation(engine, this.#schema, values));
    } catch (err) {
      error = asError(err);
    }
    this.#lastKey = JSON.stringify(values);
    this.#cumulative = this.#sim ? macsSoFar(this.#sim) : [];
    this.shadowRoot.innerHTML = systolicSimHTML({
      schema: this.#schema, values, sim: this.#sim, closed: this.#closed, index: 0, error,
    });
    this.#cacheCells();
    this.#wire();
  }

  // An attribute set after load moves its field and re-simulates.
  rerender() {
    if (this.#engine) this.#resimulate();
  }

  #fieldValues() {
    const form = this.form();
    return Object.fromEntries(SIM_FIELDS.map((name) => [name, (form.elements.namedItem(name)?.value ?? '').trim()]));
  }

  #wire() {
    const root = this.shadowRoot;
    this.onEdit(() => this.#resimulate());
    this.#playback = new Playback(root, {
      last: () => (this.#sim ? this.#sim.frames.length - 1 : -1),
      show: (index) => this.#show(index),
    }, DEFAULT_SPEED);
    this.#playback.wire();
  }

  // Re-simulates after an edit; a bad field shows the engine's message beside it and keeps the
  // last good run on screen, dimmed, so the page never blanks or freezes.
  #resimulate() {
    const values = this.#fieldValues();
    const key = JSON.stringify(values);
    if (key === this.#lastKey) return; // input and change both fire for one edit
    this.#lastKey = key;
    this.#playback.pause();
    let run;
    try {
      run = runSimulation(this.#engine, this.#schema, values);
    } catch (err) {
      const error = asError(err);
      this.showError(error, values[error.field] ?? '');
      return;
    }
    this.clearErrors();
    this.#sim = run.sim;
    this.#closed = run.closed;
    this.#cumulative = macsSoFar(run.sim);
    this.shadowRoot.querySelector('[data-grid]').innerHTML = gridSVG(run.sim.rows, run.sim.cols, run.sim.frames[0], run.sim.dataflow);
    this.#cacheCells();
    this.shadowRoot.querySelector('[data-flow]').textContent = legendText(run.sim.dataflow);
    this.stat('check').textContent = checkText(run.sim, run.closed);
    this.stat('sim-cycles').textContent = String(run.sim.cycles);
    this.stat('total').textContent = statsView(run.sim, 0, 1).total;
    this.#playback.restart();
  }

  #cacheCells() {
    this.#cells = [...this.shadowRoot.querySelectorAll('[data-pe]')].map((g) => {
      const [w, a, p] = g.querySelectorAll('text');
      return { g, w, a, p, shown: { w: w.textContent, a: a.textContent, p: p.textContent, cls: g.getAttribute('class') } };
    });
  }

  // Frame `index`: only the texts and classes that changed are written.
  #show(index) {
    const frame = this.#sim.frames[index];
    for (let i = 0; i < this.#cells.length; ++i) {
      const cell = this.#cells[i];
      const view = cellView(frame, i, this.#sim.dataflow);
      for (const key of ['w', 'a', 'p']) {
        if (cell.shown[key] !== view[key]) cell[key].textContent = cell.shown[key] = view[key];
      }
      if (cell.shown.cls !== view.cls) cell.g.setAttribute('class', cell.shown.cls = view.cls);
    }
    const stats = statsView(this.#sim, index, this.#cells.length, this.#cumulative);
    this.stat('cycle').textContent = stats.cycle;
    this.stat('macs-now').textContent = stats.macsNow;
    this.stat('macs').textContent = stats.macsSoFar;
    this.stat('utilization').textContent = stats.utilization;
    this.control('scrub').setAttribute('aria-valuetext', stats.valuetext);
  }
}
