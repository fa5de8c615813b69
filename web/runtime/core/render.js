// Pure HTML-string renderers shared by the site builder (Node, at build time) and the browser
// elements, so the static page and the live page are the same markup. No DOM, no engine here:
// every number shown comes from an engine result passed in; this file only formats it.
import { formatValue } from './format.js';
import { escapeHTML } from './escape.js';
import { choiceText, inputGroups, inputLabel, unitAfter } from './input-groups.js';

export { escapeHTML };

// A number as a string the user could type back into a field: 256, 1e12, 9.89e14.
export function inputText(x) {
  if (typeof x !== 'number') return x == null ? '' : String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e5) return String(x);
  return x.toExponential().replace('e+', 'e');
}

// An input without a default (a chip override, a format that follows dtype) shows the value the
// engine used, when it reports one as an output of the same name (peak_flops, hbm_bandwidth).
export function placeholderFor(input, result) {
  if (input.default !== null) return inputText(input.default);
  const fromChip = result?.[input.name];
  return typeof fromChip === 'number' ? inputText(fromChip) : '';
}

// The inner HTML of one output cell: a coloured badge for `bound`-like text, else the value.
// Code (a JAX mesh, several lines) sits in a focusable block that scrolls; a sentence (a
// layout, a reason) is plain text; a one-word state (compute, ici, yes) is a badge.
// `absent`: why the engine gave no value (its result's `absent` map), shown in its place.
export function outputCellHTML(output, value, absent) {
  if (value === undefined) return '—';
  if (value === null && absent) return `<span class="absent">none: ${escapeHTML(absent)}</span>`;
  const text = escapeHTML(formatValue(value, output.unit, 'si'));
  if (output.type === 'text' && String(value).includes('\n')) {
    return `<pre class="code" tabindex="0" aria-label="${escapeHTML(output.label || output.name)}"><code>${escapeHTML(value)}</code></pre>`;
  }
  if (output.type === 'text' && /\s/.test(String(value))) return `<span class="sentence">${text}</span>`;
  if (output.type === 'text') {
    return `<span class="badge badge-${escapeHTML(value)}">${text}</span>`;
  }
  return text;
}

// " (unit)" after a label or a column's head, unless the label says its unit (unitAfter).
export function unitHTML(label, unit) {
  const shown = unitAfter(label, unit);
  return shown ? ` <span class="unit">(${escapeHTML(shown)})</span>` : '';
}

// A field's <label> (its text is the accessible name: the schema's label and the unit, unless
// the label already says it), then the input's name as a small code hint for prose and
// attributes that use it (`dtype_weights`), unless the label says the name already (Chip: chip,
// HBM bandwidth: hbm_bandwidth, Token batch B: B).
export function labelHTML(id, input, label = inputLabel(input)) {
  const unit = unitHTML(label, input.unit);
  const plain = (text) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const named = plain(label) === plain(input.name) || label.split(' ').at(-1) === input.name;
  const hint = input.label && !named ? `<code class="input-name">${escapeHTML(input.name)}</code>` : '';
  const tag = `<label for="${escapeHTML(id)}">${escapeHTML(label)}${unit}</label>`;
  return hint ? `<span class="field-head">${tag}${hint}</span>` : tag;
}

function optionsHTML(input, value, chips) {
  const choices = [...input.choices];
  // An unknown value (a typo in an attribute) stays selected so the engine's error shows.
  if (value !== '' && !choices.includes(value)) choices.push(value);
  const options = choices.map((choice) => {
    const selected = choice === value ? ' selected' : '';
    return `<option value="${escapeHTML(choice)}"${selected}>${escapeHTML(choiceText(input, choice, chips))}</option>`;
  });
  if (input.default === null) {
    const selected = value === '' ? ' selected' : '';
    options.unshift(`<option value=""${selected}>default</option>`);
  }
  return options.join('');
}

// A field's explanation shows under it while it has the focus (a tap or Tab gives it; a
// hover title would reach neither touch nor keyboard), and is its accessible description.
function helpHTML(id, text) {
  return text ? `<span class="help" id="${escapeHTML(id)}">${escapeHTML(text)}</span>` : '';
}

function controlHTML(input, value, result, chips, invalid) {
  const help = input.description ? ` help-${escapeHTML(input.name)}` : '';
  const common = `id="in-${escapeHTML(input.name)}" name="${escapeHTML(input.name)}" ` +
    `aria-describedby="err-${escapeHTML(input.name)}${help}"` +
    (invalid ? ' aria-invalid="true"' : '');
  if (input.type === 'choice') {
    const chosen = value || (input.default ?? '');
    return `<select ${common}>${optionsHTML(input, chosen, chips)}</select>`;
  }
  // Text, not type=number: "1e12" and "2.5e-3" must be typeable, and the engine parses strictly.
  return `<input ${common} type="text" inputmode="decimal" autocomplete="off" spellcheck="false" ` +
    `value="${escapeHTML(value)}" placeholder="${escapeHTML(placeholderFor(input, result))}">`;
}

