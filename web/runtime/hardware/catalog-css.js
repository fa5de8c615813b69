// The chip catalog elements' CSS.
import { registerSheets } from '../core/sheets.js';

// <sb-chip-table>, <sb-slice> and <sb-my-chip>: added to SHADOW_CSS in their shadow roots.
export const CATALOG_CSS = `
:host { max-width: 100%; min-width: 0; }
.table-wrap { overflow-x: auto; max-width: 100%; border: 1px solid var(--_border); border-radius: var(--_radius); }
.table-wrap:focus-visible { outline: 2px solid var(--_accent); }
.chip-table { border-collapse: collapse; font-size: 0.88rem; font-variant-numeric: tabular-nums; width: 100%; }
.chip-table caption { text-align: left; padding: 0.4rem 0.5rem; color: var(--_muted); font-size: 0.85rem; }
.chip-table th, .chip-table td { padding: 0.3rem 0.5rem; border-top: 1px solid var(--_border); text-align: right; white-space: nowrap; }
.chip-table tbody th, .chip-table thead th:first-child { text-align: left; position: sticky; left: 0; background: var(--_bg); z-index: 1; }
.chip-table tbody th { white-space: normal; min-width: 7rem; max-width: 11rem; }
.chip-table thead th { vertical-align: bottom; border-top: 0; }
.chip-table thead th button { font: inherit; font-weight: 600; color: var(--_fg); background: none; border: 0; padding: 0.1rem;
  cursor: pointer; display: inline-flex; flex-direction: column; align-items: flex-end; white-space: normal;
  min-width: 5.5rem; text-align: right; }
.chip-table thead th:first-child button { align-items: flex-start; min-width: 0; }
.chip-table thead th button:focus-visible { outline: 2px solid var(--_accent); }
.chip-table thead .unit { font-weight: 400; font-size: 0.8rem; }
.sb-my-chip .required { font-weight: 400; font-size: 0.8em; color: var(--_accent); }
.chip-table .arrow::after { content: "↕"; color: var(--_muted); font-size: 0.8rem; }
.chip-table [aria-sort="ascending"] .arrow::after { content: "▲"; color: var(--_accent); }
.chip-table [aria-sort="descending"] .arrow::after { content: "▼"; color: var(--_accent); }
.chip-table td[title] { cursor: help; position: relative; text-decoration: underline dotted var(--_muted); text-underline-offset: 3px; }
.chip-table td:focus { outline: 2px solid var(--_accent); outline-offset: -2px; }
/* The note: hidden but read by screen readers; shown under the cell on focus (tab or tap). */
.chip-table .note { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: normal; }
.chip-table td:focus .note { position: static; display: block; clip-path: none; width: auto; min-width: 12rem; max-width: 16rem;
  height: auto; margin-top: 0.25rem; text-align: left; padding: 0.3rem 0.45rem; font-size: 0.8rem; color: var(--_fg);
  background: var(--_field-bg); border: 1px solid var(--_border); border-radius: var(--_radius); }
.sb-slice, .sb-my-chip { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; }
.sb-slice .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 13rem), 1fr)); }
.slice-body.stale { opacity: 0.45; }
.axes { border-collapse: collapse; margin: 0.7rem 0 0.3rem; font-size: 0.9rem; font-variant-numeric: tabular-nums; }
.axes th, .axes td { padding: 0.2rem 0.7rem 0.2rem 0; text-align: left; border-top: 1px solid var(--_border); }
.swatch { display: inline-block; width: 0.8rem; height: 0.25rem; margin-right: 0.35rem; vertical-align: middle; background: var(--_c); }
.rule { color: var(--_muted); font-size: 0.88rem; margin: 0.3rem 0 0.5rem; }
.picture { overflow-x: auto; }
.picture svg { display: block; max-width: 100%; height: auto; font-family: var(--_font); font-size: 12px; }
/* On a phone a big slice (4x4x4: four layers side by side) would shrink to 6 px text: it keeps
   its drawn size instead and scrolls in its box, edge shadows showing there is more. */
@container (max-width: 30rem) {
  .picture svg { max-width: none; }
  .picture { background:
    linear-gradient(to right, var(--_bg) 30%, transparent) left / 2rem 100% no-repeat local,
    linear-gradient(to left, var(--_bg) 30%, transparent) right / 2rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, color-mix(in srgb, var(--_fg) 25%, transparent), transparent) left / 0.7rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, color-mix(in srgb, var(--_fg) 25%, transparent), transparent) right / 0.7rem 100% no-repeat scroll; }
}
.picture:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.ax-x { --_c: var(--_accent); stroke: var(--_accent); }
.ax-y { --_c: var(--_compute); stroke: var(--_compute); }
.ax-z { --_c: var(--_memory); stroke: var(--_memory); }
.swatch.ax-x, .swatch.ax-y, .swatch.ax-z { stroke: none; }
.picture .link { stroke-width: 2; }
.picture .wrap { stroke-width: 3; stroke-dasharray: 4 2; fill: none; }
.legend { color: var(--_muted); font-size: 0.85rem; margin: 0.2rem 0; }
.picture .zband { stroke-width: 2; fill: none; opacity: 0.7; }
.picture .chip { fill: var(--_fg); stroke: var(--_bg); stroke-width: 1.5; }
.picture text { fill: var(--_muted); }
.too-big { color: var(--_muted); font-style: italic; }
.sb-my-chip .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.6rem; }
.sb-my-chip button { font: inherit; padding: 0.35rem 0.8rem; cursor: pointer; border: 1px solid var(--_accent);
  border-radius: var(--_radius); background: transparent; color: var(--_accent); }
.sb-my-chip button[data-save] { background: var(--_accent); color: var(--_bg); }
.notice { margin: 0 0 0.5rem; padding: 0.3rem 0.5rem; font-size: 0.9rem; border-left: 3px solid var(--_memory); }
.notice:empty, .message:empty { display: none; }
.message { margin: 0.5rem 0 0; font-size: 0.9rem; }`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ catalog: CATALOG_CSS }, {
  'sb-chip-table': ['shadow', 'catalog'],
  'sb-slice': ['shadow', 'catalog'],
  'sb-my-chip': ['shadow', 'catalog'],
});
