// The configuration search off the page's thread: one engine per worker, one calculation per
// message, the answer (or the engine's error, as plain fields) posted back with the message's id.
// The training module (bindings/wasm/CMakeLists.txt), imported directly: engine.mjs's loader
// would bundle every module's glue into this worker, which is built without splitting. It is
// the module chapters 5 and 6 load, so the worker finds its .wasm in the cache, and it holds
// every calculator of the training domain, the only elements that use the worker.
import createScalebookEngine from '../../../bindings/wasm/generated/scalebook-engine-training.mjs';
import { wrapModule, moduleOptions } from '../../../bindings/wasm/api.mjs';

const loadEngine = async () => wrapModule(await createScalebookEngine(await moduleOptions('scalebook-engine-training.wasm')));

let engine = null;

self.onmessage = async ({ data }) => {
  const { id, calculator, inputs } = data;
  try {
    engine ??= await loadEngine();
    // The search's progress is posted as it runs; the page hears it while this call is busy.
    const progress = (fraction) => postMessage({ id, progress: fraction });
    postMessage({ id, result: engine.calculate(calculator, inputs, { steps: false, progress }) });
  } catch (err) {
    postMessage({ id, error: { name: err?.name, code: err?.code, field: err?.field, message: String(err?.message ?? err) } });
  }
};
