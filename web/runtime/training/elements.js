// The training domain, declared once: the worker its long calculations run in (core/
// long-runner.js), its entry built beside scalebook.js under the same file name
// (web/builder/build.mjs), where this URL then points.
export const worker = new URL('./training-worker.js', import.meta.url);
