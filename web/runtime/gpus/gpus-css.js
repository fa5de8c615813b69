// The gpus elements' additions to the calculator sheet: the planner's math-against-comms bars,
// the cluster builder's tree, the kernel roofline with its measured points and the chip
// explorer's nested boxes. Colours are the palette's custom properties (with their dark set),
// and everything is a class: a page's strict CSP allows no style attribute.
import { registerSheets } from '../core/sheets.js';

export const GPUS_CSS = `
.gpu-extras { border: 1px solid var(--_border); border-top: 0; border-radius: 0 0 var(--_radius) var(--_radius);
  padding: 0 0.75rem 0.75rem; margin-top: calc(-1 * var(--_radius)); }
.gpu-extras .note { margin: 0.25rem 0 0.5rem; color: var(--_muted); }
.gpu-extras .plot svg { width: 100%; height: auto; max-width: 40rem; font-size: 14px; display: block; }
.gpu-extras .legend { list-style: none; padding: 0; margin: 0.25rem 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
.gpu-extras .legend li { display: flex; align-items: center; gap: 0.4rem; }
.gpu-extras .swatch { width: 0.9rem; height: 0.9rem; flex: none; }
.gpu-extras .math { fill: var(--_compute); }
.gpu-extras .comms { fill: var(--_comm); }
.gpu-extras .strategies { list-style: none; padding: 0; margin: 0.5rem 0; display: grid; gap: 0.6rem; }
.gpu-extras .strategy .caption { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 0.75rem; }
.gpu-extras .strategy .verdict.yes { color: var(--_compute); font-weight: 600; }
.gpu-extras .strategy .verdict.no { color: var(--_comm); font-weight: 600; }
.gpu-extras .strategy .verdict.none { color: var(--_muted); }
.gpu-extras svg.bars { width: 100%; height: 2.2rem; display: block; }
.gpu-extras .track { fill: none; stroke: var(--_border); }
.gpu-extras .levels { width: 100%; border-collapse: collapse; margin: 0.5rem 0; font-variant-numeric: tabular-nums; }
.gpu-extras .levels th, .gpu-extras .levels td { padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--_border); text-align: right; }
.gpu-extras .levels th:first-child, .gpu-extras .levels td:first-child { text-align: left; }
.gpu-extras .levels tr.binding td { font-weight: 700; }
.gpu-extras .table-wrap { overflow-x: auto; }
.gpu-extras .tree .switch { fill: color-mix(in srgb, var(--_accent) 18%, var(--_bg)); stroke: var(--_accent); }
.gpu-extras .tree .gpu { fill: color-mix(in srgb, var(--_compute) 25%, var(--_bg)); stroke: var(--_compute); }
.gpu-extras .tree .node { fill: none; stroke: var(--_muted); stroke-dasharray: 4 3; }
.gpu-extras .tree .link { stroke: var(--_muted); stroke-opacity: 0.6; }
.gpu-extras .tree .link.binding { stroke: var(--_comm); stroke-opacity: 1; stroke-width: 2.5; }
.gpu-extras .tree .level-label { font-weight: 600; }
.gpu-extras .tree .more { fill: var(--_muted); }
.gpu-extras .roof { stroke: var(--_accent); stroke-width: 2.5; fill: none; }
.gpu-extras .roof.vector { stroke: var(--_muted); stroke-dasharray: 6 4; stroke-width: 1.5; }
.gpu-extras .roof.hbm { stroke: currentColor; stroke-dasharray: 2 3; stroke-width: 1.5; }
.gpu-extras .point { fill: currentColor; }
.gpu-extras .measured { fill: var(--_comm); stroke: var(--_bg); stroke-width: 1; }
.gpu-extras .measured.square { fill: var(--_memory); }
.gpu-extras .plateau { stroke: var(--_compute); stroke-dasharray: 3 3; }
.gpu-extras .chip-pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 17rem), 1fr)); gap: 0.75rem; margin: 0.5rem 0; }
.gpu-extras .chip-card { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.5rem 0.75rem; }
.gpu-extras .chip-card h5 { margin: 0 0 0.35rem; font-size: 1rem; }
.gpu-extras .level { border-left: 3px solid var(--_accent); padding: 0.1rem 0 0.1rem 0.6rem; margin: 0.35rem 0; }
.gpu-extras .level .level { border-left-color: var(--_compute); }
.gpu-extras .level .level .level { border-left-color: var(--_memory); }
.gpu-extras .level > .name { font-weight: 600; }
.gpu-extras .level dl { display: grid; grid-template-columns: auto auto; gap: 0.1rem 0.75rem; margin: 0.2rem 0; justify-content: start; }
.gpu-extras .level dt { color: var(--_muted); }
.gpu-extras .level dd { margin: 0; font-variant-numeric: tabular-nums; }
.gpu-extras .zoom { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.5rem 0; }
.gpu-extras .zoom button { min-height: 2.75rem; min-width: 2.75rem; padding: 0.25rem 0.75rem; font: inherit;
  border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_field-bg); color: var(--_fg); cursor: pointer; }
.gpu-extras .zoom button[aria-pressed="true"] { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); font-weight: 600; }
.gpu-extras .zoom button:focus-visible { outline: 2px solid var(--_accent); outline-offset: 1px; }
.gpu-extras [data-depth="1"] .level .level, .gpu-extras [data-depth="2"] .level .level .level { display: none; }
@container (max-width: 30rem) { .gpu-extras .plot svg { font-size: 24px; }
  /* On a phone the tree keeps its level names, larger; the counts are in the table below it. */
  .gpu-extras .tree .level-label { font-size: 22px; } .gpu-extras .tree .more { font-size: 20px; }
  .gpu-extras .tree .level-count { display: none; } }
`;

const SHEETS = ['shadow', 'gpus'];
// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ gpus: GPUS_CSS }, {
  'sb-gpu-planner': SHEETS, 'sb-gpu-cluster': SHEETS, 'sb-gpu-kernel': SHEETS, 'sb-gpu-chip': SHEETS,
});
