// The hardware domain's elements, declared once (roofline/elements.js says how).
export const engineDomain = 'hardware';
export const elements = {
  'sb-chip': { calculator: 'chip' },
  'sb-chip-table': { load: () => import('./sb-chip-table.js').then((m) => m.SbChipTable) },
  'sb-slice': { calculator: 'slice', load: () => import('./sb-slice.js').then((m) => m.SbSlice) },
  'sb-my-chip': { load: () => import('./sb-my-chip.js').then((m) => m.SbMyChip) },
  'sb-flops-per-dollar': { calculator: 'flops-per-dollar' },
};
