// The sharding elements' CSS.
import { registerSheets } from '../core/sheets.js';

// <sb-sharding>, <sb-sharded-matmul> and <sb-collective-sim> (which adds SYSTOLIC_CSS for its
// playback controls): the spec fields, the mesh picture, the plan's timeline and tables, the
// collective's devices and moves.
export const SHARDING_CSS = `
.fields .wide { grid-column: 1 / -1; }
.dims { display: contents; }
.error code.marked { display: block; margin-top: 0.2rem; white-space: pre; overflow-x: auto; color: var(--_fg);
  font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.error mark { background: color-mix(in srgb, var(--_error) 25%, transparent); color: inherit;
  outline: 1.5px solid var(--_error); border-radius: 2px; }
.presets { display: flex; flex-wrap: wrap; gap: 0.35rem; margin: 0.6rem 0 0; }
.presets button, .sb-coll .check input { font: inherit; cursor: pointer; }
.presets button { font-size: 0.85rem; padding: 0.2rem 0.55rem; border: 1px solid var(--_accent); border-radius: var(--_radius);
  background: transparent; color: var(--_accent); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.presets button[aria-pressed="true"] { background: var(--_accent); color: var(--_bg); }
.presets button:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.sb-shard.is-stale .shard-picture, .sb-planner.is-stale .plan-body { opacity: 0.5; }
.caption, .hint, .legend, .table-empty { color: var(--_muted); font-size: 0.9rem; margin: 0.6rem 0 0.3rem; }
.shard-picture, .timeline-wrap, .table-wrap { overflow-x: auto; max-width: 100%; }
.mesh-panels { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; }
.mesh-panel { margin: 0; flex: 1 1 auto; min-width: 0; }
.panel-label { margin: 0 0 0.2rem; font-size: 0.85rem; font-weight: 600; }
svg.mesh, svg.coll, svg.timeline { display: block; width: 100%; height: auto; font-family: var(--_font); }
svg.mesh { font-size: 10px; }
.mesh .tile { fill: var(--_field-bg); stroke: var(--_border); }
.mesh .block { fill-opacity: 0.13; stroke: var(--_bg); stroke-width: 1; }
.mesh .block.held { fill-opacity: 1; }
.mesh .block-label { fill: var(--_muted); }
.mesh .block-label.held { font-weight: 700; }
.mesh .block-label.ink-light { fill: #fff; }
.mesh .block-label.ink-dark { fill: #000; }
.mesh .tile-head, .mesh .axis-tick, .mesh .tile-note { fill: var(--_muted); }
.mesh .axis-title { fill: var(--_fg); font-weight: 600; }
.too-big, .sim-empty, .explain-status { color: var(--_muted); font-style: italic; }
.shard-numbers .outputs { margin-top: 0.4rem; }
.out dt { font-size: 0.9rem; }
.jax-title { margin: 0.7rem 0 0.2rem; font-size: 0.9rem; font-weight: 600; }
.jax { margin: 0; padding: 0.5rem 0.6rem; white-space: pre-wrap; overflow-wrap: anywhere; background: var(--_field-bg); border: 1px solid var(--_border);
  border-radius: var(--_radius); font-size: 0.85rem; }
.case { margin: 0.8rem 0 0.3rem; }
.case-badge { --_badge: var(--_accent); }
.plan { margin: 0.2rem 0; padding-left: 1.4rem; }
.plan code, .plan-table td { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.88rem; }
svg.timeline { max-width: 40rem; font-size: 11px; }
.timeline .bar-compute { fill: var(--_compute); }
.timeline .bar-comm { fill: var(--_comm); }
.timeline .bar-label { fill: #fff; font-size: 10px; }
.timeline .lane-name, .timeline .tick { fill: var(--_muted); }
@container (max-width: 30rem) { svg.timeline { font-size: 13px; } .timeline .bar-label { font-size: 12px; } }
.timeline .lane-total { fill: var(--_fg); font-weight: 600; }
.timeline .total-mark { stroke: var(--_fg); stroke-width: 1.5; stroke-dasharray: 3 2; }
.timeline .axis { stroke: var(--_border); }
.legend .key, .key-compute, .key-comm { display: inline-block; margin-right: 0.6rem; }
.key-compute::before, .key-comm::before { content: ""; display: inline-block; width: 0.8rem; height: 0.8rem;
  margin-right: 0.3rem; vertical-align: -0.1rem; border-radius: 2px; }
.key-compute::before { background: var(--_compute); }
.key-comm::before { background: var(--_comm); }
.plan-table { border-collapse: collapse; font-size: 0.9rem; font-variant-numeric: tabular-nums; width: 100%; }
.plan-table th, .plan-table td { padding: 0.25rem 0.5rem; border-top: 1px solid var(--_border); text-align: left; white-space: nowrap; }
.plan-table thead th { border-top: 0; font-size: 0.85rem; }
.plan-table thead th { white-space: normal; vertical-align: bottom; }
.plan-table td[data-column="plan"] { white-space: normal; min-width: 11rem; }
.plan-table td[data-column="collectives"] { white-space: normal; }
/* In a narrow column every row is a card, a cell a line under its column's name, so the cost
   columns are never cut off at the right. */
@container (max-width: 36rem) {
  .plan-table, .plan-table tbody, .plan-table tr, .plan-table td { display: block; }
  .plan-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .plan-table tr { border-top: 1px solid var(--_border); padding: 0.3rem 0; }
  .plan-table td { border-top: 0; padding: 0.1rem 0.2rem; white-space: normal; overflow-wrap: anywhere; }
  .plan-table td[data-column="plan"] { min-width: 0; }
  .plan-table td::before { content: attr(data-label) ": "; font-family: var(--_font); font-size: 0.8rem; color: var(--_muted); }
}
.outputs.stale dd[data-local] { opacity: 1; text-decoration: none; }
.worked { margin-top: 0.6rem; }
/* The simulator's side column is about 17rem at 1280 px: its longest step ("T_lat / T_bw =
   0.01073 <= 1 => bandwidth bound") fits with this indent and math size, where it was cut. */
.steps { padding-left: 1.1rem; margin: 0.3rem 0; font-size: 0.9rem; }
.steps li { margin: 0.35rem 0; overflow-x: auto; overflow-y: hidden; }
.step-label { display: block; color: var(--_muted); font-size: 0.85rem; }
.step-math math { font-size: 1em; }
.badge-latency { --_badge: var(--_memory); }
.badge-bandwidth { --_badge: var(--_comm); }
.bound { margin: 0 0 0.4rem; }
.sb-coll .check { justify-content: flex-end; padding-bottom: 0.4rem; }
.sb-coll .check label { display: inline-flex; align-items: center; gap: 0.4rem; font-weight: 600; }
.sb-coll .check input { width: auto; }
.coll-picture { max-width: 40rem; }
/* The side panel wraps under a wide torus rather than squeezing its text out of view. */
.sb-coll .sim-side { min-width: min(100%, 18rem); }
.sb-coll .sim-stats dd { white-space: normal; overflow-wrap: anywhere; text-align: right; }
svg.coll { font-size: 10px; }
.coll .dev-box { fill: var(--_field-bg); stroke: var(--_border); stroke-width: 1.5; }
.coll .dev-label { fill: var(--_muted); }
.coll .cell { stroke: var(--_border); stroke-width: 0.5; }
.coll .cell-sum { fill: var(--_fg); font-size: 9px; font-weight: 700; }
.coll .dev-bar-bg { fill: var(--_border); }
.coll .dev-bar { fill: var(--_accent); }
.coll .link { stroke: var(--_border); stroke-width: 3; }
.coll .link.wrap { stroke-dasharray: 5 3; }
.coll .arrow { fill: none; stroke: var(--_accent); stroke-width: 1.5; opacity: 0.8; }
.coll marker path { fill: var(--_accent); }
.coll .chip { stroke: var(--_fg); stroke-width: 0.8; }
.sb-coll .sim-legend { margin-top: 0.6rem; }
@container (max-width: 30rem) { svg.mesh { font-size: 11px; } .plan-table { font-size: 0.85rem; } }`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ sharding: SHARDING_CSS }, { 'sb-sharding': ['shadow', 'sharding'], 'sb-sharded-matmul': ['shadow', 'sharding'] });
