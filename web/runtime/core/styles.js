// The shared CSS of the Scalebook elements (each domain keeps its own beside its elements;
// sheets.js serves them all). The calculator and the plot render into shadow roots, so
// their CSS travels with them (SHADOW_CSS) and a blog's own styles cannot break them. Theming
// goes through custom properties, which do cross the shadow boundary:
//   --sb-font, --sb-fg, --sb-bg, --sb-muted, --sb-border, --sb-field-bg, --sb-accent,
//   --sb-error, --sb-compute, --sb-memory, --sb-comm, --sb-radius
// Each falls back to a light or a dark palette following prefers-color-scheme.

// The palette as internal --_ variables, so every rule reads one name whatever the scheme.
export const PALETTE = `
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

export const DARK_PALETTE = `
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

export const HOST = `
:host { display: block; ${PALETTE}
  font-family: var(--_font); color: var(--_fg); background: var(--_bg);
  line-height: 1.4; container-type: inline-size; }
@media (prefers-color-scheme: dark) { :host { ${DARK_PALETTE} } }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.loading { color: var(--_muted); font-style: italic; margin: 0.5rem 0; }`;

const CALCULATOR = `
.long-status { min-height: 1.4em; margin: 0; padding-top: 0.5rem; }
.long-status button { margin-left: 0.5rem; min-height: 1.75rem; }
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
/* A section the build left for later links to its body for a reader without the script. */
.fold-link a { display: inline-block; min-height: 24px; line-height: 24px; }
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
/* Every control is a target of at least 24 x 24 px for a finger (WCAG 2.5.8): a summary's one
   line is 21 px tall, its padding makes it 29. */
summary { cursor: pointer; color: var(--_accent); font-size: 0.95rem; padding: 0.25rem 0; }
details[open] > summary { margin-bottom: 0.5rem; }
/* A simulator's event slider (the pipeline's, the systolic array's, the collective's) draws 16 px
   tall: its box grows to 24, the track stays centred in it. */
.sim-controls .scrub input[type="range"] { min-height: 24px; }
.results { margin: 0.9rem 0 0.3rem; font-size: 0.95rem; }
.outputs { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr));
  column-gap: 1.2rem; margin: 0; font-size: 0.92rem; }
.out { display: flex; justify-content: space-between; align-items: baseline; gap: 0.6rem;
  padding: 0.25rem 0.1rem; border-top: 1px solid var(--_border); }
.out dt code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.88em;
  color: var(--_muted); }
.out dd { margin: 0; white-space: nowrap; font-variant-numeric: tabular-nums; text-align: right; }
.out:has(.sentence), .out:has(pre.code) { grid-column: 1 / -1; }
.out:has(.sentence) dd, .out:has(pre.code) dd, .out:has(.absent) dd { white-space: normal; text-align: left; min-width: 0; }
.absent { font-style: italic; color: var(--_muted); overflow-wrap: anywhere; }
.out:has(pre.code) { min-width: 0; overflow: hidden; }
pre.code { margin: 0.25rem 0 0; padding: 0.5rem; overflow-x: auto; max-width: 100%; font-size: 0.85em;
  background: var(--_code-bg, rgba(127, 127, 127, 0.1)); border-radius: 4px; white-space: pre; }
.outputs.stale dd { opacity: 0.45; text-decoration: line-through; }
/* The few results a form leads with: larger, each value under its label, two or more a row. */
.outputs.lead { grid-template-columns: repeat(auto-fill, minmax(min(100%, 9rem), 1fr)); margin-bottom: 0.6rem; font-size: 1rem; }
.outputs.lead .out { flex-direction: column; align-items: flex-start; gap: 0.1rem; }
.outputs.lead dt { color: var(--_muted); font-size: 0.85rem; }
.outputs.lead dd { font-size: 1.2rem; font-weight: 600; text-align: left; }
/* A section a reader opens (the other results, each table, each picture), titled like a heading. */
details.fold > summary { font-weight: 600; }
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
