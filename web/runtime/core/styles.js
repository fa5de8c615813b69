// CSS for the Scalebook elements. The calculator and the plot render into shadow roots, so
// their CSS travels with them (SHADOW_CSS) and a blog's own styles cannot break them. Theming
// goes through custom properties, which do cross the shadow boundary:
//   --sb-font, --sb-fg, --sb-bg, --sb-muted, --sb-border, --sb-field-bg, --sb-accent,
//   --sb-error, --sb-compute, --sb-memory, --sb-comm, --sb-radius
// Each falls back to a light or a dark palette following prefers-color-scheme.

// The palette as internal --_ variables, so every rule reads one name whatever the scheme.
const PALETTE = `
  --_font: var(--sb-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  --_radius: var(--sb-radius, 6px);
  --_fg: var(--sb-fg, #1f2328);
  --_bg: var(--sb-bg, #ffffff);
  --_muted: var(--sb-muted, #59636e);
  --_border: var(--sb-border, #d0d7de);
  --_field-bg: var(--sb-field-bg, #ffffff);
  --_accent: var(--sb-accent, #0b63c5);
  --_error: var(--sb-error, #c62828);
  --_compute: var(--sb-compute, #1a7f37);
  --_memory: var(--sb-memory, #9a5b00);
  --_comm: var(--sb-comm, #c62828);`;

const DARK_PALETTE = `
  --_fg: var(--sb-fg, #e6e8eb);
  --_bg: var(--sb-bg, #16181c);
  --_muted: var(--sb-muted, #9aa4af);
  --_border: var(--sb-border, #3a3f47);
  --_field-bg: var(--sb-field-bg, #0f1114);
  --_accent: var(--sb-accent, #6cb0ff);
  --_error: var(--sb-error, #ff7b72);
  --_compute: var(--sb-compute, #3fb950);
  --_memory: var(--sb-memory, #e3b341);
  --_comm: var(--sb-comm, #ff7b72);`;

const HOST = `
:host { display: block; ${PALETTE}
  font-family: var(--_font); color: var(--_fg); background: var(--_bg);
  line-height: 1.4; container-type: inline-size; }
@media (prefers-color-scheme: dark) { :host { ${DARK_PALETTE} } }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.loading { color: var(--_muted); font-style: italic; margin: 0.5rem 0; }`;

