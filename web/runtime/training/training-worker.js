// The training domain's worker (core/long-worker.js runs the calculations): its long
// calculations (the configuration search) off the page's thread. The training module
// (bindings/wasm/CMakeLists.txt), imported directly: engine.mjs's loader would bundle every
// module's glue into this worker, which is built without splitting. It is the module chapter 6
// loads, so the worker finds its .wasm in the cache, and it holds every calculator of the
// training domain (chapter 5's module adds sharding and leaves out the search, which only
// chapter 6 runs). Declared in elements.js, built beside scalebook.js by web/builder/build.mjs.
import createScalebookEngine from '../../../bindings/wasm/generated/scalebook-engine-training.mjs';
import { wrapModule, moduleOptions } from '../../../bindings/wasm/api.mjs';
import { serveCalculations } from '../core/long-worker.js';

serveCalculations(async () => wrapModule(await createScalebookEngine(await moduleOptions('scalebook-engine-training.wasm'))));
