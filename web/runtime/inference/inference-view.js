// <sb-inference>'s pictures beside the calculator form: the step's time as one stacked bar
// (attention, weight matmuls, collectives, each the larger of its memory and compute time), the
// HBM of one chip (weights and KV cache against its capacity, over it in red), and, when the
// form asks for a list of batches, step time and throughput against the batch. Pure: runs in
// the builder and the browser; every number comes from the engine's inference result.
import { si, displayText } from '../core/format.js';
import { logAxis, linearAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead } from '../core/render.js';

// The step's answer first; the model-parallel limits and the crossovers fold away.
export const INFERENCE_LEAD = ['t_step', 'bound', 't_per_token', 'tokens_per_s_per_chip', 'hbm_used', 'fits', 'max_batch', 'cost_per_million'];
registerLead('inference', INFERENCE_LEAD);

const SPAN = 640; // the bars' viewBox width; they stretch to the column
const BAR = 32;

function key(items) {
  return `<ul class="legend">${items.map(({ cls, words }) =>
    `<li data-part="${cls}"><svg class="swatch" viewBox="0 0 14 14" aria-hidden="true"><rect class="part ${cls}" width="14" height="14"/></svg>` +
    `<span>${esc(words)}</span></li>`).join('')}</ul>`;
}

// One bar of parts [{cls, value}] over a total `span` (in the parts' unit), with an optional
// dashed line at `limit`. Its words are in the page's text (the caption and the key).
function barSVG(parts, span, limit = null) {
  let x = 0;
  const rects = parts.map(({ cls, value }) => {
    const w = Math.max(0, (SPAN * value) / span);
    const rect = `<rect class="part ${cls}" data-part="${cls}" x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="${BAR}"/>`;
    x += w;
    return rect;
  }).join('');
  const line = limit === null ? '' : `<line class="limit" x1="${((SPAN * limit) / span).toFixed(1)}" y1="-4" x2="${((SPAN * limit) / span).toFixed(1)}" y2="${BAR + 4}" vector-effect="non-scaling-stroke"/>`;
  return `<svg class="bar" xmlns="http://www.w3.org/2000/svg" viewBox="0 -4 ${SPAN} ${BAR + 8}" preserveAspectRatio="none" aria-hidden="true">${rects}` +
    `<rect class="outline" x="0" y="0" width="${SPAN}" height="${BAR}" fill="none" stroke="currentColor" vector-effect="non-scaling-stroke"/>${line}</svg>`;
}

// The step: attention is max(KV loading, attention FLOPs), the weight matmuls max(weight
// loading, matmul FLOPs); the collectives add on top (the engine's t_step is their sum).
export function stepParts(r) {
  return [
    { cls: 'attention', value: r.t_attention, words: `Attention ${si(r.t_attention, 's')}: the larger of KV-cache loading ${si(r.t_kv_load, 's')} and its FLOPs ${si(r.t_attention_flops, 's')}` },
    { cls: 'matmul', value: r.t_matmul, words: `Weight matmuls ${si(r.t_matmul, 's')}: the larger of weight loading ${si(r.t_weight_load, 's')} and their FLOPs ${si(r.t_flops, 's')}` },
    { cls: 'collectives', value: r.t_collectives, words: `Collectives ${si(r.t_collectives, 's')}` },
  ];
}

export function stepHTML(r) {
  const parts = stepParts(r);
  return '<div class="step" data-step>' +
    `<p class="caption" data-step-caption>Step time <strong>${esc(si(r.t_step, 's'))}</strong>, bound by ${esc(r.bound)}</p>` +
    `${barSVG(parts, r.t_step || 1)}${key(parts)}</div>`;
}

