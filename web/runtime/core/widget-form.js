// Form pieces shared by the chapter 3 widgets (<sb-sharding>, <sb-sharded-matmul>,
// <sb-collective-sim>): a labelled field with its error slot, the engine's error as a value, a
// spec with its offending character marked, and the client-side reading of dimension names
// (only to know which size fields to offer; the engine parses and checks the spec itself).
// No DOM, no engine.
import { escapeHTML } from './escape.js';
import { formatValue, displayText } from './format.js';
import { inputText, labelHTML } from './render.js';
import { choiceText, inputLabel } from './input-groups.js';

// { field, message, position? } from anything thrown: the engine's CalculatorError keeps its
// field and position; anything else is a general failure.
export function asError(err) {
  if (err?.name !== 'CalculatorError') return { field: '', message: `the engine failed: ${err?.message ?? err}` };
  const error = { field: err.field ?? '', message: readableMessage(err.message) };
  if (Number.isInteger(err.position) && err.position >= 0) error.position = err.position;
  return error;
}

// The engine's message in a reader's words: a number typed beyond what a double holds (1e400)
// reaches it as infinity, and "got inf" would blame the reader for a value they never typed.
export function readableMessage(message) {
  return String(message).replace(/^(\S+) must be a finite number, got (-?)inf$/,
    (_, field, minus) => `${field} is too ${minus ? 'far below zero' : 'large'}: numbers stop near ${minus}1.8e308`);
}

// The schema's default of input `name` as text ('' when it has none): the one place a widget
// takes a default from (the default chip, a default format), so none is typed twice.
export function schemaDefault(schema, name) {
  const fallback = schema?.inputs.find((i) => i.name === name)?.default;
  return fallback === null || fallback === undefined ? '' : String(fallback);
}

// A field's text, or the schema's default when it is empty.
export function effectiveValue(schema, values, name) {
  const text = String(values?.[name] ?? '').trim();
  if (text !== '') return text;
  return schemaDefault(schema, name);
}

// `text` with the character at `position` (0-based) marked; past the end, a marked gap.
export function markedTextHTML(text, position) {
  if (!Number.isInteger(position) || position < 0) return '';
  const at = Math.min(position, text.length);
  const char = text.slice(at, at + 1);
  return `<code class="marked">${escapeHTML(text.slice(0, at))}` +
    `<mark data-position="${at}">${char.trim() ? escapeHTML(char) : '&#x2423;'}</mark>${escapeHTML(text.slice(at + 1))}</code>`;
}

// The inner HTML of an error slot: the message, and the text it is about with the offending
// character marked when the engine gave a position.
export function errorHTML(error, text = '') {
  if (!error?.message) return '';
  const mark = error.position === undefined ? '' : ` ${markedTextHTML(String(text), error.position)}`;
  return `${escapeHTML(error.message)}${mark}`;
}

// Dimension names in a spec's brackets, first seen first, mesh subscripts and {U_X} left out:
// 'A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]' -> ['I', 'J', 'K'].
export function dimensionNames(spec) {
  const names = [];
  for (const [, inside] of String(spec ?? '').matchAll(/\[([^\]]*)\]/g)) {
    for (const item of inside.split(',')) {
      const match = /^\s*([A-Z][A-Za-z0-9]*)/.exec(item);
      if (match && !names.includes(match[1])) names.push(match[1]);
    }
  }
  return names;
}

// A dimension's size field, shaped like a schema input.
export function dimensionInput(name, description = '') {
  return { name, type: 'count', unit: '', default: null, description: description || `size of dimension ${name}` };
}

