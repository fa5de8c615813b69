// <sb-gpu-collective-sim>'s sheet (and <sb-collective-scaling>'s plot), after the shadow and simulator sheets it shares with
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
.gpu-coll .switch-label { fill: var(--_fg); font-size: 9px; paint-order: stroke; stroke: var(--_bg); stroke-width: 3px; }
.gpu-coll .gpu rect { fill: color-mix(in srgb, var(--_compute) 22%, var(--_bg)); stroke: var(--_compute); }
.gpu-coll .gpu text { fill: var(--_fg); }
.gpu-coll .path { fill: none; stroke-width: 1.5; opacity: 0.75; }
.gpu-coll .level-0 .path { stroke: var(--_accent); }
.gpu-coll .level-1 .path, .gpu-coll .level-2 .path { stroke: var(--_comm); }
.gpu-coll .in-network .path { stroke-dasharray: 3 2; }
.gpu-coll .packet { stroke: var(--_fg); stroke-width: 0.8; }
.sb-gpu-coll .key-node::before { background: var(--_accent); border-color: var(--_accent); }
.sb-gpu-coll .key-leaf::before { background: var(--_comm); border-color: var(--_comm); }
@container (max-width: 30rem) { svg.gpu-coll { font-size: 14px; } .gpu-coll .switch-label { font-size: 12px; } }
.sb-scaling .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 10rem), 1fr)); }
.sb-scaling.is-stale .scaling-body { opacity: 0.45; }
.sb-scaling .plot svg { display: block; width: 100%; height: auto; max-width: 40rem; font-size: 14px; }
.sb-scaling .series { stroke-width: 2.5; }
.sb-scaling .series.gpu { stroke: var(--_comm); }
.sb-scaling .series.tpu { stroke: var(--_accent); stroke-dasharray: 6 3; }
.sb-scaling .dot.gpu, .sb-scaling .swatch.gpu { fill: var(--_comm); background: var(--_comm); }
.sb-scaling .dot.tpu, .sb-scaling .swatch.tpu { fill: var(--_accent); background: var(--_accent); }
.sb-scaling .dot { stroke: var(--_bg); stroke-width: 1; }
.sb-scaling .legend { list-style: none; padding: 0; margin: 0.5rem 0 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
.sb-scaling .legend li { display: flex; align-items: center; gap: 0.4rem; }
.sb-scaling .swatch { display: inline-block; width: 0.9rem; height: 0.9rem; flex: none; }
.sb-scaling .table-wrap { overflow-x: auto; }
.sb-scaling .points { border-collapse: collapse; margin: 0.5rem 0; font-variant-numeric: tabular-nums; }
.sb-scaling .points th, .sb-scaling .points td { padding: 0.2rem 0.6rem; border-bottom: 1px solid var(--_border); text-align: right; }
.sb-scaling .points th:first-child, .sb-scaling .points td:first-child { text-align: left; }
.sb-scaling .caption { margin: 0.5rem 0 0; color: var(--_muted); font-size: 0.85rem; }
@container (max-width: 30rem) { .sb-scaling .plot svg { font-size: 22px; } }`;

registerSheets({ 'gpu-collective': GPU_COLLECTIVE_CSS }, {
  'sb-gpu-collective-sim': ['shadow', 'systolic', 'sharding', 'gpu-collective'],
  'sb-collective-scaling': ['shadow', 'gpu-collective'],
});
