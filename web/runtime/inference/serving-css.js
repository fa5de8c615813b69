// <sb-serving>'s own CSS, added to the shadow and systolic sheets (the playback controls).
import { registerSheets } from '../core/sheets.js';
import '../systolic/systolic-css.js'; // the serving pictures take the simulators' controls
export const SERVING_CSS = `
.serving-box { overflow-x: auto; margin: 0.6rem 0; }
svg.serving-chart { display: block; width: 100%; min-width: 30rem; height: auto; margin: 0.4rem 0;
  font-family: var(--_font); font-size: 12px; color: var(--_muted); }
.serving-chart .series { fill: none; stroke-width: 1.8; }
.serving-chart .queue { stroke: var(--_memory); stroke-dasharray: 5 3; }
.serving-chart .active, .serving-chart .tokens { stroke: var(--_compute); }
.serving-chart .wait, .key-wait::before { fill: var(--_border); background: var(--_border); }
.serving-chart .prefill, .key-prefill::before { fill: var(--_memory); background: var(--_memory); }
.serving-chart .decode, .key-decode::before { fill: var(--_compute); background: var(--_compute); }
.serving-chart .now { stroke: var(--_fg); stroke-width: 1.5; stroke-dasharray: 4 3; }
.sb-serving table.percentiles { border-collapse: collapse; margin: 0.6rem 0; font-variant-numeric: tabular-nums; }
.sb-serving .percentiles caption { text-align: left; color: var(--_muted); font-size: 0.85rem; }
.sb-serving .percentiles th, .sb-serving .percentiles td { padding: 0.15rem 0.6rem; text-align: right;
  border-bottom: 1px solid var(--_border); }
.sb-serving .percentiles th[scope="row"] { text-align: left; font-weight: normal; }
.sb-serving .key::before { content: ""; display: inline-block; width: 0.8em; height: 0.8em;
  margin-right: 0.3em; border-radius: 2px; vertical-align: -0.05em; }
.sb-serving .sim-legend { color: var(--_muted); font-size: 0.85rem; }
`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ serving: SERVING_CSS }, { 'sb-serving': ['shadow', 'systolic', 'serving'] });