const CALCULATOR = `
.sb-calc { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; }
.desc { margin: 0 0 0.6rem; color: var(--_muted); }
.fields { display: grid; gap: 0.6rem 0.9rem;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 11rem), 1fr)); }
.field { display: flex; flex-direction: column; gap: 0.2rem; min-width: 0; }
.field label { font-size: 0.9rem; font-weight: 600; }
/* The label, then the input's name as a quiet code hint (what prose and attributes call it). */
.field-head { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 0.45rem; min-width: 0; }
.input-name { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.75rem;
  color: var(--_muted); overflow-wrap: anywhere; }
/* Each group of inputs is a fieldset (named by its legend for screen readers), drawn flat. */
fieldset.group { border: 0; margin: 0; padding: 0; min-width: 0; }
/* In an aligned grid the fields line up row by row: each spans three rows (label, control,
   error) with its label at the bottom of the first, so a label that wraps does not push its
   control down. */
.fields.aligned { row-gap: 0.2rem; }
.fields.aligned > .field, .fields.aligned > .dims > .field {
  display: grid; grid-row: span 3; grid-template-rows: subgrid; row-gap: 0.2rem; }
.fields.aligned .field > :first-child { align-self: end; }
.fields.aligned .field > :nth-child(2) { margin-bottom: 0.2rem; }
.fields.aligned > .field.check { justify-content: start; padding-bottom: 0; }
.fields.aligned > .field.check > label { grid-row: 2; align-self: center; }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0; }
.unit { font-weight: 400; color: var(--_muted); }
input, select { font: inherit; color: var(--_fg); background: var(--_field-bg);
  border: 1px solid var(--_border); border-radius: var(--_radius);
  padding: 0.35rem 0.5rem; width: 100%; min-width: 0; }
input::placeholder { color: var(--_muted); opacity: 0.8; }
input:focus-visible, select:focus-visible, summary:focus-visible {
  outline: 2px solid var(--_accent); outline-offset: 1px; }
[aria-invalid="true"] { border-color: var(--_error); }
.error { color: var(--_error); font-size: 0.85rem; }
.error:empty { display: none; }
.general { margin: 0.5rem 0 0; }
details { margin-top: 0.7rem; }
summary { cursor: pointer; color: var(--_accent); font-size: 0.95rem; }
details[open] > summary { margin-bottom: 0.5rem; }
.results { margin: 0.9rem 0 0.3rem; font-size: 0.95rem; }
.outputs { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr));
  column-gap: 1.2rem; margin: 0; font-size: 0.92rem; }
.out { display: flex; justify-content: space-between; align-items: baseline; gap: 0.6rem;
  padding: 0.25rem 0.1rem; border-top: 1px solid var(--_border); }
.out dt code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.88em;
  color: var(--_muted); }
.out dd { margin: 0; white-space: nowrap; font-variant-numeric: tabular-nums; text-align: right; }
.outputs.stale dd { opacity: 0.45; text-decoration: line-through; }
/* What a field or an output means, shown while it has the focus (a tap or Tab) or, for an
   output, the pointer: a note over what lies below, so no grid row moves. */
.field, .out { position: relative; }
.field > .help, .out > .help { display: none; position: absolute; z-index: 3; top: calc(100% + 2px);
  left: 0; right: 0; padding: 0.35rem 0.55rem; border: 1px solid var(--_border);
  border-radius: var(--_radius); background: var(--_bg); color: var(--_fg);
  box-shadow: 0 2px 8px rgb(0 0 0 / 0.15); font-size: 0.82rem; line-height: 1.35; white-space: normal; }
.field:focus-within > .help, .out:focus > .help, .out:hover > .help { display: block; }
.out > .help code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--_muted); }
.out:focus-visible { outline: 2px solid var(--_accent); outline-offset: 1px; }
.table-box { overflow-x: auto; }
.result-table { border-collapse: collapse; font-size: 0.85rem; width: 100%; }
.result-table th, .result-table td { padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--_border);
  text-align: left; white-space: nowrap; }
.result-table th { font-weight: 600; }
.result-table td[data-column="bytes"], .result-table td[data-column="count"], .result-table td[data-column="time"],
.result-table td[data-column="total"] { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 0 0.5rem; border-radius: 999px; font-weight: 600;
  border: 1px solid currentColor; color: var(--_badge, var(--_fg)); }
.badge-compute { --_badge: var(--_compute); }
.badge-memory { --_badge: var(--_memory); }
.badge-communication { --_badge: var(--_comm); }
@container (max-width: 24rem) { .sb-calc { padding: 0.5rem; } }`;

// Colours of the roofline plot; the SVG also carries plain presentation attributes so it
// still reads if someone drops the bare SVG string into a page.
const PLOT = `
.plot svg { display: block; width: 100%; height: auto; max-width: 720px;
  font-family: var(--_font); font-size: 13px; overflow: visible; }
/* Labels drawn over lines get a halo of the background, so they stay readable. */
.plot text { paint-order: stroke; stroke: var(--_bg); stroke-width: 3px; stroke-linejoin: round; }
/* The SVG scales down on phones (to about half its drawn size): text twice as large in its own
   units keeps it at 11 px or more on screen. */
@container (max-width: 30rem) { .plot svg { font-size: 22px; } .plot .tick.minor text { display: none; } }
.plot .axis, .plot .tick line { stroke: var(--_muted); }
.plot .tick text, .plot .axis-title { fill: var(--_muted); }
.plot .grid { stroke: var(--_border); }
.plot .roof { stroke: var(--_accent); }
.plot .roof-label { fill: var(--_accent); }
.plot .other-roof { stroke: var(--_muted); opacity: 0.55; }
.plot .other-label { fill: var(--_muted); }
.plot .ridge { stroke: var(--_fg); opacity: 0.6; }
.plot .ridge-label, .plot .point-label { fill: var(--_fg); }
.plot .point { stroke: var(--_bg); }
.plot .point, .plot .legend-dot { fill: var(--_compute); }
.plot [data-bound="memory"] { fill: var(--_memory); }
.plot [data-bound="communication"] { fill: var(--_comm); }
.plot .note { fill: var(--_muted); }`;

