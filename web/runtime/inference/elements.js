// The inference domain's elements, declared once (roofline/elements.js says how): chapter 7's
// calculators, each with the pictures it draws beside its form, and the serving simulation;
// chapter 8's serving search and prefill / generate planner as the plain form and tables.
export const engineDomain = 'inference';
export const elements = {
  'sb-sampler': { calculator: 'sampler', load: () => import('./sb-sampler.js').then((m) => m.SbSampler) },
  'sb-kv-allocator': { calculator: 'kv-allocator', load: () => import('./sb-kv-allocator.js').then((m) => m.SbKvAllocator) },
  'sb-speculative': { calculator: 'speculative', load: () => import('./sb-speculative.js').then((m) => m.SbSpeculative) },
  'sb-inference': { calculator: 'inference', load: () => import('./sb-inference.js').then((m) => m.SbInference) },
  'sb-inference-frontier': { calculator: 'inference-frontier', load: () => import('./sb-inference-frontier.js').then((m) => m.SbInferenceFrontier) },
  'sb-serving': { simulations: ['serving'], load: () => import('./sb-serving.js').then((m) => m.SbServing) },
  'sb-serving-search': { calculator: 'serving-search' },
  'sb-serving-capacity': { calculator: 'serving-capacity' },
};
