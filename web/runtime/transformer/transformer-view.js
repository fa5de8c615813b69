// One Transformer layer as chapter 4 draws it, with the engine's numbers: pure functions shared
// by the builder (the static first picture) and <sb-transformer> (redraws). The transformer
// calculator decides every number: its `blocks` list gives each contraction's shapes,
// parameters and FLOPs, its outputs the totals, and the attention-share curve is one engine
// sweep of the calculator over the context length. This file only gathers the form's values,
// lays the answer out and draws it.
import { formatValue, si } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';
import { readableMessage } from '../core/widget-form.js';
import { linearAxis, logAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';
import { attributeName } from '../core/widget-dom.js';

// The shape fields the form shows; the rest of the catalog's fields sit under "more".
export const SHAPE_FIELDS = ['L', 'D', 'F', 'N', 'K', 'H', 'V', 'gated', 'E', 'experts_per_token'];
export const MORE_FIELDS = ['tied', 'norms_per_layer', 'final_norm', 'shared_experts', 'F_expert',
  'dense_layers', 'q_rank', 'kv_rank', 'rope_dim'];
export const RUN_FIELDS = ['B', 'T', 'dtype', 'causal', 'remat'];
export const MODEL_FIELDS = [...SHAPE_FIELDS, ...MORE_FIELDS];
export const ALL_FIELDS = ['model', ...RUN_FIELDS, ...MODEL_FIELDS];

// Context lengths of the attention-share plot: 1k to 1M tokens, ten points a decade.
export const SWEEP_MIN = 1e3;
export const SWEEP_MAX = 1e6;
export function sweepContexts() {
  const out = [];
  for (let i = 0; i <= 30; i++) out.push(Math.round(SWEEP_MIN * 10 ** (i / 10)));
  return out;
}

const NAMES = {
  q: 'query projection', q_down: 'query down-projection (to the latent)',
  q_up: 'query up-projection', kv_down: 'key/value down-projection (to the cached latent)',
  k: 'key projection', v: 'value projection', qk: 'attention scores: queries against keys',
  av: 'softmax weights applied to the values', o: 'output projection',
  router: 'router: a score per expert', in1: 'MLP up-projection (goes through the nonlinearity)',
  in2: 'MLP up-projection (the gate\u2019s other branch)', in: 'MLP up-projection',
  out: 'MLP down-projection',
};

// Attribute name (attributeName of the input, as HTML keeps it) -> input name.
export function attributeInputs(attributes) {
  const byAttribute = new Map(ALL_FIELDS.map((name) => [attributeName(name), name]));
  const out = {};
  for (const [key, value] of Object.entries(attributes)) {
    const name = byAttribute.get(attributeName(key));
    if (name) out[name] = String(value);
  }
  return out;
}

function presetOf(models, id) {
  return models.find((m) => m.id === id) ?? null;
}

// The form's values for a preset (its catalog fields) with `given` laid over them.
export function formValues(models, schema, given = {}) {
  const defaults = Object.fromEntries(schema.inputs.filter((i) => RUN_FIELDS.includes(i.name))
    .map((i) => [i.name, String(i.default ?? '')]));
  const model = given.model ?? schema.inputs.find((i) => i.name === 'model').default;
  const preset = presetOf(models, model) ?? models[0];
  const fields = Object.fromEntries(preset.fields.map((f) => [f.name, String(f.value)]));
  return { ...defaults, ...fields, ...given, model };
}

// The calculator's inputs: the run settings, and each shape field that differs from the
// preset's (all of them for a custom model). An empty field is left out, so it takes its
// default (the schema's, or the preset's), as in every other element.
export function engineInputs(models, values) {
  const inputs = { model: values.model };
  const given = (name) => values[name] !== undefined && String(values[name]).trim() !== '';
  for (const name of RUN_FIELDS) if (given(name)) inputs[name] = values[name];
  const preset = presetOf(models, values.model);
  for (const name of MODEL_FIELDS) {
    if (!given(name)) continue;
    const base = preset?.fields.find((f) => f.name === name);
    if (!preset || String(base?.value) !== String(values[name]).trim()) inputs[name] = values[name];
  }
  return inputs;
}

// { result } or { error: { field, message } }.
export function evaluate(engine, inputs) {
  try {
    return { result: engine.calculate('transformer', inputs, { steps: false }) };
  } catch (err) {
    if (err?.name !== 'CalculatorError') throw err;
    return { error: { field: err.field, message: readableMessage(err.message) } };
  }
}

// The attention share of the layers' FLOPs at each context length, and where it crosses the
// matmuls' (the engine's crossover_matmuls, taken at the first context length as before): one
// engine sweep over T, numbers only. An output that is none comes back null.
export function shareCurve(engine, inputs) {
  const contexts = sweepContexts();
  const { series } = engine.sweep('transformer', {
    inputs, over: 'T', values: contexts, outputs: ['attention_share', 'crossover_matmuls'],
  });
  const number = (x) => (Number.isNaN(x) ? null : x);
  const points = contexts.map((T, i) => [T, number(series.attention_share[i])]);
  return { points, crossover: number(series.crossover_matmuls[0]) };
}

// Parameter counts as people say them: 70.6B, 8.39M.
export function countText(x) {
  if (typeof x !== 'number') return 'none';
  for (const [scale, suffix] of [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'k']]) {
    if (Math.abs(x) >= scale * 0.9995) return `${formatValue(x / scale, '', 'num')}${suffix}`;
  }
  return formatValue(x, '', 'num');
}

