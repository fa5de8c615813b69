// The exercises' elements, declared once (roofline/elements.js says how). An exercise may use any
// calculator, so its engine domain is 'all'; the progress box never asks for the engine.
export const engineDomain = 'all';
export const elements = {
  'sb-exercise': { load: () => import('./sb-exercise.js').then((m) => m.SbExercise) },
  'sb-progress': { engine: false, load: () => import('./sb-progress.js').then((m) => m.SbProgress) },
};
