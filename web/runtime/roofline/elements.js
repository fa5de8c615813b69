// The roofline domain's elements, declared once (index.js defines them, the builder preloads
// their code and picks the engine module they need, and a test checks every calculator has
// one): each tag, the calculator it draws (if it draws one), and the import of its code, a
// chunk of its own (a static path, so esbuild splits it); a calculator with no code of its own
// is the plain form and tables (domains.js). An element that asks the engine for more than its
// calculator lists the rest as `calculators` and `simulations`; one that says what it calls
// can be served by a module built without the rest of its domain (engine-pick.mjs).
export const engineDomain = 'roofline';
export const elements = {
  'sb-roofline': { calculator: 'roofline' },
  'sb-matmul': { calculator: 'matmul' },
  'sb-intensity': { calculator: 'intensity' },
  'sb-roofline-plot': { load: () => import('./sb-roofline-plot.js').then((m) => m.SbRooflinePlot) },
  'sb-batch-sweep': { load: () => import('./sb-batch-sweep.js').then((m) => m.SbBatchSweep) },
};