function tokensText(x) {
  if (x >= 1e6) return `${formatValue(x / 1e6, '', 'num')}M`;
  if (x >= 1e3) return `${formatValue(x / 1e3, '', 'num')}k`;
  return formatValue(x, '', 'num');
}

// W_Q as W with a subscript Q, in SVG and in HTML.
function nameSVG(name) {
  const [base, sub] = name.split('_');
  return sub ? `${esc(base)}<tspan class="sub" dy="3">${esc(sub)}</tspan>` : esc(name);
}

function nameHTML(name) {
  const [base, sub] = name.split('_');
  return sub ? `${esc(base)}<sub>${esc(sub)}</sub>` : esc(name);
}

const shape = (letters) => `[${letters.split(',').join(', ')}]`;
const sizes = (text) => `[${text.split(' \u00d7 ').join(', ')}]`;

const paramsText = (b) => (b.params ? `${countText(b.params)} params` : 'no weights');

// A block's name (its <title>: the tooltip, and what a screen reader says, as SVG names a
// group by its title) starts with what the box shows, in its order (name, weight shape, params,
// FLOPs; W_Q as drawn, WQ), so a speech user who says what they see reaches it; the
// contraction follows. An aria-label saying the contraction first did not match the box.
function blockName(b) {
  return `${b.name.replace('_', '')} ${shape(b.right)} ${paramsText(b)} ${si(b.flops_training, 'FLOP')} training FLOPs per layer; ` +
    `${shape(b.left)} \u00b7 ${shape(b.right)} \u2192 ${shape(b.out)}`;
}

// The detail of one block, for hover, focus or tap.
export function blockDetailHTML(block) {
  if (!block) return '<p class="hint">Point at, tab to or tap a block of the layer to see its shapes and counts.</p>';
  const params = block.params ? countText(block.params) : 'none (no weights)';
  return `<p class="detail-head"><strong>${nameHTML(block.name)}</strong> <span class="what">${esc(NAMES[block.block] ?? '')}</span></p>` +
    `<p class="contraction"><code>${esc(shape(block.left))} \u00b7 ${esc(shape(block.right))} \u2192 ${esc(shape(block.out))}</code><br>` +
    `<code class="sizes">${esc(sizes(block.left_size))} \u00b7 ${esc(sizes(block.right_size))} \u2192 ${esc(sizes(block.out_size))}</code></p>` +
    '<dl class="detail-nums">' +
    `<div><dt>parameters in one layer</dt><dd data-detail="params">${esc(params)}</dd></div>` +
    `<div><dt>forward FLOPs per token, one layer</dt><dd data-detail="flops_token">${esc(si(block.flops_token, 'FLOP'))}</dd></div>` +
    `<div><dt>training FLOPs for the step, one layer: ${esc(block.formula)}</dt><dd data-detail="flops_training">${esc(si(block.flops_training, 'FLOP'))}</dd></div>` +
    '</dl>';
}

