// SbSimulation: what every simulation element shares (<sb-systolic-sim>, <sb-collective-sim>,
// <sb-pipeline>): the engine simulates once per change of a field and returns every frame;
// playing, stepping and scrubbing only show stored frames. This owns the run, the edits that
// re-simulate (a bad field shows the engine's message beside it and keeps the last good run
// on screen, dimmed), the controls (play, pause, step, back, reset, scrub, speed: Playback's
// one requestAnimationFrame loop) and their keys on the picture: left and right arrows step,
// Home and End go to the first and last frame, Space plays and pauses.
//
// A domain element provides:
//   static speed: frames per second at first (the speed control's selected choice);
//   static redrawOnPlay, glide(progress): as Playback's hooks say;
//   fieldValues(): the fields' values by name, as simulate() takes them;
//   simulate(engine, values): the run (its shape is the element's), or throws the engine's
//     CalculatorError naming the field (or returns a run whose `error`, { field, message },
//     is set: a run that failed and said where);
//   lastFrame(run): the index of its final frame;
//   drawRun(run, values, context): redraws what a new run changes (the picture, its totals);
//   showFrame(index): draws frame `index` of this.run and sets the scrub's aria-valuetext;
//   afterRun(run, values), optional: once a new run shows (to announce it);
// and draws its first root in start(engine), then calls this.startPlayback().
import { SbWidget } from './widget-base.js';
import { Playback } from './playback.js';
import { asError } from './widget-form.js';

const KEYS = { ArrowRight: 1, ArrowLeft: -1 };

export class SbSimulation extends SbWidget {
  static speed = 1;
  static redrawOnPlay = false;

  engineRef = null;
  run = null;
  playback = null;
  #lastKey = '';

  get simulation() { return this.run; }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.playback?.pause();
  }

  // An attribute set after load moves its field and re-simulates.
  rerender() {
    if (this.playback) this.resimulate();
  }

  // The first run, for start(): the run and the error (the root shows it beside its field).
  firstRun(engine, values) {
    this.engineRef = engine;
    this.#lastKey = JSON.stringify(values);
    let run;
    try {
      run = this.simulate(engine, values);
    } catch (err) {
      run = { error: asError(err) };
    }
    this.run = run.error ? null : run;
    return { run: this.run, error: run.error ?? null };
  }

  // Wires the drawn root: edits, the controls and their keys.
  startPlayback() {
    const root = this.shadowRoot;
    const { speed, redrawOnPlay } = this.constructor;
    this.onEdit(() => this.resimulate());
    this.playback = new Playback(root, {
      last: () => (this.run ? this.lastFrame(this.run) : -1),
      show: (index) => this.showFrame(index),
      glide: this.glide ? (progress) => this.glide(progress) : undefined,
      redrawOnPlay,
    }, speed);
    this.playback.wire();
    root.addEventListener('keydown', (event) => this.#key(event));
  }

  // Re-simulates after an edit (`force`: even if no field changed); `context` goes to drawRun.
  resimulate(force = false, context = undefined) {
    const values = this.fieldValues();
    const key = JSON.stringify(values);
    if (!force && key === this.#lastKey) return; // input and change both fire for one edit
    this.#lastKey = key;
    this.playback.pause();
    let run;
    try {
      run = this.simulate(this.engineRef, values);
    } catch (err) {
      run = { error: asError(err) };
    }
    if (run.error) {
      this.showError(run.error, String(values[run.error.field] ?? ''));
      return;
    }
    this.clearErrors();
    this.run = run;
    this.drawRun(run, values, context);
    this.playback.restart();
    this.afterRun?.(run, values);
  }

  // Keys on the picture (not in a field or on a control, which keep their own).
  #key(event) {
    const target = event.composedPath?.()[0] ?? event.target;
    if (!this.run || event.altKey || event.ctrlKey || event.metaKey) return;
    if (target.closest?.('input, select, textarea, button, summary, a')) return;
    const playback = this.playback;
    if (event.key in KEYS) playback.jump(playback.index + KEYS[event.key]);
    else if (event.key === 'Home') playback.jump(0);
    else if (event.key === 'End') playback.jump(this.lastFrame(this.run));
    else if (event.key === ' ') playback.playing ? playback.pause() : playback.play();
    else return;
    event.preventDefault();
  }
}