export const SHADOW_CSS = `${HOST}${CALCULATOR}${PLOT}`;

// sb-exercise lives in the light DOM (its prompt and solution hold KaTeX markup that needs the
// page's KaTeX CSS), so its CSS is scoped by :where(sb-exercise) (zero specificity: any page
// rule wins) and added to the document once by the element.
const X = ':where(sb-exercise)';
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
${X} .sb-exercise-variant button { padding: 0.15rem 0.6rem; font-size: 0.85rem; }
${X} .sb-exercise-notice { margin: 0.3rem 0; padding: 0.3rem 0.5rem; font-size: 0.9rem;
  border-left: 3px solid var(--_memory); background: color-mix(in srgb, var(--_memory) 8%, transparent); }
${X}.is-loading [data-prompt], ${X}.is-loading [data-solution] { opacity: 0.4; }
${X} .sb-exercise-hints summary, ${X} .sb-exercise-solution summary { cursor: pointer; color: var(--_accent);
  width: fit-content; }
${X} .sb-exercise-hints { margin: 0.4rem 0; }
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
.list li { display: flex; justify-content: space-between; gap: 0.6rem; padding: 0.2rem 0;
  border-top: 1px solid var(--_border); }
a { color: var(--_accent); }
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
/* The file input stays focusable and clickable, only invisible inside its label. */
.file-button input { position: absolute; width: 1px; height: 1px; opacity: 0; }
.file-button { position: relative; }
.confirm { flex-basis: 100%; display: inline-flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; }
.danger { border-color: var(--_error); color: var(--_error); }
.message { margin: 0.5rem 0 0; font-size: 0.9rem; }
.message:empty { display: none; }
.message.error { color: var(--_error); }
.backups { margin-top: 0.6rem; font-size: 0.9rem; }
.backups p { margin: 0 0 0.3rem; }
.backups ul { list-style: none; padding: 0; margin: 0; }
.backups li { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; padding: 0.15rem 0; }`;

// <sb-systolic-sim>: the calculator's form and outputs, plus the PE grid and its controls.
// PE states: idle (empty), busy (holds data), mac (multiplied this cycle); pe-shadow: a next
// fold's value waits in the shadow register (a dot in the corner).
export const SYSTOLIC_CSS = `
.sb-sim .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 6.5rem), 1fr)); }
/* The collective's fields carry labels and worded choices ("Every axis a ring"): wider. */
.sb-sim.sb-coll .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 10rem), 1fr)); }
.sb-sim.is-stale .sim-body, .sb-sim.is-stale .sim-controls { opacity: 0.5; }
.sim-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.5rem; margin: 0.7rem 0 0.5rem; }
.sim-controls button { font: inherit; font-size: 0.9rem; padding: 0.3rem 0.7rem; cursor: pointer;
  border: 1px solid var(--_accent); border-radius: var(--_radius); background: transparent; color: var(--_accent); }