// --- the layer picture ---------------------------------------------------------------------

const W = 400;
const RES_X = 18; // the residual stream
const LEFT = 44;
const RIGHT = W - 6;
const BOX_H = 78;
const GAP = 8;

function boxSVG(block, x, y, w, share) {
  const cx = x + w / 2;
  const bar = Math.max(1, Math.round((w - 12) * share));
  return `<g class="block g-${esc(block.group)}" data-block="${esc(block.block)}" tabindex="0" role="button">` +
    `<title>${esc(blockName(block))}</title>` +
    `<rect class="box" x="${x}" y="${y}" width="${w}" height="${BOX_H}" rx="6"/>` +
    `<text class="bname" x="${cx}" y="${y + 18}" text-anchor="middle">${nameSVG(block.name)}</text>` +
    `<text class="bshape" x="${cx}" y="${y + 34}" text-anchor="middle">${esc(shape(block.right))}</text>` +
    `<text class="bnum" x="${cx}" y="${y + 51}" text-anchor="middle" data-value="params">${esc(paramsText(block))}</text>` +
    `<text class="bnum" x="${cx}" y="${y + 67}" text-anchor="middle" data-value="flops_training">${esc(si(block.flops_training, 'FLOP'))}</text>` +
    `<rect class="bar" x="${x + 6}" y="${y + BOX_H - 5}" width="${bar}" height="3"/></g>`;
}

// A row of boxes spread over the branch's width.
function rowSVG(blocks, y, total) {
  const n = blocks.length;
  const w = Math.min(150, (RIGHT - LEFT - GAP * (n - 1)) / n);
  const start = LEFT + (RIGHT - LEFT - (n * w + (n - 1) * GAP)) / 2;
  return blocks.map((b, i) => boxSVG(b, Math.round(start + i * (w + GAP)), y, Math.floor(w), total ? b.flops_training / total : 0)).join('');
}

function pillSVG(text, y, cls = 'op', title = '') {
  const w = Math.max(64, text.length * 7.5 + 24);
  const cx = (LEFT + RIGHT) / 2;
  return `<g class="${cls}">${title ? `<title>${esc(title)}</title>` : ''}<rect x="${cx - w / 2}" y="${y}" width="${w}" height="22" rx="11"/>` +
    `<text x="${cx}" y="${y + 15}" text-anchor="middle">${esc(text)}</text></g>`;
}

// One branch (attention or MLP): out of the residual stream, through a norm and its rows of
// blocks, back into the stream at a (+). Returns { svg, bottom }.
function branchSVG(label, rows, top, total) {
  const mid = (LEFT + RIGHT) / 2;
  const parts = [];
  let y = top + 8;
  const items = [];
  items.push(pillSVG('norm', y, 'op norm', 'a D-wide norm (pre-norm: the branch reads norm(x))'));
  y += 22 + 14;
  for (const row of rows) {
    if (row.pill) {
      items.push(pillSVG(row.pill, y, 'op', row.title));
      y += 22 + 14;
    } else {
      items.push(rowSVG(row.blocks, y, total));
      y += BOX_H + 14;
    }
  }
  const end = y + 4;
  parts.push(`<path class="flow" d="M${RES_X},${top} H${mid} V${end} H${RES_X + 9}"/>`,
    `<text class="branch-label" x="${LEFT - 2}" y="${top - 5}">${esc(label)}</text>`,
    ...items,
    `<g class="add"><circle cx="${RES_X}" cy="${end}" r="9"/><text x="${RES_X}" y="${end + 4.5}" text-anchor="middle">+</text></g>`);
  return { svg: parts.join(''), bottom: end + 9 };
}

