// <sb-training-split>'s additions to the calculator sheet: the strip and the plots scale to
// the column, and grow their text on a phone; the tables and the plots fold into sections
// (render.js, split-view.js).
import { registerSheets } from '../core/sheets.js';
export const SPLIT_CSS = `
/* What is off screen, an open section's table or plot, is not laid out on every edit (its size
   kept from the last time it was), as the explorer's. */
.table-box, .split-extras .plot, dl.outputs { content-visibility: auto; contain-intrinsic-size: auto 20rem; }
/* Its fields two to a row on a phone, as the explorer's (one a row made the form twice as tall). */
.fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 9rem), 1fr)); }
.split-extras .plot svg { width: 100%; height: auto; max-width: 40rem; font-size: 14px; display: block; }
.split-extras .strip { list-style: none; padding: 0; margin: 0.5rem 0 1rem; display: grid; gap: 0.3rem;
  grid-template-columns: repeat(auto-fill, minmax(5.25rem, 1fr)); }
.split-extras .strip li { border-radius: 4px; padding: 0.35rem 0.25rem; text-align: center; display: flex; flex-direction: column; gap: 0.1rem;
  border: 2px solid transparent; }
.split-extras .strip .xy { font-size: 0.85em; }
.split-extras .readout-mark { fill: none; stroke: currentColor; stroke-width: 2.5; pointer-events: none; }
.split-extras .readout-mark:not(.on) { display: none; }
.split-extras .readout-layer { cursor: crosshair; }
.split-extras .readout-layer:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
.split-extras .readout { min-height: 1.4em; margin: 0.2rem 0 0.8rem; font-variant-numeric: tabular-nums; }
.split-extras .strip .ratio { font-weight: 700; font-variant-numeric: tabular-nums; }
.split-extras .strip .xopt { border: 2px dashed var(--_fg); justify-content: center; font-size: 0.85em; font-weight: 600; }
.split-extras .strip .best { border-color: var(--_fg); border-width: 3px; }
.split-extras .good { background: color-mix(in srgb, var(--_compute) var(--_mix), transparent); }
.split-extras .bad { background: color-mix(in srgb, var(--_comm) var(--_mix), transparent); }
.split-extras .lv1 { --_mix: 18%; } .split-extras .lv2 { --_mix: 32%; } .split-extras .lv3 { --_mix: 44%; } .split-extras .lv4 { --_mix: 56%; }
.split-extras { border: 1px solid var(--_border); border-top: 0; border-radius: 0 0 var(--_radius) var(--_radius);
  padding: 0 0.75rem 0.75rem; margin-top: calc(-1 * var(--_radius)); }
.split-extras .note { margin: 0.25rem 0 0.5rem; }
.split-extras .legend { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; padding: 0; margin: 0.25rem 0 1rem; }
.split-extras .legend li { display: flex; align-items: center; gap: 0.4rem; }
.split-extras .swatch { width: 1.75rem; height: 0.6rem; }
.split-extras .plot svg.swatch { width: 1.75rem; display: inline; }
@media (max-width: 40rem) { .split-extras .plot svg { font-size: 20px; } }
`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ split: SPLIT_CSS }, { 'sb-training-split': ['shadow', 'split'] });
