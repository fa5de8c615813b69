// The line under a long calculation (long-runner.js): past 100 ms it says the element is working,
// with a progress bar, how far and how long, and a Stop button. An element draws the line
// (<p data-long-status role="status">) where it wants it; one that draws none gets it after its
// form when first needed.
import { escapeHTML } from './escape.js';

const SHOW_AFTER = 100; // ms

// "42% · 1.3 s", or the time alone until the calculation has said how far it is.
export function progressText(fraction, ms) {
  const seconds = `${(ms / 1000).toFixed(1)} s`;
  return fraction === null || fraction === undefined ? seconds : `${Math.floor(fraction * 100)}% · ${seconds}`;
}

export class LongStatus {
  #root;
  #words;
  #timer = 0;
  #started = 0;
  fraction = null; // the share of the work done, as the worker last said

  // words: { working, label, stopped } (the search's: 'Searching every configuration…', 'Search
  // progress', 'Stopped: the tables show…'); onStop: what the Stop button does (cancel).
  constructor(root, words, onStop) {
    this.#root = root;
    this.#words = words;
    this.onStop = onStop;
  }

  #line() {
    let line = this.#root.querySelector('[data-long-status]');
    if (!line) {
      line = document.createElement('p');
      line.className = 'long-status';
      line.dataset.longStatus = '';
      line.setAttribute('role', 'status');
      line.setAttribute('aria-live', 'polite');
      (this.#root.querySelector('form') ?? this.#root.lastChild)?.after(line);
    }
    return line;
  }

  start() {
    this.stop('');
    this.fraction = null;
    this.#started = performance.now();
    this.#timer = setInterval(() => this.#tick(), 50);
  }

  // Ends the line's clock and sets its text; without a text, clears it unless it was already
  // stopped (what the Stop button wrote stays when the cancelled calculation then ends).
  stop(text = null) {
    const running = this.#timer !== 0;
    clearInterval(this.#timer);
    this.#timer = 0;
    if (text === null && !running) return;
    const line = this.#root.querySelector('[data-long-status]');
    if (line) line.textContent = text ?? '';
  }

  #tick() {
    const line = this.#line();
    const ms = performance.now() - this.#started;
    if (ms < SHOW_AFTER || line.querySelector('button')) {
      const seconds = line.querySelector('[data-elapsed]');
      if (seconds) seconds.textContent = progressText(this.fraction, ms);
      const bar = line.querySelector('progress');
      if (bar && this.fraction !== null) bar.value = this.fraction;
      return;
    }
    const { working = 'Working…', label = 'Progress' } = this.#words ?? {};
    line.innerHTML = `${escapeHTML(working)} <progress max="1" aria-label="${escapeHTML(label)}"></progress> ` +
      '<span data-elapsed></span><button type="button" data-stop>Stop</button>';
    line.querySelector('[data-stop]').addEventListener('click', () => {
      this.onStop?.();
      this.stop(this.#words?.stopped ?? 'Stopped: the results show the last calculation that finished.');
    });
  }
}
