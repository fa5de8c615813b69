// <sb-collective-sim op="all-gather" shape="8" bytes="1e6" wraparound="yes" bidirectional="yes"
// chip="tpu-v5e">: a collective played step by step on a ring, a line or a 2D torus. The engine
// simulates once per change of a field (engine.simulateCollective, with the link bandwidth and
// latency the collective calculator takes from the chip) and returns every step's moves and
// every device's state; playing, stepping and scrubbing only show stored steps, with chips
// gliding along the arrows while it plays (one requestAnimationFrame loop). The closed form
// and its numbers sit beside the picture. The static page carries the first frame.
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import {
  SIM_FIELDS, DEFAULT_SPEED, runCollective, simLayout, collectiveSVG, statsView, traffic, checkText,
  costHTML, legendHTML, collectiveSimHTML, pointAt, chipT,
} from './collective-view.js';
import { SHADOW_CSS } from './styles.js';
import { escapeHTML } from './escape.js';
import { clearErrors, showError, readFields, setField, loadTex } from './widget-dom.js';

const ATTRIBUTES = [...SIM_FIELDS, 'sums'];

export class SbCollectiveSim extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  #engine = null;
  #schema = null;
  #run = null;
  #layout = null;
  #flow = null;
  #tex = null;
  #index = 0;
  #speed = DEFAULT_SPEED;
  #playing = false;
  #raf = 0;
  #clock = 0;
  #chips = [];
  #lastKey = '';
  #started = false;

  get simulation() { return this.#run?.sim ?? null; }
  get cost() { return this.#run?.cost ?? null; }

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    if (!this.shadowRoot?.querySelector('form')) {
      (this.shadowRoot ?? this.attachShadow({ mode: 'open' })).innerHTML =
        `<style>${SHADOW_CSS}</style><p class="loading" role="status">Loading the collective simulator…</p>`;
    }
    this.#start();
  }

  disconnectedCallback() {
    this.#pause();
  }

  attributeChangedCallback(name, _old, value) {
    const form = this.#form();
    if (!form || !this.#engine) return; // the first render reads the attributes itself
    const field = form.elements.namedItem(name);
    if (field) setField(field, (value ?? '').trim());
    this.#resimulate();
  }

  async #start() {
    try {
      this.#engine = await loadEngine();
      if (typeof this.#engine.simulateCollective !== 'function') throw new Error('this engine build has no simulateCollective');
      this.#schema = this.#engine.schema('collective');
    } catch (err) {
      this.shadowRoot.innerHTML = `<style>${SHADOW_CSS}</style>` +
        `<p class="error" role="alert">${escapeHTML(`the simulator engine failed to load: ${err?.message ?? err}`)}</p>`;
      return;
    }
    const fromBuild = Boolean(this.#form());
    if (!fromBuild) {
      const values = Object.fromEntries(ATTRIBUTES.map((name) => [name, (this.getAttribute(name) ?? '').trim()]));
      this.shadowRoot.innerHTML = collectiveSimHTML({
        schema: this.#schema, chips: this.#engine.chips(), values, run: runCollective(this.#engine, this.#schema, values),
      });
    }
    this.#wire();
    // The build typeset the closed form: keep it until KaTeX is here.
    this.#resimulate(true, fromBuild);
    loadTex().then((tex) => {
      if (!tex) return;
      this.#tex = tex;
      if (this.#run?.cost) this.shadowRoot.querySelector('[data-cost]').innerHTML = costHTML(this.#schema, this.#run.cost, tex);
    });
  }

  #form() {
    return this.shadowRoot?.querySelector('form');
  }

  #wire() {
    const root = this.shadowRoot;
    const form = this.#form();
    form.addEventListener('input', () => this.#resimulate());
    form.addEventListener('change', () => this.#resimulate());
    form.addEventListener('submit', (event) => event.preventDefault());
    root.addEventListener('click', (event) => {
      const action = event.target.closest?.('button[data-action]')?.dataset.action;
      if (action === 'play') this.#playing ? this.#pause() : this.#play();
      else if (action === 'step') this.#jump(this.#index + 1);
      else if (action === 'back') this.#jump(this.#index - 1);
      else if (action === 'reset') this.#jump(0);
    });
    const scrub = this.#control('scrub');
    scrub.addEventListener('input', () => this.#jump(Number(scrub.value)));
    const speed = this.#control('speed');
    speed.addEventListener('change', () => {
      this.#speed = Number(speed.value);
      this.#clock = performance.now();
    });
  }

  #control(action) {
    return this.shadowRoot.querySelector(`[data-action="${action}"]`);
  }

  #stat(key) {
    return this.shadowRoot.querySelector(`[data-stat="${key}"]`);
  }

  // Re-simulates after an edit; a bad field shows the engine's message beside it and keeps the
  // last good run on screen, dimmed.
  #resimulate(force = false, keepFormula = false) {
    const values = readFields(this.#form());
    const key = JSON.stringify(values);
    if (!force && key === this.#lastKey) return; // input and change both fire for one edit
    this.#lastKey = key;
    this.#pause();
    const run = runCollective(this.#engine, this.#schema, values);
    if (run.error) {
      showError(this.shadowRoot, run.error, String(values[run.error.field] ?? ''));
      return;
    }
    clearErrors(this.shadowRoot);
    this.#run = run;
    this.#layout = simLayout(run.sim, values.wraparound === 'yes', values.sums === 'yes' && Boolean(run.sim.sums));
    this.#flow = traffic(run.sim);
    if (!keepFormula) this.shadowRoot.querySelector('[data-cost]').innerHTML = costHTML(this.#schema, run.cost, this.#tex);
    this.shadowRoot.querySelector('[data-legend-slot]').innerHTML = legendHTML(run.sim);
    this.#stat('check').textContent = checkText(run.sim);
    const scrub = this.#control('scrub');
    scrub.max = String(run.sim.steps.length);
    for (const control of this.shadowRoot.querySelectorAll('.sim-controls [disabled]')) control.disabled = false;
    this.#index = -1;
    this.#jump(0);
    this.dispatchEvent(new CustomEvent('sb-change', { bubbles: true, composed: true, detail: { inputs: values, ...run } }));
  }

  // Shows frame `index` (clamped): the state after that many steps and the next step's moves.
  #jump(index) {
    const sim = this.#run?.sim;
    if (!sim) return;
    const last = sim.steps.length;
    const next = Math.max(0, Math.min(last, index));
    if (next === this.#index) return;
    this.#index = next;
    this.shadowRoot.querySelector('[data-picture]').innerHTML = collectiveSVG(sim, this.#layout, next, this.#playing ? 0 : 0.5);
    this.#chips = [...this.shadowRoot.querySelectorAll('[data-chip]')].map((el) => ({
      el, path: el.dataset.path.split(' ').map(Number), k: Number(el.dataset.k), m: Number(el.dataset.m),
    }));
    const stats = statsView(sim, next, this.#flow);
    for (const key of ['step', 'phase', 'clock', 'moving', 'sent', 'busiest']) this.#stat(key).textContent = stats[key];
    const scrub = this.#control('scrub');
    scrub.value = String(next);
    scrub.setAttribute('aria-valuetext', stats.valuetext);
    if (next === last && this.#playing) this.#pause();
  }

  #play() {
    const sim = this.#run?.sim;
    if (!sim) return;
    this.#playing = true;
    if (this.#index >= sim.steps.length) this.#jump(0);
    else {
      const at = this.#index;
      this.#index = -1;
      this.#jump(at); // chips back to the start of their arrows
    }
    this.#clock = performance.now();
    const button = this.#control('play');
    button.textContent = 'Pause';
    button.setAttribute('aria-pressed', 'true');
    this.#raf = requestAnimationFrame((now) => this.#tick(now));
  }

  #pause() {
    cancelAnimationFrame(this.#raf);
    if (!this.#playing) return;
    this.#playing = false;
    const button = this.#control('play');
    button.textContent = 'Play';
    button.setAttribute('aria-pressed', 'false');
    this.#glide(0.5);
  }

  #glide(progress) {
    for (const chip of this.#chips) {
      const p = pointAt(chip.path, chipT(progress, chip.k, chip.m));
      chip.el.setAttribute('transform', `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`);
    }
  }

  #tick(now) {
    if (!this.#playing) return;
    const period = 1000 / this.#speed;
    const progress = (now - this.#clock) / period;
    if (progress >= 1) {
      const steps = Math.floor(progress);
      this.#clock += steps * period;
      this.#jump(this.#index + steps);
    } else {
      this.#glide(progress);
    }
    if (this.#playing) this.#raf = requestAnimationFrame((t) => this.#tick(t));
  }
}
