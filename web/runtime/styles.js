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
/* The SVG scales down on phones; larger text in its own units keeps it legible. */
@container (max-width: 30rem) { .plot svg { font-size: 17px; } }
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
.message.error { color: var(--_error); }`;
