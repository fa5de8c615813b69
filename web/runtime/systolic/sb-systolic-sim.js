// <sb-systolic-sim rows="4" cols="4" m="6" n="4" k="5" dataflow="ws" convention="pipelined">:
// the engine's cycle-stepped systolic array, animated (core/sb-simulation.js plays it). Each
// frame writes only the changed texts and classes in place. The static page carries the first
// frame (declarative shadow DOM); the element keeps that markup until the engine arrives, then
// renders once with the whole run.
import {
  SIM_FIELDS, DEFAULT_SPEED, runSimulation, macsSoFar, cellView, statsView, gridSVG,
  checkText, legendText, systolicSimHTML,
} from './systolic-view.js';
import { SbSimulation } from '../core/sb-simulation.js';
import { attributeName } from '../core/widget-dom.js';
import './systolic-css.js';

export class SbSystolicSim extends SbSimulation {
  static observedAttributes = SIM_FIELDS.map(attributeName);
  static loading = 'Loading the simulator engine…';
  static failure = 'the simulator engine failed to load';
  static speed = DEFAULT_SPEED;

  #schema = null;
  #cumulative = [];
  #cells = [];

  get simulation() { return this.run?.sim ?? null; }

  // Any shadow root is the static page's: its first frame stays until the engine is here.
  placeholder() {
    if (!this.shadowRoot) super.placeholder();
  }

  ready(engine) {
    this.#schema = engine.schema('systolic');
  }

  start(engine) {
    // Fields the reader may have typed in before the engine arrived win over the attributes.
    const values = this.form() ? this.fieldValues() : this.attributeValues(SIM_FIELDS);
    const { run, error } = this.firstRun(engine, values);
    this.#cumulative = run ? macsSoFar(run.sim) : [];
    this.shadowRoot.innerHTML = systolicSimHTML({
      schema: this.#schema, values, sim: run?.sim ?? null, closed: run?.closed ?? null, index: 0, error,
    });
    this.#cacheCells();
    this.startPlayback();
  }

  fieldValues() {
    const form = this.form();
    return Object.fromEntries(SIM_FIELDS.map((name) => [name, (form.elements.namedItem(name)?.value ?? '').trim()]));
  }

  simulate(engine, values) {
    return runSimulation(engine, this.#schema, values);
  }

  lastFrame(run) {
    return run.sim.frames.length - 1;
  }

  drawRun({ sim, closed }) {
    this.#cumulative = macsSoFar(sim);
    this.shadowRoot.querySelector('[data-grid]').innerHTML = gridSVG(sim.rows, sim.cols, sim.frames[0], sim.dataflow);
    this.#cacheCells();
    this.shadowRoot.querySelector('[data-flow]').textContent = legendText(sim.dataflow);
    this.stat('check').textContent = checkText(sim, closed);
    this.stat('sim-cycles').textContent = String(sim.cycles);
    this.stat('total').textContent = statsView(sim, 0, 1).total;
  }

  #cacheCells() {
    this.#cells = [...this.shadowRoot.querySelectorAll('[data-pe]')].map((g) => {
      const [w, a, p] = g.querySelectorAll('text');
      return { g, w, a, p, shown: { w: w.textContent, a: a.textContent, p: p.textContent, cls: g.getAttribute('class') } };
    });
  }

  // Frame `index`: only the texts and classes that changed are written.
  showFrame(index) {
    const sim = this.run.sim;
    const frame = sim.frames[index];
    for (let i = 0; i < this.#cells.length; ++i) {
      const cell = this.#cells[i];
      const view = cellView(frame, i, sim.dataflow);
      for (const key of ['w', 'a', 'p']) {
        if (cell.shown[key] !== view[key]) cell[key].textContent = cell.shown[key] = view[key];
      }
      if (cell.shown.cls !== view.cls) cell.g.setAttribute('class', cell.shown.cls = view.cls);
    }
    const stats = statsView(sim, index, this.#cells.length, this.#cumulative);
    this.stat('cycle').textContent = stats.cycle;
    this.stat('macs-now').textContent = stats.macsNow;
    this.stat('macs').textContent = stats.macsSoFar;
    this.stat('utilization').textContent = stats.utilization;
    this.control('scrub').setAttribute('aria-valuetext', stats.valuetext);
  }
}