// The layer, top to bottom: attention (norm, projections, dot products, output projection)
// then the MLP (norm, up-projections, gate, down-projection), each added back to the stream.
export function layerSVG(result, values = {}) {
  const blocks = result.blocks ?? [];
  const by = (ids) => blocks.filter((b) => ids.includes(b.block));
  const total = blocks.reduce((s, b) => s + b.flops_training, 0);
  const projections = blocks.filter((b) => b.group === 'attention' && b.block !== 'o');
  const projRows = [];
  for (let i = 0; i < projections.length; i += 3) projRows.push({ blocks: projections.slice(i, i + 3) });
  const mask = values.causal === 'yes' ? 'causal mask, softmax over S' : 'mask, softmax over S';
  const attention = branchSVG('attention', [
    ...projRows,
    { blocks: by(['qk']) },
    { pill: mask, title: 'elementwise work, O(BTSN): not counted in the FLOPs' },
    { blocks: by(['av']) },
    { blocks: by(['o']) },
  ], 36, total);
  const ups = blocks.filter((b) => b.group === 'mlp' && b.block !== 'out');
  const gate = values.gated === 'no' ? '\u03c3(\u00b7)' : '\u03c3(in1) \u2299 in2';
  const mlp = branchSVG('MLP', [
    { blocks: ups },
    { pill: gate, title: 'elementwise, O(BTF): not counted in the FLOPs' },
    { blocks: by(['out']) },
  ], attention.bottom + 26, total);
  const height = mlp.bottom + 34;
  const head = `<text class="stream" x="${RES_X - 6}" y="14">x ${esc(shape('B,T,D'))}: the residual stream</text>`;
  const foot = `<text class="stream" x="${RES_X - 6}" y="${height - 8}">to the next layer (${esc(values.L ?? 'L')} layers in all)</text>`;
  return `<svg class="layer" viewBox="0 0 ${W} ${height}" role="group" aria-label="one Transformer layer, pre-norm">` +
    `<line class="stream-line" x1="${RES_X}" y1="20" x2="${RES_X}" y2="${height - 22}"/>` +
    `${head}${attention.svg}${mlp.svg}${foot}</svg>`;
}

// --- totals ------------------------------------------------------------------------------

function item(name, label, text, title = '') {
  return `<div class="out"${title ? ` title="${esc(title)}"` : ''}><dt>${esc(label)}</dt><dd data-output="${esc(name)}">${esc(text)}</dd></div>`;
}

export function totalsHTML(r, values = {}) {
  const moe = r.params_active !== r.params;
  const parts = [
    item('attention', 'attention', `${r.attention}, G = ${formatValue(r.G, '', 'num')}`, 'MHA: K = N; GQA: K divides N; MQA: K = 1; MLA: latent'),
    item('params', 'parameters', countText(r.params)),
    moe ? item('params_active', 'active per token', countText(r.params_active)) : '',
    item('params_attention', 'attention projections', countText(r.params_attention)),
    item('params_mlp', moe ? 'MLPs (every expert)' : 'MLPs', countText(r.params_mlp)),
    item('params_embedding', 'embeddings', countText(r.params_embedding)),
    item('flops_forward', 'forward FLOPs per token', si(r.flops_forward, 'FLOP')),
    item('flops_training', 'training FLOPs per token', si(r.flops_training, 'FLOP'), '3x forward: the backward pass costs twice the forward'),
    item('flops_6p', `6 \u00d7 ${moe ? 'active ' : ''}params`, si(r.flops_6p, 'FLOP'), 'the rule of thumb, which leaves out dot-product attention'),
    item('flops_step_training', 'training FLOPs for B\u00b7T tokens', si(r.flops_step_training, 'FLOP')),
    item('flops_training_remat', `training FLOPs per token, remat ${values.remat ?? 'none'}`, si(r.flops_training_remat, 'FLOP'), 'with the recomputation the remat policy needs in the backward pass'),
    item('activation_bytes', 'activations saved for B\u00b7T tokens', si(r.activation_bytes, 'B'), 'what backpropagation keeps under the remat policy, all layers'),
    item('attention_share', 'attention\u2019s share of layer FLOPs', `${formatValue(100 * r.attention_share, '', 'num')}%`),
    item('crossover_matmuls', 'attention overtakes the matmuls at T =', tokensText(r.crossover_matmuls)),
    item('kv_bytes_per_token', 'KV cache per token', si(r.kv_bytes_per_token, 'B')),
    item('kv_cache_bytes', 'KV cache for B sequences of T', si(r.kv_cache_bytes, 'B')),
  ];
  return `<dl class="outputs totals">${parts.join('')}</dl>`;
}

