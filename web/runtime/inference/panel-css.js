// The sheet of chapter 7's roofline panel and frontier (<sb-inference>, <sb-inference-frontier>),
// on top of the domain's `inference` sheet (inference-css.js), whose .inference-extras box and
// legend they share. Colours are custom properties with a dark set, and everything is a class:
// a page's strict CSP allows no style attribute.
import { registerSheets } from '../core/sheets.js';

export const PANEL_CSS = `
.inference-panel { --_s0: #0b63c5; --_s1: #b35000; --_s2: #1a7f37; --_s3: #a0307f; --_s4: #00798a; --_s5: #7a6100; --_s6: #c62828; --_s7: #5b4fc2; }
@media (prefers-color-scheme: dark) {
  .inference-panel { --_s0: #6cb0ff; --_s1: #ff9f45; --_s2: #3fb950; --_s3: #e07bd0; --_s4: #38c6d4; --_s5: #d9b949; --_s6: #ff7b72; --_s7: #a9a2ff; } }
.inference-panel .caption { margin: 0.25rem 0; }
.inference-panel svg.bar { width: 100%; height: 2.4rem; display: block; overflow: visible; }
.inference-panel .part.attention { fill: var(--_memory); }
.inference-panel .part.matmul { fill: var(--_accent); }
.inference-panel .part.collectives { fill: var(--_comm); }
.inference-panel .part.weights { fill: var(--_muted); }
.inference-panel .part.kv { fill: var(--_accent); }
.inference-panel .part.over { fill: var(--_comm); }
.inference-panel .part.free { fill: transparent; }
.inference-panel .swatch .part.free { fill: none; stroke: currentColor; }
.inference-panel .limit { stroke: var(--_fg); stroke-width: 3; stroke-dasharray: 4 3; }
.inference-panel .over-text { color: var(--_error); }
.inference-panel .legend li { align-items: flex-start; }
.inference-panel .legend .swatch { flex: none; margin-top: 0.2rem; }
.inference-panel .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 0.5rem 1rem; }
/* The batch charts are drawn half the frontier's width: their text needs no phone enlargement. */
.inference-panel .charts .plot svg { font-size: 12px; max-width: 26rem; }
.inference-panel .charts .curve { stroke: var(--_accent); stroke-width: 2; }
.inference-panel .charts .pt { fill: var(--_accent); stroke: var(--_bg); stroke-width: 1.5; }
.inference-panel .charts .pt.out { fill: var(--_bg); stroke: var(--_comm); stroke-width: 2.5; }
.inference-panel .pt.s0 { --_c: var(--_s0); } .inference-panel .pt.s1 { --_c: var(--_s1); }
.inference-panel .pt.s2 { --_c: var(--_s2); } .inference-panel .pt.s3 { --_c: var(--_s3); }
.inference-panel .pt.s4 { --_c: var(--_s4); } .inference-panel .pt.s5 { --_c: var(--_s5); }
.inference-panel .pt.s6 { --_c: var(--_s6); } .inference-panel .pt.s7 { --_c: var(--_s7); }
.inference-panel .frontier .pt, .inference-panel .swatch .pt { fill: var(--_c); stroke: var(--_bg); stroke-width: 1; }
/* Not fitting in HBM: hollow and faint, still in its slice's colour and shape. */
.inference-panel .frontier .pt.out, .inference-panel .swatch .pt.out { fill: var(--_bg); stroke: var(--_c); stroke-width: 1.5; opacity: 0.55; }
.inference-panel .frontier .pt:focus { outline: none; }
.inference-panel .front { stroke: var(--_fg); stroke-width: 2; fill: none; pointer-events: none; }
.inference-panel .frontier .front { stroke-width: 2.5; opacity: 0.85; }
.inference-panel .pick-ring { fill: none; stroke: var(--_fg); stroke-width: 2.5; pointer-events: none; }
.inference-panel .pick-label { fill: var(--_fg); font-weight: 700; }
.inference-panel .target line, .inference-panel .target-key { stroke: var(--_comm); stroke-width: 2; stroke-dasharray: 6 4; }
.inference-panel .focus-ring { fill: none; stroke: var(--_accent); stroke-width: 3; pointer-events: none; }
.inference-panel .focus-ring:not(.on) { display: none; }
.inference-panel .frontier svg { cursor: crosshair; }
.inference-panel .frontier .points:focus-within + .pick-ring { opacity: 0.6; }
.inference-panel .readout { min-height: 4.2em; margin: 0.3rem 0 0.6rem; padding: 0.4rem 0.6rem; border: 1px solid var(--_border);
  border-radius: var(--_radius); font-variant-numeric: tabular-nums; }
`;

registerSheets({ 'inference-panel': PANEL_CSS }, {
  'sb-inference': ['shadow', 'inference', 'inference-panel'],
  'sb-inference-frontier': ['shadow', 'inference', 'inference-panel'],
});
