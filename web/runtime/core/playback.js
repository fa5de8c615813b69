// Play, pause, step, back, reset, scrub and speed over a stored run of frames, for the
// simulation elements' base (sb-simulation.js). The element owns the frames and draws them;
// this owns the frame index, the clock and the one requestAnimationFrame loop.
//
// hooks: last() the index of the final frame; show(index) draws a frame (and its stats);
// glide(progress) optional, called with 0..1 between frames while playing and with 0.5 on
// pause, for widgets that move things along a step; redrawOnPlay: redraw the current frame
// when play starts (its moving parts go back to their start).
export class Playback {
  index = 0;
  playing = false;
  #root;
  #hooks;
  #speed;
  #clock = 0;
  #raf = 0;

  constructor(root, hooks, speed) {
    this.#root = root;
    this.#hooks = hooks;
    this.#speed = speed;
  }

  #control(action) {
    return this.#root.querySelector(`[data-action="${action}"]`);
  }

  wire() {
    this.#root.addEventListener('click', (event) => {
      const action = event.target.closest?.('button[data-action]')?.dataset.action;
      if (action === 'play') this.playing ? this.pause() : this.play();
      else if (action === 'step') this.jump(this.index + 1);
      else if (action === 'back') this.jump(this.index - 1);
      else if (action === 'reset') this.jump(0);
    });
    const scrub = this.#control('scrub');
    scrub.addEventListener('input', () => this.jump(Number(scrub.value)));
    const speed = this.#control('speed');
    speed.addEventListener('change', () => {
      this.#speed = Number(speed.value);
      this.#clock = performance.now();
    });
  }

  // A new run: its controls enabled, its first frame shown.
  restart() {
    this.pause();
    this.#control('scrub').max = String(this.#hooks.last());
    for (const control of this.#root.querySelectorAll('.sim-controls [disabled]')) control.disabled = false;
    this.index = -1;
    this.jump(0);
  }

  // Shows frame `index`, clamped; playing stops at the last frame.
  jump(index) {
    const last = this.#hooks.last();
    if (last < 0) return;
    const next = Math.max(0, Math.min(last, index));
    if (next === this.index) return;
    this.index = next;
    this.#hooks.show(next);
    this.#control('scrub').value = String(next);
    if (next === last && this.playing) this.pause();
  }

  play() {
    const last = this.#hooks.last();
    if (last < 0) return;
    const at = this.index >= last ? 0 : this.index;
    this.playing = true;
    if (this.#hooks.redrawOnPlay) this.index = -1;
    this.jump(at);
    this.#clock = performance.now();
    this.#setButton('Pause', 'true');
    this.#raf = requestAnimationFrame((now) => this.#tick(now));
  }

  pause() {
    cancelAnimationFrame(this.#raf);
    if (!this.playing) return;
    this.playing = false;
    this.#setButton('Play', 'false');
    this.#hooks.glide?.(0.5);
  }

  #setButton(text, pressed) {
    const button = this.#control('play');
    button.textContent = text;
    button.setAttribute('aria-pressed', pressed);
  }

  #tick(now) {
    if (!this.playing) return;
    const period = 1000 / this.#speed;
    const progress = (now - this.#clock) / period;
    if (progress >= 1) {
      const steps = Math.floor(progress);
      this.#clock += steps * period;
      this.jump(this.index + steps);
    } else {
      this.#hooks.glide?.(progress);
    }
    if (this.playing) this.#raf = requestAnimationFrame((t) => this.#tick(t));
  }
}
