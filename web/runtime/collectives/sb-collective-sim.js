// <sb-collective-sim op="all-gather" shape="8" bytes="1e6" wraparound="yes" bidirectional="yes"
// chip="tpu-v5e">: a collective played step by step on a ring, a line or a 2D torus
// (core/sb-simulation.js plays it). The engine simulates once per change of a field
// (engine.simulateCollective, with the link bandwidth and latency the collective calculator
// takes from the chip); chips glide along the arrows while it plays. The closed form and its
// numbers sit beside the picture. The static page carries the first frame.
import {
  SIM_FIELDS, DEFAULT_SPEED, runCollective, simLayout, collectiveSVG, statsView, traffic, checkText,
  costHTML, legendHTML, collectiveSimHTML, pointAt, chipT,
} from './collective-view.js';
import { SbSimulation } from '../core/sb-simulation.js';
import { readFields, texOnDemand, attributeName } from '../core/widget-dom.js';
import './bandwidth-css.js'; // declares this element's sheets (the sharding and systolic ones)

// The settings, each read from its attribute by attributeName.
const SETTINGS = [...SIM_FIELDS, 'sums'];

export class SbCollectiveSim extends SbSimulation {
  static observedAttributes = SETTINGS.map(attributeName);
  static loading = 'Loading the collective simulator…';
  static failure = 'the simulator engine failed to load';
  static speed = DEFAULT_SPEED;
  static redrawOnPlay = true; // chips back to the start of their arrows

  #schema = null;
  #layout = null;
  #flow = null;
  #tex = null;
  #askTex = () => {};
  #chips = [];

  get simulation() { return this.run?.sim ?? null; }
  get cost() { return this.run?.cost ?? null; }

  ready(engine) {
    if (typeof engine.simulateCollective !== 'function') throw new Error('this engine build has no simulateCollective');
    this.#schema = engine.schema('collective');
  }

  start(engine) {
    this.engineRef = engine;
    const fromBuild = Boolean(this.form());
    if (!fromBuild) {
      const values = this.attributeValues(SETTINGS);
      this.shadowRoot.innerHTML = collectiveSimHTML({
        schema: this.#schema, chips: engine.chips(), values, run: runCollective(engine, this.#schema, values),
      });
    }
    this.startPlayback();
    this.#askTex = texOnDemand(this.shadowRoot, fromBuild, (tex) => {
      this.#tex = tex;
      if (this.run?.cost) this.shadowRoot.querySelector('[data-cost]').innerHTML = costHTML(this.#schema, this.run.cost, tex);
    });
    // The build typeset the closed form: keep it, unless a field changed before the engine came.
    this.resimulate(true, { keepFormula: fromBuild && !this.editedEarly });
  }

  fieldValues() {
    return readFields(this.form());
  }

  simulate(engine, values) {
    return runCollective(engine, this.#schema, values);
  }

  lastFrame(run) {
    return run.sim.steps.length;
  }

  drawRun(run, values, context) {
    this.#layout = simLayout(run.sim, values.wraparound === 'yes', values.sums === 'yes' && Boolean(run.sim.sums));
    this.#flow = traffic(run.sim);
    if (!context?.keepFormula) {
      if (!this.#tex) this.#askTex();
      this.shadowRoot.querySelector('[data-cost]').innerHTML = costHTML(this.#schema, run.cost, this.#tex);
    }
    this.shadowRoot.querySelector('[data-legend-slot]').innerHTML = legendHTML(run.sim);
    this.stat('check').textContent = checkText(run.sim);
  }

  afterRun(run, values) {
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { inputs: values, ...run } }));
  }

  // Frame `index`: the state after that many steps and the next step's moves.
  showFrame(index) {
    const sim = this.run.sim;
    const picture = this.shadowRoot.querySelector('[data-picture]');
    picture.innerHTML = collectiveSVG(sim, this.#layout, index, this.playback.playing ? 0 : 0.5);
    this.#chips = [...this.shadowRoot.querySelectorAll('[data-chip]')].map((el) => ({
      el, path: el.dataset.path.split(' ').map(Number), k: Number(el.dataset.k), m: Number(el.dataset.m),
    }));
    const stats = statsView(sim, index, this.#flow);
    for (const key of ['step', 'phase', 'clock', 'moving', 'sent', 'busiest']) this.stat(key).textContent = stats[key];
    this.control('scrub').setAttribute('aria-valuetext', stats.valuetext);
  }

  glide(progress) {
    for (const chip of this.#chips) {
      const p = pointAt(chip.path, chipT(progress, chip.k, chip.m));
      chip.el.setAttribute('transform', `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`);
    }
  }
}
