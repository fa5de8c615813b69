// <sb-training-plan>'s additions to the calculator sheet: its fields two to a row, the
// walkthrough's steps, and the pods plot, which scales to the column and grows its text on a
// phone; a focused point shows its ring.
import { registerSheets } from '../core/sheets.js';
export const PLAN_CSS = `
/* Its fields two to a row on a phone, as the explorer's (one a row made the form twice as tall). */
.fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 9rem), 1fr)); }
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
.walkthrough { list-style: none; padding: 0; margin: 0.25rem 0 1rem; }
.walkthrough .step { border-left: 4px solid var(--_accent); padding: 0.25rem 0 0.25rem 0.75rem; margin: 0 0 0.75rem; }
.walkthrough h5 { font-size: 1rem; margin: 0.25rem 0; }
.walkthrough h5:focus { outline: none; }
.walkthrough h5:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.walkthrough .count { color: var(--_muted); font-weight: 400; }
.walkthrough .verdict.good strong { color: var(--_compute); }
.walkthrough .verdict.bad strong { color: var(--_error); }
.walkthrough .mesh { font-weight: 600; }
.walkthrough .step-nav { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0.5rem; }
.walkthrough .step-nav button { font: inherit; padding: 0.35rem 0.75rem; border: 1px solid var(--_border); border-radius: var(--_radius);
  background: var(--_bg); color: var(--_fg); cursor: pointer; min-height: 2.5rem; }
.walkthrough .step-nav button:focus-visible { outline: 3px solid var(--_accent); outline-offset: 1px; }
/* Before the script runs every step shows, without buttons; then one at a time. */
:host(:not([data-step])) .walkthrough .step-nav { display: none; }
:host([data-step="1"]) .walkthrough > .step:not([data-step="1"]),
:host([data-step="2"]) .walkthrough > .step:not([data-step="2"]),
:host([data-step="3"]) .walkthrough > .step:not([data-step="3"]),
:host([data-step="4"]) .walkthrough > .step:not([data-step="4"]) { display: none; }
`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ plan: PLAN_CSS }, { 'sb-training-plan': ['shadow', 'plan'] });
