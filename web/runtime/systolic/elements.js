// The systolic domain's elements, declared once (roofline/elements.js says how).
export const engineDomain = 'systolic';
export const elements = {
  'sb-systolic': { calculator: 'systolic', load: () => import('./sb-systolic.js').then((m) => m.SbSystolic) },
  'sb-mxu': { calculator: 'mxu', load: () => import('./sb-mxu.js').then((m) => m.SbMxu) },
  'sb-systolic-sim': { load: () => import('./sb-systolic-sim.js').then((m) => m.SbSystolicSim) },
};
