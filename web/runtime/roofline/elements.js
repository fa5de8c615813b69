// The roofline domain's elements, declared once (index.js defines them, the builder preloads
// their code and picks the engine module they need, and a test checks every calculator has
// one): each tag, the calculator it draws (if it draws one), and the import of its code, a
// chunk of its own (a static path, so esbuild splits it).
export const engineDomain = 'roofline';
export const elements = {
  'sb-roofline': { calculator: 'roofline', load: () => import('./sb-roofline.js').then((m) => m.SbRoofline) },
  'sb-matmul': { calculator: 'matmul', load: () => import('./sb-matmul.js').then((m) => m.SbMatmul) },
  'sb-intensity': { calculator: 'intensity', load: () => import('./sb-intensity.js').then((m) => m.SbIntensity) },
  'sb-roofline-plot': { load: () => import('./sb-roofline-plot.js').then((m) => m.SbRooflinePlot) },
  'sb-batch-sweep': { load: () => import('./sb-batch-sweep.js').then((m) => m.SbBatchSweep) },
};
