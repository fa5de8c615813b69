// <sb-gpu-collective-sim>'s sheet, after the shadow and simulator sheets it shares with
// chapter 3's <sb-collective-sim>: the fabric (nodes, NVSwitches, the leaf), the GPUs and
// each level's paths. Colours are the palette's custom properties (with their dark set), and
// everything is a class: a page's strict CSP allows no style attribute.
import { registerSheets } from '../core/sheets.js';
import '../systolic/systolic-css.js';
import '../sharding/sharding-css.js';

export const GPU_COLLECTIVE_CSS = `
svg.gpu-coll { display: block; width: 100%; height: auto; font-family: var(--_font); font-size: 10px; }
.gpu-coll-picture { max-width: 44rem; }
.sb-gpu-coll .sim-side { min-width: min(100%, 18rem); }
.sb-gpu-coll .sim-stats dd { white-space: normal; overflow-wrap: anywhere; text-align: right; }
.gpu-coll .node { fill: none; stroke: var(--_muted); stroke-dasharray: 4 3; }
.gpu-coll .switch { fill: color-mix(in srgb, var(--_accent) 18%, var(--_bg)); stroke: var(--_accent); }
.gpu-coll .switch.leaf { fill: color-mix(in srgb, var(--_comm) 16%, var(--_bg)); stroke: var(--_comm); }
.gpu-coll .switch-label { fill: var(--_fg); font-size: 9px; }
.gpu-coll .gpu rect { fill: color-mix(in srgb, var(--_compute) 22%, var(--_bg)); stroke: var(--_compute); }
.gpu-coll .gpu text { fill: var(--_fg); }
.gpu-coll .path { fill: none; stroke-width: 1.5; opacity: 0.75; }
.gpu-coll .level-0 .path { stroke: var(--_accent); }
.gpu-coll .level-1 .path, .gpu-coll .level-2 .path { stroke: var(--_comm); }
.gpu-coll .in-network .path { stroke-dasharray: 3 2; }
.gpu-coll .packet { stroke: var(--_fg); stroke-width: 0.8; }
.sb-gpu-coll .key-node::before { background: var(--_accent); border-color: var(--_accent); }
.sb-gpu-coll .key-leaf::before { background: var(--_comm); border-color: var(--_comm); }
@container (max-width: 30rem) { svg.gpu-coll { font-size: 14px; } .gpu-coll .switch-label { font-size: 12px; } }`;

registerSheets({ 'gpu-collective': GPU_COLLECTIVE_CSS }, {
  'sb-gpu-collective-sim': ['shadow', 'systolic', 'sharding', 'gpu-collective'],
});
