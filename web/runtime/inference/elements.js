// The inference domain's elements, declared once (roofline/elements.js says how).
export const engineDomain = 'inference';
export const elements = {
  'sb-serving': { load: () => import('./sb-serving.js').then((m) => m.SbServing) },
};
