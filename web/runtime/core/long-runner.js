// Runs a long calculation (a schema with long_running: the training search) in its domain's
// worker when the page may start one (same origin: the book's own pages), else on the page's
// thread (an embed on another origin, where a worker from our origin is refused). The worker
// answers one message at a time; a newer request cancels the older one by ending the worker,
// which the next request restarts. `onProgress(fraction)` hears how far the worker has got (on
// the page's thread the page cannot repaint until the calculation ends, so it hears nothing).
// An error comes back as the engine's own CalculatorError, with its code, field and position.
import { CalculatorError } from '../../../bindings/wasm/checks.mjs';

// Each element's worker, by tag: a domain declares its worker entry (web/runtime/<domain>/
// elements.js) and index.js names it for the domain's tags, as it names their engine domain.
const workers = new Map();

export function useWorker(tag, url) {
  workers.set(tag, url);
}

export function workerFor(tag) {
  return workers.get(tag) ?? null;
}

// The error a worker posted (plain fields: an Error's class does not survive the hop), as the
// page would have caught it on its own thread.
export function errorFrom(fields) {
  const { name, code, field, position, message } = fields ?? {};
  if (name === 'CalculatorError') return new CalculatorError({ code, field, message, position });
  return Object.assign(new Error(message ?? 'the calculation failed'), { name: name ?? 'Error', code, field });
}

export class LongRunner {
  #worker = null;
  #pending = null;
  #next = 0;
  #engine;
  #url;

  // url: the worker's script (workerFor(tag)); null runs every calculation on the page's thread.
  constructor(engine, url) {
    this.#engine = engine;
    this.#url = url ? new URL(url) : null;
  }

  get usesWorker() {
    return Boolean(this.#url) && typeof Worker !== 'undefined' && typeof location !== 'undefined' &&
      this.#url.origin === location.origin && this.#url.protocol !== 'file:';
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
      worker = new Worker(this.#url, { type: 'module' });
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
      if (data.error) p.reject(errorFrom(data.error));
      else p.resolve(data.result);
    };
    worker.onerror = (event) => {
      const p = this.#pending;
      this.#pending = null;
      this.#worker = null;
      p?.reject(new Error(`the calculation's worker failed: ${event.message ?? 'unknown error'}`));
    };
    return worker;
  }
}
