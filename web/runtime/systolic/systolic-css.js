// The systolic simulator's CSS, also the playback controls of the other simulators.
import { registerSheets } from '../core/sheets.js';

// <sb-systolic-sim>: the calculator's form and outputs, plus the PE grid and its controls.
// PE states: idle (empty), busy (holds data), mac (multiplied this cycle); pe-shadow: a next
// fold's value waits in the shadow register (a dot in the corner).
export const SYSTOLIC_CSS = `
.sb-sim .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 6.5rem), 1fr)); }
/* The collective's fields carry labels and worded choices ("Every axis a ring"): wider. */
.sb-sim.sb-coll .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 10rem), 1fr)); }
.sb-sim.is-stale .sim-body, .sb-sim.is-stale .sim-controls { opacity: 0.5; }
.sim-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.5rem; margin: 0.7rem 0 0.5rem; }
.sim-controls button { font: inherit; font-size: 0.9rem; padding: 0.3rem 0.7rem; cursor: pointer;
  border: 1px solid var(--_accent); border-radius: var(--_radius); background: transparent; color: var(--_accent); }
.sim-controls button[data-action="play"] { background: var(--_accent); color: var(--_bg); min-width: 4.5rem; }
.sim-controls button:disabled { opacity: 0.5; cursor: default; }
.sim-controls button:focus-visible, .sim-controls input:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.sim-controls label { display: inline-flex; align-items: center; gap: 0.4rem; font-size: 0.9rem; }
.sim-controls .scrub { flex: 1 1 12rem; }
.sim-controls .scrub input { flex: 1; width: auto; padding: 0; border: 0; background: transparent; }
.sim-controls .speed select { width: auto; }
.sim-body { display: flex; flex-wrap: wrap; gap: 0.8rem 1.2rem; align-items: flex-start; }
.sim-grid { flex: 1 1 20rem; min-width: 0; max-width: 44rem; overflow-x: auto; }
.pe-grid { display: block; width: 100%; height: auto;
  font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
.pe rect { fill: var(--_field-bg); stroke: var(--_border); stroke-width: 1.5; }
.pe-busy rect { fill: color-mix(in srgb, var(--_accent) 14%, var(--_bg)); stroke: var(--_accent); }
.pe-mac rect { fill: color-mix(in srgb, var(--_compute) 30%, var(--_bg)); stroke: var(--_compute); stroke-width: 2.5; }
.pe .shadow-dot { fill: var(--_memory); display: none; }
.pe-shadow .shadow-dot { display: inline; }
.sim-grid:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.pe text { fill: var(--_fg); }
.pe.st-w .v-w, .pe.st-a .v-a, .pe.st-p .v-p { font-weight: 700; }
.pe .v-p { fill: var(--_compute); }
.sim-side { flex: 1 1 14rem; min-width: 0; }
.sim-stats { grid-template-columns: 1fr; }
.sim-stats dt { color: var(--_muted); font-size: 0.9rem; }
.sim-check { margin: 0.4rem 0 0; font-size: 0.9rem; color: var(--_compute); }
.sim-legend { margin: 0.6rem 0 0; font-size: 0.88rem; color: var(--_muted); }
.sim-legend .key { display: inline-block; margin-right: 0.6rem; white-space: nowrap; }
.sim-legend .key::before { content: ""; display: inline-block; width: 0.8rem; height: 0.8rem;
  margin-right: 0.3rem; vertical-align: -0.1rem; border-radius: 2px; border: 1.5px solid; }
.key-mac::before { background: color-mix(in srgb, var(--_compute) 30%, var(--_bg)); border-color: var(--_compute); }
.key-busy::before { background: color-mix(in srgb, var(--_accent) 14%, var(--_bg)); border-color: var(--_accent); }
.sim-legend .key-shadow::before { border-radius: 50%; background: var(--_memory); border-color: var(--_memory); }
.sim-empty, .sim-note { color: var(--_muted); font-style: italic; }
@container (max-width: 30rem) { .pe-grid { font-size: 14px; } .sim-grid { flex-basis: 100%; } }`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ systolic: SYSTOLIC_CSS }, { 'sb-systolic-sim': ['shadow', 'systolic'] });