function fieldHTML(input, values, result, chips, error) {
  const value = values?.[input.name] ?? '';
  const message = error?.field === input.name ? error.message : '';
  return `<div class="field">${labelHTML(`in-${input.name}`, input)}` +
    controlHTML(input, String(value), result, chips, Boolean(message)) +
    helpHTML(`help-${input.name}`, input.description) +
    `<span class="error" id="err-${escapeHTML(input.name)}" data-error-for="${escapeHTML(input.name)}">` +
    `${escapeHTML(message)}</span></div>`;
}

// One group of fields as a <fieldset> named by its <legend>: the main inputs open; a preset's
// overrides ("Your own chip") and the advanced settings folded into a <details>, opened when
// they hold a value or an error, so nothing typed is hidden.
function groupHTML({ group, preset, title, inputs }, field, values, error) {
  const attrs = ` class="group" data-group="${escapeHTML(group)}"${preset ? ` data-preset="${escapeHTML(preset)}"` : ''}`;
  if (group === 'main') {
    return `<fieldset${attrs}><legend class="visually-hidden">${escapeHTML(title)}</legend>` +
      `<div class="fields aligned">${inputs.map(field).join('')}</div></fieldset>`;
  }
  const open = inputs.some((input) => values[input.name] || error?.field === input.name);
  const cls = group === 'override' ? 'overrides' : group;
  return `<details class="${escapeHTML(cls)}"${preset ? ` data-preset="${escapeHTML(preset)}"` : ''}${open ? ' open' : ''}>` +
    `<summary>${escapeHTML(title)}</summary><fieldset${attrs}><legend class="visually-hidden">${escapeHTML(title)}</legend>` +
    `<div class="fields aligned">${inputs.map(field).join('')}</div></fieldset></details>`;
}

// A compact grid of label/value pairs, so a dozen outputs fit beside each other instead of
// pushing the plot off the screen. Each pair takes the focus (tap, Tab) and then shows what it
// means and its name for the CLI in a note over the pairs below it.
function outputItemsHTML(outputs, result) {
  return outputs.map((output) =>
    `<div class="out" tabindex="0" aria-describedby="help-out-${escapeHTML(output.name)}">` +
    `<dt>${escapeHTML(output.label || output.name)}</dt>` +
    `<dd data-output="${escapeHTML(output.name)}">${outputCellHTML(output, result?.[output.name], result?.absent?.[output.name])}</dd>` +
    `<span class="help" id="help-out-${escapeHTML(output.name)}">${escapeHTML(output.description)} ` +
    `<code>${escapeHTML(output.name)}</code></span></div>`).join('');
}

// The few outputs a calculator's element leads with, by calculator name. The element's view
// module registers them (the training search's, plan's and optimizer's), and both the builder's
// directive and the element import that module, so the static page and the live one draw the
// same lead from one list.
const LEADS = new Map();
export function registerLead(calculator, names) {
  LEADS.set(calculator, Object.freeze([...names]));
}
export function leadOf(calculator) {
  return LEADS.get(calculator) ?? null;
}

// The schema's tables an element draws itself (the search's compact, sortable ones), by
// calculator, registered by its view module as a lead is: the generic renderer skips them, at
// build time and in the browser, so a result is drawn once.
const OWN_TABLES = new Map();
export function registerOwnTables(calculator, names) {
  OWN_TABLES.set(calculator, Object.freeze([...names]));
}
export function ownTablesOf(calculator) {
  return OWN_TABLES.get(calculator) ?? [];
}

// The outputs. `shown`: the names of the outputs to show (an element's outputs="a,b"); null: all
// of them. `lead`: the names of the few a reader wants first (leadHTML draws them before the
// form); the others then fold away under their count, each output drawn once.
function outputsHTML(schema, result, stale, shown = null, lead = null) {
  const outputs = (shown ? schema.outputs.filter((o) => shown.includes(o.name)) : schema.outputs)
    .filter((o) => !lead?.includes(o.name));
  const list = `<dl class="outputs${stale ? ' stale' : ''}">${outputItemsHTML(outputs, result)}</dl>`;
  if (!lead) return `<h4 class="results">Results</h4>${list}`;
  return `<details class="fold" data-fold="outputs"><summary>All ${outputs.length} other results</summary>${list}</details>`;
}

function leadHTML(schema, result, stale, lead) {
  if (!lead) return '';
  const outputs = lead.map((name) => schema.outputs.find((o) => o.name === name)).filter(Boolean);
  return `<h4 class="results">Results</h4><dl class="outputs lead${stale ? ' stale' : ''}">${outputItemsHTML(outputs, result)}</dl>`;
}