.sim-controls button[data-action="play"] { background: var(--_accent); color: var(--_bg); min-width: 4.5rem; }
.sim-controls button:disabled { opacity: 0.5; cursor: default; }
.sim-controls button:focus-visible, .sim-controls input:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.sim-controls label { display: inline-flex; align-items: center; gap: 0.4rem; font-size: 0.9rem; }
.sim-controls .scrub { flex: 1 1 12rem; }
.sim-controls .scrub input { flex: 1; width: auto; padding: 0; border: 0; background: transparent; }
.sim-controls .speed select { width: auto; }
.sim-body { display: flex; flex-wrap: wrap; gap: 0.8rem 1.2rem; align-items: flex-start; }
.sim-grid { flex: 1 1 20rem; min-width: 0; max-width: 44rem; overflow-x: auto; }
.pe-grid { display: block; width: 100%; height: auto;
  font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
.pe rect { fill: var(--_field-bg); stroke: var(--_border); stroke-width: 1.5; }
.pe-busy rect { fill: color-mix(in srgb, var(--_accent) 14%, var(--_bg)); stroke: var(--_accent); }
.pe-mac rect { fill: color-mix(in srgb, var(--_compute) 30%, var(--_bg)); stroke: var(--_compute); stroke-width: 2.5; }
.pe .shadow-dot { fill: var(--_memory); display: none; }
.pe-shadow .shadow-dot { display: inline; }
.sim-grid:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.pe text { fill: var(--_fg); }
.pe.st-w .v-w, .pe.st-a .v-a, .pe.st-p .v-p { font-weight: 700; }
.pe .v-p { fill: var(--_compute); }
.sim-side { flex: 1 1 14rem; min-width: 0; }
.sim-stats { grid-template-columns: 1fr; }
.sim-stats dt { color: var(--_muted); font-size: 0.9rem; }
.sim-check { margin: 0.4rem 0 0; font-size: 0.9rem; color: var(--_compute); }
.sim-legend { margin: 0.6rem 0 0; font-size: 0.88rem; color: var(--_muted); }
.sim-legend .key { display: inline-block; margin-right: 0.6rem; white-space: nowrap; }
.sim-legend .key::before { content: ""; display: inline-block; width: 0.8rem; height: 0.8rem;
  margin-right: 0.3rem; vertical-align: -0.1rem; border-radius: 2px; border: 1.5px solid; }
.key-mac::before { background: color-mix(in srgb, var(--_compute) 30%, var(--_bg)); border-color: var(--_compute); }
.key-busy::before { background: color-mix(in srgb, var(--_accent) 14%, var(--_bg)); border-color: var(--_accent); }
.sim-legend .key-shadow::before { border-radius: 50%; background: var(--_memory); border-color: var(--_memory); }
.sim-empty, .sim-note { color: var(--_muted); font-style: italic; }
@container (max-width: 30rem) { .pe-grid { font-size: 14px; } .sim-grid { flex-basis: 100%; } }`;

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
.too-big, .sim-empty { color: var(--_muted); font-style: italic; }
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

// <sb-transformer>: the layer picture, its detail, the totals and the attention-share plot.
// Groups: attention projections (accent), dot products (memory colour), MLP (compute colour).
export const TRANSFORMER_CSS = `
.sb-transformer { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; }
.sb-transformer .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 7.5rem), 1fr)); gap: 0.5rem 0.7rem; }
.sb-transformer .fields.shape { margin-top: 0.5rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 5.5rem), 1fr)); }
.sb-transformer .field.wide { grid-column: span 2; }
@container (max-width: 24rem) { .sb-transformer .field.wide { grid-column: 1 / -1; } .sb-transformer { padding: 0.5rem; } }
.tf-body.stale { opacity: 0.45; }
.tf-layout { display: flex; flex-wrap: wrap; gap: 0.5rem 1.2rem; margin-top: 0.6rem; }
.tf-picture { flex: 1 1 22rem; min-width: 0; max-width: 30rem; }
.tf-side { flex: 1 1 16rem; min-width: 0; }
.tf-side .results:first-child { margin-top: 0.3rem; }
.totals { grid-template-columns: 1fr; }
.totals dt { color: var(--_muted); font-size: 0.88rem; }
svg.layer, svg.share { display: block; width: 100%; height: auto; font-family: var(--_font); font-size: 12px; }
svg.layer text, svg.share text { fill: var(--_fg); }
.layer .stream-line, .layer .flow { stroke: var(--_muted); stroke-width: 1.5; fill: none; }
.layer .stream { fill: var(--_muted); font-size: 12px; }
.layer .branch-label { font-weight: 700; font-size: 13px; }
.layer .add circle { fill: var(--_bg); stroke: var(--_fg); stroke-width: 1.5; }
.layer .add text { font-size: 14px; font-weight: 700; }
.layer .op rect { fill: var(--_field-bg); stroke: var(--_border); }
.layer .op text { fill: var(--_muted); font-size: 12px; }
.layer .block { cursor: pointer; outline: none; --_c: var(--_accent); }
.layer .g-dot-product { --_c: var(--_memory); }
.layer .g-mlp { --_c: var(--_compute); }
.layer .box { fill: color-mix(in srgb, var(--_c) 9%, var(--_bg)); stroke: var(--_c); stroke-width: 1.2; }
.layer .bar { fill: var(--_c); }
.layer .bname { font-weight: 700; font-size: 13.5px; }
.layer .bname .sub { font-size: 10.5px; }
.layer .bshape { fill: var(--_muted); font-size: 12px; }
.layer .bnum { font-size: 12.5px; font-variant-numeric: tabular-nums; }
.layer .block:hover .box, .layer .block.active .box { stroke-width: 2.5; fill: color-mix(in srgb, var(--_c) 20%, var(--_bg)); }
.layer .block:focus-visible .box { stroke-width: 3; stroke-dasharray: 4 2; }
.detail { margin-top: 0.4rem; padding: 0.4rem 0.55rem; font-size: 0.88rem; border: 1px solid var(--_border);
  border-radius: var(--_radius); background: var(--_field-bg); min-height: 6.5rem; overflow-wrap: anywhere; }