// --- the attention-share plot -------------------------------------------------------------

const PW = 400;
const PH = 210;
const PM = { left: 42, right: 18, top: 12, bottom: 38 }; // right: room for the 1M label

export function sharePlotSVG({ points, crossover }, current = null) {
  const area = plotArea(PW, PH, PM);
  const { left, right, top, bottom, w } = area;
  const lx = logAxis([SWEEP_MIN, SWEEP_MAX], [left, right]);
  const ly = linearAxis([0, 1], [bottom, top]);
  const parts = [ticksSVG(lx, lx.ticks(), { side: 'bottom', edge: bottom, across: [top, bottom], gap: 15, label: tokensText }),
    ticksSVG(ly, ly.ticks(4), { side: 'left', edge: left, across: [left, right], gap: 5, label: (s) => `${Math.round(s * 100)}%` })];
  const d = points.map(([t, s], i) => `${i ? 'L' : 'M'}${lx(t)},${ly(s)}`).join(' ');
  parts.push(frameSVG(area), `<path class="curve" d="${d}"/>`);
  if (crossover >= SWEEP_MIN && crossover <= SWEEP_MAX) {
    const x = lx(crossover);
    const anchor = x > left + w * 0.7 ? 'end' : 'start';
    parts.push(`<line class="cross" x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" data-crossover="${Math.round(crossover)}"/>` +
      `<text class="cross-label" x="${anchor === 'end' ? x - 5 : x + 5}" y="${top + 14}" text-anchor="${anchor}">T = ${tokensText(crossover)}</text>`);
  } else {
    const where = crossover < SWEEP_MIN ? 'crossover below 1k' : `crossover at T = ${tokensText(crossover)}`;
    parts.push(`<text class="cross-label" x="${left + 6}" y="${top + 14}">${esc(where)}</text>`);
  }
  if (current && current.T >= SWEEP_MIN && current.T <= SWEEP_MAX) {
    parts.push(`<circle class="now" cx="${lx(current.T)}" cy="${ly(current.share)}" r="4.5"><title>T = ${esc(tokensText(current.T))}: ${esc(formatValue(100 * current.share, '', 'num'))}%</title></circle>`);
  }
  parts.push(`<text class="axis-title" x="${left + w / 2}" y="${PH - 4}" text-anchor="middle">context length T (tokens, log scale)</text>`);
  return `<svg class="share" viewBox="0 0 ${PW} ${PH}" role="img" aria-label="dot-product attention's share of the layer FLOPs against context length">${parts.join('')}</svg>`;
}

// --- the form ------------------------------------------------------------------------------

