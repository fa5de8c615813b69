// The bandwidth plot's CSS.
import { registerSheets } from '../core/sheets.js';
import '../systolic/systolic-css.js'; // the collective simulator draws with the systolic and sharding sheets
import '../sharding/sharding-css.js';

// <sb-collective-sweep>: bandwidth against array size, added to SHADOW_CSS in its shadow root.
export const BANDWIDTH_CSS = `
.sb-bw .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 10rem), 1fr)); }
.sb-bw .plot { margin-top: 0.6rem; }
.sb-bw.is-stale .plot, .sb-bw.is-stale .readout { opacity: 0.45; }
.plot .curve { stroke: var(--_accent); }
.plot .reach { fill: var(--_accent); stroke: var(--_bg); stroke-width: 1.5; }
.plot .peak, .plot .crossover { stroke: var(--_fg); opacity: 0.7; }
.plot .peak-label, .plot .crossover-label, .plot .reach-label { fill: var(--_fg); }
.plot .region, .plot .note { fill: var(--_muted); }
.plot .region { font-size: 0.9em; }
/* Bigger text on a phone, where the plot shrinks to half its drawn size. */
@container (max-width: 30rem) { .sb-bw .plot svg { font-size: 22px; } .sb-bw .plot .region { font-size: 1em; } }
.plot .latency-region { fill: var(--_memory); fill-opacity: 0.08; }
.readout { margin: 0.6rem 0 0; }
.caption { margin: 0.5rem 0 0; color: var(--_muted); font-size: 0.85rem; }
.caption code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.92em; }`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ bandwidth: BANDWIDTH_CSS }, {
  'sb-collective-sweep': ['shadow', 'bandwidth'],
  'sb-collective-sim': ['shadow', 'systolic', 'sharding'],
});
