// The transformer domain's elements, declared once (roofline/elements.js says how).
export const engineDomain = 'transformer';
export const elements = {
  'sb-transformer': { calculator: 'transformer', load: () => import('./sb-transformer.js').then((m) => m.SbTransformer) },
  'sb-model-config': { calculators: ['transformer'], load: () => import('./sb-model-config.js').then((m) => m.SbModelConfig) },
};
