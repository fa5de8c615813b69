// <sb-training-search>'s additions to the calculator sheet: the Pareto plot, the sortable
// headers and the explorer links. Colours come from the shared custom properties.
import { registerSheets } from '../core/sheets.js';
export const SEARCH_CSS = `
.search-extras { border: 1px solid var(--_border); border-top: 0; border-radius: 0 0 var(--_radius) var(--_radius);
  padding: 0 0.75rem 0.75rem; margin-top: calc(-1 * var(--_radius)); }
.pareto { width: 100%; height: auto; max-width: 40rem; font-size: 14px; }
.pareto .point { cursor: pointer; }
.pareto .point:focus { outline: 2px solid var(--_accent); outline-offset: 2px; }
.pareto .fastest { stroke: var(--_fg); stroke-width: 1.5; }
/* A header's button and a row's link are targets a finger can hit: 28 px tall at least
   (WCAG 2.5.8 asks 24), the link a block of its own lines rather than a run of text. */
th button.sort { font: inherit; font-weight: 600; color: inherit; background: none; border: 0; padding: 0.2rem 0; cursor: pointer;
  text-align: inherit; min-height: 1.75rem; }
.search-table td a { display: inline-block; min-height: 1.75rem; padding: 0.2rem 0; }
th button.sort::after { content: ' ↕'; opacity: 0.5; }
th[aria-sort="ascending"] button.sort::after { content: ' ↑'; opacity: 1; }
th[aria-sort="descending"] button.sort::after { content: ' ↓'; opacity: 1; }
/* Its fields two to a row on a phone, as the explorer's (one a row made the form twice as tall);
   the budget, which shares this sheet, keeps its own. */
:host(sb-training-search) .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 9rem), 1fr)); }
/* The fastest table shows its first three rows (FIRST_ROWS, search-view.js) until its button shows them all. */
.table-box[data-rows="first"] tbody tr:nth-child(n + 4) { display: none; }
button.more { font: inherit; color: var(--_accent); background: none; border: 1px solid var(--_border);
  border-radius: var(--_radius); padding: 0.2rem 0.75rem; margin-top: 0.4rem; min-height: 1.75rem; cursor: pointer; }
button.more[hidden] { display: none; }
button.more:focus-visible { outline: 2px solid var(--_accent); outline-offset: 1px; }
.search-table td { vertical-align: top; }
.search-table td.num, .search-table th.num { text-align: right; white-space: nowrap; }
.search-table td:first-child { min-width: 14rem; white-space: normal; }
.search-table .why { display: block; font-size: 0.9em; opacity: 0.85; white-space: normal; max-width: 32rem; }
.budget-bars { margin-top: 0.75rem; }
.stacked { width: 100%; height: auto; max-width: 40rem; font-size: 15px; display: block; margin-bottom: 0.75rem; }
@media (max-width: 40rem) { .pareto { font-size: 22px; } .stacked { font-size: 20px; } .search-table td:first-child { min-width: 11rem; } }
`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ search: SEARCH_CSS }, { 'sb-training-search': ['shadow', 'search'], 'sb-training-budget': ['shadow', 'search'] });
