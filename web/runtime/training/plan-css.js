// <sb-training-plan>'s additions to the calculator sheet: the pods plot scales to the column
// and grows its text on a phone; a focused point shows its ring.
import { registerSheets } from '../core/sheets.js';
export const PLAN_CSS = `
.plan-extras { border: 1px solid var(--_border); border-top: 0; border-radius: 0 0 var(--_radius) var(--_radius);
  padding: 0 0.75rem 0.75rem; margin-top: calc(-1 * var(--_radius)); }
.plan-extras .note { margin: 0.25rem 0 0.5rem; }
.plan-extras .plot svg { width: 100%; height: auto; max-width: 40rem; font-size: 14px; display: block; overflow: visible; }
.plan-extras .pt:focus { outline: none; stroke-width: 4; }
.plan-extras .pt:focus-visible { outline: none; stroke: var(--_accent); stroke-width: 4; }
.plan-extras .legend { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; padding: 0; margin: 0.25rem 0 0.5rem; }
.plan-extras .legend li { display: flex; align-items: center; gap: 0.4rem; }
.plan-extras .swatch { width: 1.75rem; height: 0.6rem; flex: none; }
.plan-extras .swatch.dot { width: 0.75rem; height: 0.75rem; }
@media (max-width: 40rem) { .plan-extras .plot svg { font-size: 20px; } }
`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ plan: PLAN_CSS });
