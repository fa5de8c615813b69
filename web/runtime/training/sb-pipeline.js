// <sb-pipeline stages="4" microbatches="8" schedule="1f1b" virtual_stages="2" ...>: the engine's
// pipeline simulation as a Gantt grid, played event by event (core/sb-simulation.js plays it);
// a frame only moves the time line and the boxes' classes. The static page carries the whole
// grid (declarative shadow DOM) until the engine arrives.
import { PIPELINE_FIELDS, DEFAULT_SPEED, runPipeline, ganttSVG, statsView, frameTime, pipelineHTML } from './pipeline-view.js';
import { SbSimulation } from '../core/sb-simulation.js';
import { attributeName } from '../core/widget-dom.js';
import { formatValue } from '../core/format.js';
import '../systolic/systolic-css.js';
import './pipeline-css.js';

const pct = (v) => (v === null || v === undefined ? 'none' : `${(100 * v).toFixed(1)}%`);

export class SbPipeline extends SbSimulation {
  static observedAttributes = PIPELINE_FIELDS.map(attributeName);
  static loading = 'Loading the pipeline simulator…';
  static failure = 'the simulator engine failed to load';
  static speed = DEFAULT_SPEED;

  #schema = null;
  #boxes = [];

  placeholder() {
    if (!this.shadowRoot) super.placeholder();
  }

  ready(engine) {
    this.#schema = engine.schema('pipeline');
  }

  start(engine) {
    const values = this.form() ? this.fieldValues() : this.attributeValues(PIPELINE_FIELDS);
    const { run, error } = this.firstRun(engine, values);
    this.shadowRoot.innerHTML = pipelineHTML({ schema: this.#schema, values, sim: run, error });
    this.#cacheBoxes();
    this.startPlayback();
    if (run) this.playback.restart();
  }

  fieldValues() {
    const form = this.form();
    return Object.fromEntries(PIPELINE_FIELDS.map((name) => [name, (form.elements.namedItem(name)?.value ?? '').trim()]));
  }

  simulate(engine, values) {
    return runPipeline(engine, values);
  }

  lastFrame(sim) {
    return sim.frames.length;
  }

  drawRun(sim) {
    this.shadowRoot.querySelector('[data-grid]').innerHTML = ganttSVG(sim, 0);
    this.#cacheBoxes();
    this.stat('step').textContent = formatValue(sim.step_time, '');
    this.stat('ideal').textContent = formatValue(sim.ideal_time, '');
    this.stat('bubble').textContent = pct(sim.bubble_fraction);
    this.stat('closed').textContent = pct(sim.closed_form_bubble);
    this.stat('peak').textContent = formatValue(sim.peak_activations, '');
  }

  #cacheBoxes() {
    this.#boxes = [...this.shadowRoot.querySelectorAll('[data-item]')].map((g) => ({ g, state: '' }));
  }

  // Event `index`: the time line moves and each box's state class follows.
  showFrame(index) {
    const sim = this.run;
    const t = frameTime(sim, index);
    sim.items.forEach((item, i) => {
      const state = item.end <= t ? 'done' : (item.start <= t ? 'running' : 'todo');
      const box = this.#boxes[i];
      if (box && box.state !== state) {
        box.g.classList.remove('done', 'running', 'todo');
        box.g.classList.add(state);
        box.state = state;
      }
    });
    const line = this.shadowRoot.querySelector('[data-now]');
    const svg = line.ownerSVGElement;
    const [left, right] = [74, svg.viewBox.baseVal.width - 12];
    const x = left + (right - left) * (sim.step_time ? t / sim.step_time : 0);
    line.setAttribute('x1', x);
    line.setAttribute('x2', x);
    const stats = statsView(sim, index);
    this.stat('time').textContent = stats.time;
    this.stat('held').textContent = stats.held;
    this.control('scrub').setAttribute('aria-valuetext', stats.valuetext);
  }
}
