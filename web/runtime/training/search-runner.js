// Runs a calculation in the search worker when the page may start one (same origin: the book's
// own pages), else on the page's thread (an embed on another origin, where a worker from our
// origin is refused). The worker answers one message at a time; a newer request cancels the
// older one by ending the worker, which the next request restarts. `onProgress(fraction)` hears
// how far the worker's search has got (on the page's thread the page cannot repaint until the
// search ends, so it hears nothing).
const WORKER = new URL('./search-worker.js', import.meta.url);

export class SearchRunner {
  #worker = null;
  #pending = null;
  #next = 0;
  #engine;

  constructor(engine) {
    this.#engine = engine;
  }

  get usesWorker() {
    return typeof Worker !== 'undefined' && typeof location !== 'undefined' &&
      WORKER.origin === location.origin && WORKER.protocol !== 'file:';
  }

  run(calculator, inputs, { onProgress = null } = {}) {
    if (!this.usesWorker) return this.#engine.calculate(calculator, inputs, { steps: false });
    this.cancel();
    this.#worker ??= this.#start();
    if (!this.#worker) return this.#engine.calculate(calculator, inputs, { steps: false });
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#pending = { id, resolve, reject, onProgress };
      this.#worker.postMessage({ id, calculator, inputs });
    });
  }

  cancel() {
    if (!this.#pending) return;
    this.#pending.reject(Object.assign(new Error('cancelled'), { cancelled: true }));
    this.#pending = null;
    this.#worker?.terminate();
    this.#worker = null;
  }

  #start() {
    let worker;
    try {
      worker = new Worker(WORKER, { type: 'module' });
    } catch {
      return null;
    }
    worker.onmessage = ({ data }) => {
      const p = this.#pending;
      if (!p || p.id !== data.id) return;
      if (data.progress !== undefined) {
        p.onProgress?.(data.progress);
        return;
      }
      this.#pending = null;
      if (data.error) p.reject(Object.assign(new Error(data.error.message), data.error));
      else p.resolve(data.result);
    };
    worker.onerror = (event) => {
      const p = this.#pending;
      this.#pending = null;
      this.#worker = null;
      p?.reject(new Error(`the search worker failed: ${event.message ?? 'unknown error'}`));
    };
    return worker;
  }
}
