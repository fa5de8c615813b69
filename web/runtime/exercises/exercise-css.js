// The exercise box's and the progress view's CSS (sheets.js serves them).
import { registerSheets } from '../core/sheets.js';
import { PALETTE, DARK_PALETTE, HOST } from '../core/styles.js';

// sb-exercise lives in the light DOM (its prompt and solution hold KaTeX markup that needs the
// page's KaTeX CSS), so its CSS is scoped by :where(sb-exercise) (zero specificity: any page
// rule wins) and added to the document once by the element. A chapter's solutions page
// (templates.mjs) boxes each exercise's solutions the same way, in a .sb-solutions section.
const X = ':where(sb-exercise, .sb-solutions)';
export const EXERCISE_CSS = `
${X} { display: block; ${PALETTE}
  color: var(--_fg); background: var(--_bg); border: 1px solid var(--_border); border-radius: var(--_radius);
  padding: 0.75rem; margin: 1rem 0; overflow-wrap: break-word; }
@media (prefers-color-scheme: dark) { ${X} { ${DARK_PALETTE} } }
/* The author's display rules below would otherwise beat the browser's [hidden]. */
${X} [hidden] { display: none !important; }
${X} .sb-exercise-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.3rem 0.6rem; }
${X} .sb-exercise-title { margin: 0 0 0.4rem; font-size: 1.05rem; }
${X} .sb-exercise-badge { font-size: 0.8rem; font-weight: 600; padding: 0 0.5rem; border-radius: 999px;
  color: var(--_compute); border: 1px solid currentColor; }
${X} .sb-exercise-variant { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3rem 0.6rem;
  font-size: 0.9rem; color: var(--_muted); margin: 0 0 0.4rem; }
${X} .sb-exercise-variant a { color: var(--_accent); }
/* Every control is a target of at least 24 x 24 px for a finger (WCAG 2.5.8): the variant's
   "link" was 22 x 24, a radio 13 x 13. */
${X} .sb-exercise-variant a { display: inline-flex; align-items: center; justify-content: center;
  min-width: 24px; min-height: 24px; }
${X} .sb-exercise-variant button { padding: 0.15rem 0.6rem; font-size: 0.85rem; }
${X} .sb-exercise-notice { margin: 0.3rem 0; padding: 0.3rem 0.5rem; font-size: 0.9rem;
  border-left: 3px solid var(--_memory); background: color-mix(in srgb, var(--_memory) 8%, transparent); }
${X}.is-loading [data-prompt], ${X}.is-loading [data-solution] { opacity: 0.4; }
${X} .sb-exercise-hints summary, ${X} .sb-exercise-solution summary { cursor: pointer; color: var(--_accent);
  width: fit-content; }
${X} .sb-exercise-hints { margin: 0.4rem 0; }
${X} .fold-link a { display: inline-block; min-height: 24px; line-height: 24px; }
${X} .sb-exercise-part { margin: 0.6rem 0; padding-top: 0.4rem; border-top: 1px solid var(--_border); }
${X} .sb-exercise-answer { display: flex; flex-wrap: wrap; align-items: center;
  gap: 0.4rem 0.6rem; margin: 0.4rem 0; border: 0; padding: 0; min-width: 0; }
${X} .sb-exercise-answer label, ${X} .sb-exercise-answer legend { font-weight: 600; padding: 0; }
${X} .sb-exercise-answer legend { float: left; margin-right: 0.6rem; }
${X} .sb-exercise-part.is-solved :is(label[for], legend)::after { content: " ✓"; color: var(--_compute); }
${X} .sb-exercise-answer input[type="text"] { font: inherit; padding: 0.35rem 0.5rem;
  color: var(--_fg); background: var(--_field-bg);
  border: 1px solid var(--_border); border-radius: var(--_radius); width: 12rem; max-width: 100%; }
${X} .sb-exercise-choices { display: flex; flex-wrap: wrap; gap: 0.2rem 0.9rem; }
${X} .sb-exercise-choice { font-weight: 400; display: inline-flex; align-items: center; gap: 0.3rem; }
${X} .sb-exercise-choice input { width: 24px; height: 24px; margin: 0; flex: none;
  accent-color: var(--_accent); }
${X} button { font: inherit; padding: 0.35rem 0.8rem; cursor: pointer;
  border: 1px solid var(--_accent); border-radius: var(--_radius);
  background: transparent; color: var(--_accent); }
${X} button[data-check] { background: var(--_accent); color: var(--_bg); }
${X} [data-feedback] { flex-basis: 100%; margin: 0; min-height: 1.4em; }
${X} [data-feedback][data-result="correct"] { color: var(--_compute); font-weight: 600; }
${X} [data-feedback][data-result="incorrect"],
${X} [data-feedback][data-result="invalid"] { color: var(--_error); }
${X} .steps { padding-left: 1.4rem; }
${X} .steps li { margin: 0.5rem 0; }
${X} .step-label { display: block; font-size: 0.9rem; color: var(--_muted); }
${X} .steps .katex { font-size: 1.05em; }
/* Long formulas scroll inside the solution instead of widening a phone's page. */
${X} .steps .katex-display, ${X} .steps li { overflow-x: auto; overflow-y: hidden; }
${X} [data-solution] { margin-top: 0.4rem; padding-top: 0.4rem; border-top: 1px dashed var(--_border); }`;