.detail p { margin: 0 0 0.3rem; }
.detail .what, .detail .hint { color: var(--_muted); }
.detail code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.85em; }
.detail .sizes { color: var(--_muted); }
.detail-nums { margin: 0; }
.detail-nums div { display: flex; justify-content: space-between; gap: 0.6rem; border-top: 1px solid var(--_border); padding: 0.15rem 0; }
.detail-nums dt { color: var(--_muted); }
.detail-nums dd { margin: 0; white-space: nowrap; font-variant-numeric: tabular-nums; }
.share .grid { stroke: var(--_border); }
.share .axis { stroke: var(--_muted); fill: none; }
.share .tick, .share .axis-title { fill: var(--_muted); }
.share .curve { stroke: var(--_memory); stroke-width: 2.5; fill: none; }
.share .cross { stroke: var(--_fg); stroke-dasharray: 5 4; opacity: 0.7; }
.share .cross-label { font-weight: 600; }
.share .now { fill: var(--_accent); stroke: var(--_bg); stroke-width: 1.5; }
.legend { color: var(--_muted); font-size: 0.85rem; margin: 0.2rem 0; }
.more summary { font-size: 0.9rem; }`;

// <sb-collective-sweep>: bandwidth against array size, added to SHADOW_CSS in its shadow root.
export const BANDWIDTH_CSS = `
.sb-bw .fields { grid-template-columns: repeat(auto-fill, minmax(min(100%, 10rem), 1fr)); }
.sb-bw .plot { margin-top: 0.6rem; }
.sb-bw.is-stale .plot, .sb-bw.is-stale .readout { opacity: 0.45; }
.plot .curve { stroke: var(--_accent); }
.plot .reach { fill: var(--_accent); stroke: var(--_bg); stroke-width: 1.5; }
.plot .peak, .plot .crossover { stroke: var(--_fg); opacity: 0.7; }
.plot .peak-label, .plot .crossover-label, .plot .reach-label { fill: var(--_fg); }
.plot .region, .plot .note { fill: var(--_muted); }
.plot .region { font-size: 0.9em; }
/* Bigger text on a phone, where the plot shrinks to half its drawn size. */
@container (max-width: 30rem) { .sb-bw .plot svg { font-size: 22px; } .sb-bw .plot .region { font-size: 1em; } }
.plot .latency-region { fill: var(--_memory); fill-opacity: 0.08; }
.readout { margin: 0.6rem 0 0; }
.caption { margin: 0.5rem 0 0; color: var(--_muted); font-size: 0.85rem; }
.caption code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.92em; }`;