// One chip's HBM: weights, then the KV cache, against its capacity. Past it, the bar spans what
// is used, the capacity is a line across it and the excess is red.
export function hbmHTML(r) {
  const over = r.fits !== 'yes';
  const span = Math.max(r.hbm_used, r.hbm_capacity) || 1;
  const inside = Math.max(0, r.hbm_capacity - r.weight_bytes_per_chip);
  const parts = over
    ? [{ cls: 'weights', value: Math.min(r.weight_bytes_per_chip, r.hbm_capacity) }, { cls: 'kv', value: Math.min(r.kv_bytes_per_chip, inside) },
      { cls: 'over', value: r.hbm_over }]
    : [{ cls: 'weights', value: r.weight_bytes_per_chip }, { cls: 'kv', value: r.kv_bytes_per_chip }, { cls: 'free', value: r.hbm_capacity - r.hbm_used }];
  const words = [
    { cls: 'weights', words: `Weights ${si(r.weight_bytes_per_chip, 'B')}` },
    { cls: 'kv', words: `KV cache ${si(r.kv_bytes_per_chip, 'B')}` },
    over ? { cls: 'over', words: `Over the chip's HBM by ${si(r.hbm_over, 'B')}` } : { cls: 'free', words: `Free ${si(r.hbm_capacity - r.hbm_used, 'B')}` },
  ];
  const verdict = over ? `<strong class="over-text">does not fit: over by ${esc(si(r.hbm_over, 'B'))}</strong>` : 'fits';
  return `<div class="hbm${over ? ' is-over' : ''}" data-hbm>` +
    `<p class="caption" data-hbm-caption>HBM per chip: ${esc(si(r.hbm_used, 'B'))} used of ${esc(si(r.hbm_capacity, 'B'))}, ${verdict}</p>` +
    `${barSVG(parts, span, over ? r.hbm_capacity : null)}${key(words)}</div>`;
}

const W = 320;
const H = 230;
const M = { left: 62, right: 14, top: 30, bottom: 46 };

// One small chart of `field` against the batch, log x, its ticks in `unit` ('' where the title
// carries it); rows that do not fit in HBM hollow.
function batchChartSVG(rows, field, unit, title) {
  const area = plotArea(W, H, M);
  const { left, right, top, bottom, w } = area;
  const bs = rows.map((row) => row.batch);
  const lo = Math.min(...bs);
  const hi = Math.max(...bs);
  const x = logAxis(lo === hi ? [lo / 2, hi * 2] : [lo, hi], [left + 8, right - 8]);
  const y = linearAxis([0, Math.max(...rows.map((row) => row[field])) * 1.1 || 1], [bottom, top]);
  const yt = y.ticks(4);
  const xt = x.ticks(1);
  // The points carry no hover text: the table below holds every row's numbers for every reader.
  const points = rows.map((row) => `<circle class="pt${row.fits === 'yes' ? '' : ' out'}" cx="${x(row.batch)}" cy="${y(row[field])}" r="5"/>`);
  const line = rows.map((row, i) => `${i ? 'L' : 'M'}${x(row.batch)},${y(row[field])}`).join(' ');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>` +
    ticksSVG(x, xt.length ? xt : bs, { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => displayText(v) }) +
    ticksSVG(y, yt, { side: 'left', edge: left, across: [left, right], label: (v) => si(v, unit) }) +
    `<path class="curve" d="${line}" fill="none"/>${points.join('')}${frameSVG(area)}` +
    `<text class="axis-title" x="${left + w / 2}" y="${H}" dy="-0.4em" text-anchor="middle" fill="currentColor">batch (sequences)</text>` +
    `<text class="axis-title" x="6" y="${top - 12}" fill="currentColor">${esc(title)}</text></svg>`;
}

export function batchesHTML(r) {
  const rows = (r.batches ?? []).filter((row) => row.batch > 0);
  if (!rows.length) return '';
  const out = rows.filter((row) => row.fits !== 'yes').length;
  const note = out ? `Hollow points do not fit in HBM (${displayText(out)} of ${displayText(rows.length)}).` : 'Every batch fits in HBM.';
  return '<div class="batches" data-batches><h4 class="results">Against the batch</h4>' +
    `<div class="charts"><div class="plot">${batchChartSVG(rows, 't_step', 's', 'Step time')}</div>` +
    `<div class="plot">${batchChartSVG(rows, 'tokens_per_s', '', 'Throughput, tokens/s')}</div></div>` +
    `<p class="note" data-batches-note>${esc(note)}</p></div>`;
}

export function inferenceExtrasHTML(result) {
  if (!result) return '<div class="inference-extras inference-panel" data-extras></div>';
  return '<div class="inference-extras inference-panel" data-extras>' +
    `<h4 class="results">Where the step's time goes</h4>${stepHTML(result)}` +
    `<h4 class="results">Memory</h4>${hbmHTML(result)}${batchesHTML(result)}</div>`;
}