// <sb-progress> renders into a shadow root: the host palette plus a list or a table.
export const PROGRESS_CSS = `${HOST}
.sb-progress { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; }
[hidden] { display: none !important; }
.heading { margin: 0 0 0.3rem; font-weight: 700; }
.summary { margin: 0 0 0.5rem; }
.notice { margin: 0 0 0.5rem; padding: 0.3rem 0.5rem; font-size: 0.9rem; border-left: 3px solid var(--_memory); }
.list { list-style: none; padding: 0; margin: 0 0 0.6rem; }
.list li { display: flex; justify-content: space-between; align-items: center; gap: 0.6rem;
  padding: 0.1rem 0; border-top: 1px solid var(--_border); }
a { color: var(--_accent); }
/* Each link is a target of at least 24 x 24 px (WCAG 2.5.8): one line of text is 23.8 px. */
.list a, th a { display: inline-block; padding: 0.15rem 0; }
.status { font-size: 0.85rem; color: var(--_muted); white-space: nowrap; }
.status-solved { color: var(--_compute); font-weight: 600; }
.status-attempted { color: var(--_memory); }
table { border-collapse: collapse; width: 100%; margin: 0 0 0.6rem; font-variant-numeric: tabular-nums; }
th, td { text-align: right; padding: 0.25rem 0.4rem; border-top: 1px solid var(--_border); }
th[scope="row"], thead th:first-child { text-align: left; }
tfoot th, tfoot td { font-weight: 700; }
/* Four columns fit a phone's column (390 px) only with tighter type and padding. */
@media (max-width: 30rem) {
  table { font-size: 0.85rem; }
  th, td { padding: 0.25rem 0.2rem; }
  th[scope="row"] { overflow-wrap: anywhere; }
}
.actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.6rem; margin-top: 0.5rem; }
button, .file-button { font: inherit; font-size: 0.9rem; padding: 0.3rem 0.8rem; cursor: pointer;
  border: 1px solid var(--_accent); border-radius: var(--_radius); background: transparent; color: var(--_accent); }
.file-button:focus-within { outline: 2px solid var(--_accent); outline-offset: 1px; }
/* The file input stays focusable and clickable, only invisible: it covers its label, so the
   whole label is its target (a 1 px input was no target for a finger). */
.file-button input { position: absolute; inset: 0; width: 100%; height: 100%; margin: 0; padding: 0;
  opacity: 0; cursor: pointer; font-size: 0; }
.file-button { position: relative; overflow: hidden; }
.confirm { flex-basis: 100%; display: inline-flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; }
.danger { border-color: var(--_error); color: var(--_error); }
.message { margin: 0.5rem 0 0; font-size: 0.9rem; }
.message:empty { display: none; }
.message.error { color: var(--_error); }
.backups { margin-top: 0.6rem; font-size: 0.9rem; }
.backups p { margin: 0 0 0.3rem; }
.backups ul { list-style: none; padding: 0; margin: 0; }
.backups li { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; padding: 0.15rem 0; }`;

// Its sheets join the table adoptSheets() reads once an element that uses them is loaded.
registerSheets({ exercise: EXERCISE_CSS, progress: PROGRESS_CSS }, { 'sb-progress': ['progress'] });