// One labelled control with its error slot. input: a schema input ({ name, type, choices,
// default, unit, description, label, choice_labels }); `value` the field's string ('' shows the
// default as a placeholder); ids are prefixed so two widgets on a page never share one. The
// label is the schema's (or `label`), a choice shows its choice label (a chip its name).
export function fieldHTML(input, value, { prefix, error = null, text = value, chips = [], wide = false, label = inputLabel(input) } = {}) {
  const name = escapeHTML(input.name);
  const id = `${prefix}-${name}`;
  const mine = error?.field === input.name ? error : null;
  const common = `id="${id}" name="${name}" title="${escapeHTML(input.description ?? '')}" ` +
    `aria-describedby="${id}-err"${mine ? ' aria-invalid="true"' : ''}`;
  let control;
  if (input.type === 'choice') {
    const chosen = value === '' ? String(input.default ?? '') : value;
    const choices = input.choices.includes(chosen) ? input.choices : [...input.choices, chosen];
    control = `<select ${common}>${choices.map((c) => `<option value="${escapeHTML(c)}"${c === chosen ? ' selected' : ''}>` +
      `${escapeHTML(choiceText(input, c, chips))}</option>`).join('')}</select>`;
  } else {
    // Text, not type=number: "1e9" must be typeable, and the engine parses strictly.
    const mode = input.type === 'text' ? '' : ' inputmode="decimal"';
    const placeholder = input.default === null || input.default === undefined ? '' : inputText(input.default);
    control = `<input ${common} type="text"${mode} autocomplete="off" spellcheck="false" ` +
      `value="${escapeHTML(value)}" placeholder="${escapeHTML(placeholder)}">`;
  }
  return `<div class="field${wide ? ' wide' : ''}">${labelHTML(id, input, label)}${control}` +
    `<span class="error" id="${id}-err" data-error-for="${name}">${errorHTML(mine, text)}</span></div>`;
}

// A result's value as text: a number as the engine's display_text writes it (quantities in SI
// with the schema's unit, counts with every digit), text as it is.
export function valueText(value, unit = '') {
  if (value === undefined || value === null || value === '') return '—';
  if (Array.isArray(value)) return value.join('');
  if (typeof value === 'number') return displayText(value, unit);
  return formatValue(value, unit, 'si');
}

// Mesh axes as text whether the engine lists them (['X', 'Y']) or spells them ('XY').
export function axesText(axes) {
  return Array.isArray(axes) ? axes.join('') : String(axes ?? '');
}

// Book notation with its subscripts set: I_XY -> I<sub>XY</sub>, AllGather_{X} -> AllGather<sub>X</sub>.
export function notationHTML(text) {
  return escapeHTML(text).replace(/_\{([^}]*)\}|_([A-Za-z0-9]+)/g, (_, braced, bare) => `<sub>${braced ?? bare}</sub>`);
}

// A list of label/value pairs (a <dl>) for the named outputs the schema has, in `names` order,
// each output's name and description its tooltip; text in the book's notation (C[I, K_Y]) gets
// its subscripts. `lead`: [label, html, attribute] items put first.
export function outputsListHTML(outputs, result, names, { stale = false, cls = '', lead = [] } = {}) {
  const first = lead.map(([label, html, attribute]) => `<div class="out"><dt>${escapeHTML(label)}</dt><dd ${attribute}>${html}</dd></div>`);
  const items = names.map((name) => outputs.find((o) => o.name === name)).filter(Boolean).map((output) => {
    const text = valueText(result?.[output.name], output.unit);
    const html = typeof result?.[output.name] === 'string' && text.includes('[') ? notationHTML(text) : escapeHTML(text);
    const title = output.description ? `${output.name}: ${output.description}` : output.name;
    return `<div class="out" title="${escapeHTML(title)}"><dt>${escapeHTML(output.label || output.name)}</dt>` +
      `<dd data-output="${escapeHTML(output.name)}">${html}</dd></div>`;
  });
  return `<dl class="outputs${cls ? ` ${cls}` : ''}${stale ? ' stale' : ''}">${[...first, ...items].join('')}</dl>`;
}

// The engine's worked solution: one item per step, its LaTeX through `tex` (the builder and the
// browser pass KaTeX's MathML renderer; without one the LaTeX shows as code).
export function stepsHTML(steps, tex = null) {
  if (!steps?.length) return '';
  const items = steps.map((step) => {
    const math = tex ? tex(step.latex) : `<code>${escapeHTML(step.latex)}</code>`;
    return `<li><span class="step-label">${escapeHTML(step.label)}</span> <span class="step-math">${math}</span></li>`;
  });
  return `<ol class="steps">${items.join('')}</ol>`;
}
