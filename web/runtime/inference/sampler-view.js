// <sb-sampler>'s picture: the naive and the cached loop's FLOPs so far against the tokens
// generated (log y, so the quadratic and the linear curves both read), and the cache growing,
// both from the sampler calculator's `curve` table.
import { si, displayText } from '../core/format.js';
import { logAxis, linearAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';
import { escapeHTML as esc } from '../core/escape.js';

const W = 320;
const H = 230;
const M = { left: 62, right: 14, top: 30, bottom: 46 };

function chartSVG(rows, series, y, unit, title) {
  const area = plotArea(W, H, M);
  const { left, right, top, bottom, w } = area;
  const gs = rows.map((row) => row.g);
  const hi = Math.max(...gs);
  const x = linearAxis([0, hi], [left + 4, right - 4]);
  const yAxis = y([top, bottom]);
  const lines = series.map(({ field, cls }) => {
    const d = rows.map((row, i) => `${i ? 'L' : 'M'}${x(row.g)},${yAxis(row[field])}`).join(' ');
    return `<path class="curve ${cls}" d="${d}" fill="none"/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>` +
    ticksSVG(x, x.ticks(3), { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => displayText(v) }) +
    ticksSVG(yAxis, yAxis.ticks(4), { side: 'left', edge: left, across: [left, right], label: (v) => si(v, unit) }) +
    `${lines.join('')}${frameSVG(area)}` +
    `<text class="axis-title" x="${left + w / 2}" y="${H}" dy="-0.4em" text-anchor="middle" fill="currentColor">tokens generated</text>` +
    `<text class="axis-title" x="6" y="${top - 12}" fill="currentColor">${esc(title)}</text></svg>`;
}

export function samplerExtrasHTML(r) {
  const rows = (r?.curve ?? []).filter((row) => row.g > 0);
  if (!rows.length) return '<div class="inference-extras inference-panel sampler" data-extras></div>';
  const lo = Math.min(...rows.map((row) => row.flops_cached));
  const hi = Math.max(...rows.map((row) => row.flops_naive));
  const flops = chartSVG(rows, [{ field: 'flops_naive', cls: 'naive' }, { field: 'flops_cached', cls: 'cached' }],
    (range) => logAxis([lo, hi], [range[1], range[0]]), 'FLOP', 'FLOPs so far (log scale)');
  const kv = chartSVG(rows, [{ field: 'kv_bytes', cls: 'cached' }],
    (range) => linearAxis([0, Math.max(...rows.map((row) => row.kv_bytes)) * 1.05], [range[1], range[0]]), 'B', 'KV cache');
  const last = rows[rows.length - 1];
  const words = `After ${displayText(last.g)} tokens the naive loop has done ${si(last.flops_naive, 'FLOP')}, ` +
    `the cached one ${si(last.flops_cached, 'FLOP')}; the cache holds ${si(last.kv_bytes, 'B')}.`;
  return '<div class="inference-extras inference-panel sampler" data-extras>' +
    '<h4 class="results">Both loops as the tokens come</h4>' +
    `<div class="charts"><div class="plot">${flops}</div><div class="plot">${kv}</div></div>` +
    '<ul class="legend"><li><span class="line-key naive"></span>rerun everything (naive)</li>' +
    '<li><span class="line-key cached"></span>prefill, then one token against the cache</li></ul>' +
    `<p class="note" data-sampler-note>${esc(words)}</p></div>`;
}
