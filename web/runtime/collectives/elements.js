// The collectives domain's elements, declared once (roofline/elements.js says how).
export const engineDomain = 'collectives';
export const elements = {
  'sb-collective': { calculator: 'collective', load: () => import('./sb-collective.js').then((m) => m.SbCollective) },
  // steps: it shows the collective's closed form, the calculator's worked steps.
  'sb-collective-sim': { steps: true, calculators: ['collective'], simulations: ['collective'], load: () => import('./sb-collective-sim.js').then((m) => m.SbCollectiveSim) },
  'sb-collective-sweep': { calculators: ['collective'], load: () => import('./sb-collective-sweep.js').then((m) => m.SbCollectiveSweep) },
};