function fieldHTML(name, spec, value, error, note = '') {
  const id = `tf-${name}`;
  const invalid = error?.field === name;
  const unit = spec?.unit && !['', 'tokens'].includes(spec.unit) ? ` <span class="unit">(${esc(spec.unit)})</span>` : '';
  const common = `id="${id}" name="${esc(name)}" aria-describedby="${id}-err"${invalid ? ' aria-invalid="true"' : ''}`;
  let control;
  if (spec?.type === 'choice') {
    const choices = spec.choices.filter((c) => c !== '');
    control = `<select ${common}>${choices.map((c) => `<option value="${esc(c)}"${c === value ? ' selected' : ''}>${esc(c)}</option>`).join('')}</select>`;
  } else {
    control = `<input ${common} type="text" inputmode="numeric" autocomplete="off" spellcheck="false" value="${esc(value)}">`;
  }
  const title = [spec?.description, note].filter(Boolean).join(' \u2014 ');
  return `<div class="field" data-field="${esc(name)}"><label for="${id}" title="${esc(title)}">${esc(name)}${unit}</label>${control}` +
    `<span class="error" id="${id}-err" data-error-for="${esc(name)}">${invalid ? esc(error.message) : ''}</span></div>`;
}

// The whole shadow body: the form, the picture with its detail, the totals and the plot.
// values: the form's strings (formValues); result/curve: the engine's (null on an error).
export function transformerHTML({ models, schema, values, result, curve, error = null }) {
  const specs = Object.fromEntries(schema.inputs.map((i) => [i.name, i]));
  const preset = presetOf(models, values.model);
  const note = (name) => preset?.fields.find((f) => f.name === name)?.note ?? '';
  const options = [...models.map((m) => [m.id, m.name]), ['custom', 'custom (your own shapes)']]
    .map(([id, name]) => `<option value="${esc(id)}"${id === values.model ? ' selected' : ''}>${esc(name)}</option>`).join('');
  const presetField = `<div class="field wide" data-field="model"><label for="tf-model">model</label>` +
    `<select id="tf-model" name="model" aria-describedby="tf-model-err">${options}</select>` +
    `<span class="error" id="tf-model-err" data-error-for="model">${error?.field === 'model' ? esc(error.message) : ''}</span></div>`;
  const fields = (names) => names.map((n) => fieldHTML(n, specs[n], values[n] ?? '', error, note(n))).join('');
  const known = new Set(ALL_FIELDS);
  const general = error && !known.has(error.field) ? error.message : '';
  const moreOpen = error && MORE_FIELDS.includes(error.field);
  const body = result ? bodyHTML(result, curve, values) : '';
  return `<form class="sb-transformer" novalidate>` +
    `<div class="fields">${presetField}${fields(RUN_FIELDS)}</div>` +
    `<div class="fields shape">${fields(SHAPE_FIELDS)}</div>` +
    `<details class="more"${moreOpen ? ' open' : ''}><summary>More shape fields (embeddings, norms, experts, latent attention)</summary>` +
    `<div class="fields shape">${fields(MORE_FIELDS)}</div></details>` +
    `<p class="error general" data-error-for="">${esc(general)}</p>` +
    `<div class="tf-body${error ? ' stale' : ''}" data-body>${body}</div></form>`;
}

export function bodyHTML(result, curve, values) {
  const current = { T: Number(values.T), share: result.attention_share };
  return '<div class="tf-layout">' +
    `<div class="tf-picture"><div class="picture" data-layer>${layerSVG(result, values)}</div>` +
    `<div class="detail" data-detail aria-live="polite">${blockDetailHTML(null)}</div></div>` +
    '<div class="tf-side"><h4 class="results">Totals</h4>' +
    `<div data-totals>${totalsHTML(result, values)}</div>` +
    '<h4 class="results">Attention\u2019s share of the layer FLOPs</h4>' +
    `<div class="plot" data-plot>${curve ? sharePlotSVG(curve, current) : ''}</div>` +
    '<p class="legend">Dot-product attention\u2019s FLOPs over the layers\u2019 (MLP, projections and attention), as the engine counts them at each context length. Dashed: where attention equals the matmuls (50%); the dot marks this T.</p></div></div>';
}
