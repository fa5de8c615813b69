// The gpus domain's elements, declared once (roofline/elements.js says how): chapter 12's
// cluster builder, GPU kernel roofline, chip explorer and parallelism planner, each the
// calculator form with its own picture after it.
export const engineDomain = 'gpus';
export const elements = {
  'sb-gpu-cluster': { calculator: 'gpu-cluster', load: () => import('./sb-gpu-cluster.js').then((m) => m.SbGpuCluster) },
  'sb-gpu-chip': { calculator: 'gpu-chip', load: () => import('./sb-gpu-chip.js').then((m) => m.SbGpuChip) },
  'sb-gpu-kernel': { calculator: 'gpu-kernel', load: () => import('./sb-gpu-kernel.js').then((m) => m.SbGpuKernel) },
  // The build's table of published runs beside the engine's prediction: static, no engine.
  'sb-published-runs': { engine: false, load: () => import('./sb-published-runs.js').then((m) => m.SbPublishedRuns) },
  'sb-gpu-planner': { calculator: 'gpu-planner', load: () => import('./sb-gpu-planner.js').then((m) => m.SbGpuPlanner) },
  'sb-gpu-collective-sim': { calculators: ['collective', 'gpu-cluster'], simulations: ['gpu-collective'], load: () => import('./sb-gpu-collective-sim.js').then((m) => m.SbGpuCollectiveSim) },
  'sb-collective-scaling': { calculators: ['collective', 'gpu-cluster'], load: () => import('./sb-collective-scaling.js').then((m) => m.SbCollectiveScaling) },
};
