// <sb-serving mode="continuous" rate="10" slots="32" ...>: the engine's serving simulation
// (engine.simulate('serving')) played over time by core/sb-simulation.js: a frame is a point of
// its series, and moves the time line across the pictures and the figures beside them.
import { SERVING_FIELDS, DEFAULT_SPEED, runServing, frameCount, frameView, nowX, picturesHTML, servingHTML } from './serving-view.js';
import { SbSimulation } from '../core/sb-simulation.js';
import { attributeName } from '../core/widget-dom.js';
import './serving-css.js';

export class SbServing extends SbSimulation {
  static observedAttributes = SERVING_FIELDS.map(attributeName);
  static loading = 'Loading the serving simulator…';
  static failure = 'the simulator engine failed to load';
  static speed = DEFAULT_SPEED;

  placeholder() {
    if (!this.shadowRoot) super.placeholder();
  }

  start(engine) {
    const values = this.form() ? this.fieldValues() : this.attributeValues(SERVING_FIELDS);
    const { run, error } = this.firstRun(engine, values);
    this.shadowRoot.innerHTML = servingHTML({ values, sim: run, error });
    this.startPlayback();
    if (run) this.playback.restart();
  }

  fieldValues() {
    const form = this.form();
    return Object.fromEntries(SERVING_FIELDS.map((name) => [name, (form.elements.namedItem(name)?.value ?? '').trim()]));
  }

  simulate(engine, values) {
    return runServing(engine, values);
  }

  lastFrame(sim) {
    return frameCount(sim) - 1;
  }

  drawRun(sim) {
    this.shadowRoot.querySelector('[data-picture]').innerHTML = picturesHTML(sim, 0);
    for (const action of ['play', 'back', 'step', 'reset', 'scrub']) this.control(action).disabled = !sim.fits;
  }

  // Point `index`: the time lines move and the figures follow.
  showFrame(index) {
    const sim = this.run;
    if (!sim?.fits) return;
    const x = nowX(sim, index);
    for (const line of this.shadowRoot.querySelectorAll('[data-now]')) {
      line.setAttribute('x1', x);
      line.setAttribute('x2', x);
    }
    const f = frameView(sim, index);
    for (const key of ['time', 'queue', 'active', 'rate']) this.stat(key).textContent = f[key];
    this.control('scrub').setAttribute('aria-valuetext', f.valuetext);
  }
}
