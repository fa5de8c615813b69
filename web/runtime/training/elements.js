// The training domain's elements, declared once (roofline/elements.js says how), and the worker
// its long calculations run in (core/long-runner.js), whose entry the builder bundles beside
// scalebook.js under the same file name, where this URL then points.
export const engineDomain = 'training';
export const elements = {
  'sb-pipeline': { calculator: 'pipeline', simulations: ['pipeline'], load: () => import('./sb-pipeline.js').then((m) => m.SbPipeline) },
  'sb-training': { calculator: 'training', load: () => import('./sb-training.js').then((m) => m.SbTraining) },
  'sb-training-plan': { calculator: 'training-plan', load: () => import('./sb-training-plan.js').then((m) => m.SbTrainingPlan) },
  'sb-training-search': { calculator: 'training-search', load: () => import('./sb-training-search.js').then((m) => m.SbTrainingSearch) },
  'sb-training-budget': { calculator: 'training-budget', load: () => import('./sb-training-budget.js').then((m) => m.SbTrainingBudget) },
  'sb-training-split': { calculator: 'training-split', load: () => import('./sb-training-split.js').then((m) => m.SbTrainingSplit) },
};
export const worker = new URL('./training-worker.js', import.meta.url);