// The rows of one of the schema's tables (the training step's collectives), each cell in its
// column's unit.
// Every number of a result with its unit, outputs and table cells: what a page formats in
// one call to the engine before drawing it (format.js primeTexts).
export function resultNumbers(schema, result) {
  const pairs = [];
  if (!result) return pairs;
  for (const output of schema.outputs ?? []) {
    if (typeof result[output.name] === 'number') pairs.push([result[output.name], output.unit ?? '']);
  }
  for (const table of schema.tables ?? []) {
    const rows = result[table.name];
    if (!Array.isArray(rows)) continue;
    for (const row of rows) {
      for (const c of table.columns) if (typeof row?.[c.name] === 'number') pairs.push([row[c.name], c.unit ?? '']);
    }
  }
  return pairs;
}

export function tableRowsHTML(table, rows) {
  if (!Array.isArray(rows) || !rows.length) return `<tr><td colspan="${table.columns.length}">none</td></tr>`;
  // No cell keeps its full-precision value: nothing sorts these tables (the search's and the
  // chip table's, which do, are their own), and 17-digit attributes were 3 kB of chapter 5.
  return rows.map((row) => `<tr>${table.columns.map((c) => `<td data-column="${escapeHTML(c.name)}">` +
    `${escapeHTML(c.type === 'text' ? String(row[c.name] ?? '') : formatValue(row[c.name], c.unit, 'si'))}</td>`).join('')}</tr>`).join('');
}

// Rows beyond which a table starts folded.
const LONG_TABLE = 24;

// Each table the schema declares, under its description, in a box that scrolls sideways on a
// phone rather than widening the page. Each box's name carries the element's first few given
// inputs, so two of the same calculator on a page name their tables apart. `fold`: every table
// folds under its title (a form that leads with its few results keeps the rest a tap away).
// `own`: the names of the tables the element draws itself, left out here.
function tablesHTML(schema, result, values, fold = false, own = []) {
  const given = Object.entries(values ?? {}).filter(([, v]) => v !== '' && v !== undefined && v !== null).slice(0, 3)
    .map(([k, v]) => `${k} ${v}`).join(', ');
  return (schema.tables ?? []).filter((table) => !own.includes(table.name)).map((table) => {
    const head = table.columns.map((c) => `<th scope="col" title="${escapeHTML(c.description)}">${escapeHTML(c.label || c.name)}` +
      `${unitHTML(c.label || c.name, c.unit)}</th>`).join('');
    const title = escapeHTML(table.description.replace(/^./, (ch) => ch.toUpperCase()));
    const rows = result?.[table.name];
    const box = `<div class="table-box" tabindex="0" role="region" aria-label="${escapeHTML(given ? `${table.description} (${given})` : table.description)}">` +
      `<table class="result-table" data-table="${escapeHTML(table.name)}"><thead><tr>${head}</tr></thead>` +
      `<tbody>${tableRowsHTML(table, rows)}</tbody></table></div>`;
    if (fold) return `<details class="fold" data-fold="${escapeHTML(table.name)}"><summary>${title}</summary>${box}</details>`;
    // A long table (a plot's numbers) folds away under its title rather than fill the page.
    if (Array.isArray(rows) && rows.length > LONG_TABLE) {
      return `<details class="long-table"><summary>${title}</summary>${box}</details>`;
    }
    return `<h4 class="results">${title}</h4>${box}`;
  }).join('');
}

// The whole shadow root of a calculator element. `values`: input strings by schema name;
// `result`: the last good engine result (or null); `error`: {field, message} to show, if any;
// `lead`: the names of the outputs that come first, before the form, for a calculator whose
// many outputs and tables would bury its answer (the training step: 69 outputs, 4 tables).
// A calculator with a registered lead (registerLead) leads with it when no `lead` is given, and
// its registered own tables (registerOwnTables) are left to its element.
export function calculatorHTML({ schema, values = {}, result = null, error = null, chips = [], shown = null, lead = null }) {
  lead ??= leadOf(schema.name);
  const own = ownTablesOf(schema.name);
  const known = new Set(schema.inputs.map((input) => input.name));
  const field = (input) => fieldHTML(input, values, result, chips, error);
  const groups = inputGroups(schema, { chips }).map((g) => groupHTML(g, field, values, error));
  const general = error && !known.has(error.field) ? error.message : '';
  const stale = Boolean(error) || !result;
  return `<form class="sb-calc" data-calculator="${escapeHTML(schema.name)}" novalidate>` +
    `<p class="desc">${escapeHTML(schema.description)}</p>${leadHTML(schema, result, stale, lead)}${groups.join('')}` +
    `<p class="error general" data-error-for="">${escapeHTML(general)}</p>` +
    `${outputsHTML(schema, result, stale, shown, lead)}${tablesHTML(schema, result, values, Boolean(lead), own)}</form>`;
}
