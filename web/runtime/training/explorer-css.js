// <sb-training>'s additions to the calculator sheet (chapter 5's explorer): the layer's four
// boxes and the step's collectives in order. The held piece is solid against faint ones (a
// difference of lightness, not of hue), and the critical path is marked in words and a border.
import { registerSheets } from '../core/sheets.js';
export const EXPLORER_CSS = `
/* The explorer's 1,400 elements: what is off screen is not laid out on every edit (its size
   kept from the last time it was), which halved an edit's layout in Chromium. */
.explorer-extras, .table-box, dl.outputs { content-visibility: auto; contain-intrinsic-size: auto 40rem; }
/* Its sections continue the form's box, as the other training elements' pictures do. */
.explorer-extras { border: 1px solid var(--_border); border-top: 0; border-radius: 0 0 var(--_radius) var(--_radius);
  padding: 0 0.75rem 0.75rem; margin-top: calc(-1 * var(--_radius)); }
@container (max-width: 24rem) { .explorer-extras { padding: 0 0.5rem 0.5rem; } }
/* Its 21 main fields two to a row on a phone (one a row made the form 1,500 px tall). */
.fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 9rem), 1fr)); }
.explorer-extras .caption { color: var(--_muted); font-size: 0.9rem; margin: 0.3rem 0 0.6rem; }
.layer-boxes { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.75rem 1rem; }
.layer-array { margin: 0; min-width: 0; }
.layer-array figcaption { margin-bottom: 0.2rem; }
.notation, .phase-steps code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.notation { font-weight: 600; }
svg.layer-box { display: block; width: 100%; max-width: 18rem; height: auto; font-family: var(--_font); font-size: 12px; }
.layer-box .dim { fill: var(--_muted); }
.layer-box .piece { fill: var(--_accent); fill-opacity: 0.12; }
.layer-box .cuts { fill: none; stroke: var(--_bg); stroke-width: 1; }
.layer-box .piece.held { fill-opacity: 1; }
.layer-box .outline { fill: none; stroke: var(--_fg); stroke-width: 1.5; }
.array-facts { margin: 0.3rem 0 0; font-size: 0.85rem; }
.array-facts div { display: grid; grid-template-columns: 8.5rem 1fr; gap: 0.4rem; }
.array-facts dt { color: var(--_muted); }
.array-facts dt::after { content: ':'; }
.array-facts dd { margin: 0; overflow-wrap: anywhere; }
.algorithm, .layer-algorithm { padding-left: 1.4rem; margin: 0.3rem 0; }
.phase { margin-bottom: 0.5rem; }
.phase-title { font-weight: 600; }
.phase-steps { padding-left: 1.4rem; margin: 0.2rem 0; }
.comm, .matmul { margin: 0.25rem 0; line-height: 1.5; }
.matmul .notation { color: var(--_compute); }
.cost { color: var(--_muted); white-space: nowrap; }
.path-mark { display: inline-block; font-size: 0.8rem; font-weight: 600; padding: 0 0.45rem; border-radius: 999px; white-space: nowrap; }
.path-mark.critical { border: 2px solid var(--_comm); color: var(--_fg); }
.path-mark.overlapped { border: 1px dashed var(--_muted); color: var(--_muted); font-weight: 400; }
.algo-empty { color: var(--_muted); font-style: italic; }
`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ explorer: EXPLORER_CSS }, { 'sb-training': ['shadow', 'explorer'] });
