// <sb-model-config>'s markup, shared by the builder (the empty form, drawn statically) and the
// element (the form and, once a config is read, its mapping). No arithmetic here beyond one
// division for a per-token figure: the engine reads the config and counts the model.
import { escapeHTML } from '../core/escape.js';
import { formatValue } from '../core/format.js';

// The example configs: the files of tests/fixtures/model-configs/, which the build copies to
// assets/model-configs/ (the catalog's presets' configs as their publishers ship them).
export const EXAMPLES = [
  ['llama-3-8b', 'LLaMA 3 8B'],
  ['llama-3-70b', 'LLaMA 3 70B'],
  ['gemma-2-27b', 'Gemma 2 27B'],
  ['deepseek-v3', 'DeepSeek-V3'],
  ['mixtral-8x7b', 'Mixtral 8x7B'],
  ['gemma-3-27b', 'Gemma 3 27B'],
];

export function modelConfigHTML() {
  const examples = EXAMPLES.map(([id, label]) =>
    `<button type="button" data-example="${escapeHTML(id)}">${escapeHTML(label)}</button>`).join('');
  return '<div class="sb-model-config"><form novalidate>' +
    '<p class="desc">Paste a Hugging Face <code>config.json</code>: the engine reads it into a model, ' +
    'names the key each field comes from and lists what it cannot map.</p>' +
    '<div class="field"><label for="mc-config">config.json</label>' +
    '<textarea id="mc-config" name="config" rows="8" spellcheck="false" autocomplete="off" autocapitalize="off" ' +
    'aria-describedby="mc-error"></textarea>' +
    '<p class="error" id="mc-error" data-error-for="config"></p></div>' +
    `<div class="mc-examples" role="group" aria-labelledby="mc-examples-label"><span id="mc-examples-label">Examples:</span> ${examples}</div>` +
    '</form><div class="mc-result" data-result></div>' +
    '<p class="mc-status" role="status" data-status></p></div>';
}

function valueText(value) {
  return typeof value === 'number' ? String(value) : escapeHTML(value);
}

function mappingRows(model) {
  const fields = new Map(model.fields.map((f) => [f.name, f]));
  return model.mapping.map(({ field, key, value, note }) => {
    const f = fields.get(field);
    const from = key ? `<code>${escapeHTML(key)}</code>` : `<span class="mc-default">${escapeHTML(note)}</span>`;
    return `<tr data-field="${escapeHTML(field)}"><th scope="row"><code>${escapeHTML(field)}</code>` +
      ` <span class="mc-desc">${escapeHTML(f?.description ?? '')}</span></th>` +
      `<td class="mc-value">${valueText(value)}</td><td>${from}</td></tr>`;
  }).join('');
}

function unmappedHTML(unmapped) {
  const notModelled = unmapped.filter((u) => u.kind === 'not modelled');
  const item = (u) => `<li data-key="${escapeHTML(u.key)}" data-kind="${escapeHTML(u.kind)}">` +
    `<code>${escapeHTML(u.key)}</code> <span class="mc-kind">${escapeHTML(u.kind)}</span>: ${escapeHTML(u.reason)}</li>`;
  const warn = notModelled.length
    ? `<p class="mc-warning" data-not-modelled>Not modelled: ${notModelled.map((u) => `<code>${escapeHTML(u.key)}</code>`).join(', ')}.</p>`
    : '';
  return `${warn}<details class="mc-unmapped"><summary>Keys not mapped (${unmapped.length})</summary>` +
    `<ul>${unmapped.map(item).join('')}</ul></details>`;
}

// totals: the transformer calculator's outputs for the model at its default batch and context.
export function mappingHTML(model, totals) {
  const perToken = totals.flops_forward / totals.tokens;
  const stat = (name, label, value) =>
    `<div class="out"><dt>${label}</dt><dd data-stat="${name}">${escapeHTML(value)}</dd></div>`;
  return `<p class="results"><strong>${escapeHTML(model.name)}</strong></p>` +
    '<dl class="outputs">' +
    stat('params', 'Parameters', formatValue(totals.params, 'params', 'sci')) +
    stat('params_active', 'Active per token', formatValue(totals.params_active, 'params', 'sci')) +
    stat('flops_per_token', `Forward FLOPs per token (T = ${totals.tokens})`, formatValue(perToken, 'FLOP', 'si')) +
    '</dl>' +
    '<div class="table-box"><table class="result-table mc-mapping"><caption>How the config maps to the model</caption>' +
    '<colgroup><col><col class="mc-col-value"><col></colgroup><thead><tr><th scope="col">Field</th><th scope="col">Value</th><th scope="col">From</th></tr></thead>' +
    `<tbody>${mappingRows(model)}</tbody></table></div>` +
    unmappedHTML(model.unmapped) +
    '<p><button type="button" data-use>Use this model in the calculators on this page</button></p>';
}
