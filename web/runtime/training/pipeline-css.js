// <sb-pipeline>'s own CSS, added to the shadow and systolic sheets (the playback controls).
import { registerSheets } from '../core/sheets.js';
import '../systolic/systolic-css.js'; // the pipeline grid takes the simulators' controls
export const PIPELINE_CSS = `
.gantt-box { overflow-x: auto; margin: 0.6rem 0; }
svg.gantt { display: block; width: 100%; min-width: 34rem; height: auto; font-family: var(--_font); font-size: 12px; }
.gantt text { fill: var(--_fg); }
.gantt .row-label, .gantt .tick text, .gantt .axis-title { fill: var(--_muted); }
.gantt .grid { stroke: var(--_border); }
.gantt .item rect { stroke: var(--_bg); stroke-width: 1; }
.gantt .kind-F rect, .key-F::before { fill: var(--_compute); background: var(--_compute); }
.gantt .kind-B rect, .key-B::before { fill: var(--_memory); background: var(--_memory); }
.gantt .kind-I rect, .key-I::before { fill: var(--_memory); background: var(--_memory); }
.gantt .kind-W rect, .key-W::before { fill: var(--_accent); background: var(--_accent); }
.gantt .item text { fill: #fff; font-size: 11px; font-weight: 600; pointer-events: none; }
.gantt .todo { opacity: 0.35; }
.gantt .running rect { stroke: var(--_fg); stroke-width: 2; }
.gantt .now { stroke: var(--_fg); stroke-width: 1.5; stroke-dasharray: 4 3; }
.sb-pipeline .key::before { content: ""; display: inline-block; width: 0.8em; height: 0.8em;
  margin-right: 0.3em; border-radius: 2px; vertical-align: -0.05em; }
.sb-pipeline .key-idle::before { background: transparent; border: 1px dashed var(--_muted); }
.sb-pipeline .sim-legend { color: var(--_muted); font-size: 0.85rem; }
`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ pipeline: PIPELINE_CSS }, { 'sb-pipeline': ['shadow', 'systolic', 'pipeline'] });
