// <sb-gpu-collective-sim op="all-gather" gpus="16" chip="h100" cluster="auto" bytes="1e9"
// latency="0" algorithm="auto">: chapter 12's switched-collective simulator, a collective over
// GPUs under their NVSwitches and a leaf switch played step by step (core/sb-simulation.js
// plays it: play, pause, step, back, reset, arrows, Home, End, Space). The engine's
// gpu-collective simulation moves the packets; the collective calculator's time for the same
// GPUs sits beside the total. Each step shown while paused is said aloud (a polite live
// region). The static page carries the first frame.
import { FIELDS, DEFAULT_SPEED, runGpuCollective, layoutOf, fabricSVG, statsView, checkText, legendHTML, gpuCollectiveSimHTML, movesPoints, along, PAUSED_AT } from './gpu-collective-view.js';
import { SbSimulation } from '../core/sb-simulation.js';
import { readFields, attributeName } from '../core/widget-dom.js';
import './gpu-collective-css.js';

export class SbGpuCollectiveSim extends SbSimulation {
  static observedAttributes = FIELDS.map(attributeName);
  static loading = 'Loading the switched-collective simulator…';
  static failure = 'the simulator engine failed to load';
  static speed = DEFAULT_SPEED;
  static redrawOnPlay = true; // packets back to the start of their paths

  #layout = null;
  #packets = [];

  get simulation() { return this.run?.sim ?? null; }

  ready(engine) {
    if (!engine.simulations().includes('gpu-collective')) throw new Error('this engine build has no gpu-collective simulation');
  }

  start(engine) {
    this.engineRef = engine;
    if (!this.form()) {
      const values = this.attributeValues(FIELDS);
      this.shadowRoot.innerHTML = gpuCollectiveSimHTML({ engine, values, run: runGpuCollective(engine, values), chips: engine.chips() });
    }
    this.startPlayback();
    this.resimulate(true);
  }

  fieldValues() {
    return readFields(this.form());
  }

  simulate(engine, values) {
    return runGpuCollective(engine, values);
  }

  lastFrame(run) {
    return run.sim.steps.length;
  }

  drawRun(run) {
    this.#layout = layoutOf(run.sim);
    this.shadowRoot.querySelector('[data-legend-slot]').innerHTML = legendHTML(run.sim);
    this.stat('check').textContent = checkText(run.sim, run.calculatorTime);
  }

  afterRun(run, values) {
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { inputs: values, ...run } }));
  }

  showFrame(index) {
    const { sim } = this.run;
    const playing = this.playback.playing;
    this.shadowRoot.querySelector('[data-picture]').innerHTML = fabricSVG(sim, this.#layout, index, playing ? 0 : PAUSED_AT);
    this.#packets = [...this.shadowRoot.querySelectorAll('[data-packet]')].map((el) => ({ el, points: movesPoints(el.dataset.points) }));
    const stats = statsView(sim, index);
    for (const key of ['step', 'phase', 'clock', 'duration', 'binding', 'levels']) this.stat(key).textContent = stats[key];
    this.control('scrub').setAttribute('aria-valuetext', stats.valuetext);
    // Spoken only when the reader moves a step at a time; while playing the frames run on.
    if (!playing) this.shadowRoot.querySelector('[data-announce]').textContent = stats.announce;
  }

  // Playback asks for 0.5 on pause; a paused step shows its packets at PAUSED_AT.
  glide(progress) {
    const t = this.playback.playing ? Math.max(0.04, Math.min(0.96, progress)) : PAUSED_AT;
    for (const packet of this.#packets) {
      const p = along(packet.points, t);
      packet.el.setAttribute('transform', `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`);
    }
  }
}
