// <sb-inference-frontier>'s picture beside the calculator form: every decode step it tried as a
// point, per-token latency across and tokens per second per chip up, one colour and shape per
// slice (named in a text key), points that do not fit in HBM hollow, the Pareto front as a line,
// the pick ringed and the latency target, when one is given, a dashed line. The points are the
// options of a listbox, reached with the arrow keys from the one in the tab order (a roving
// tabindex); pointing at or focusing one writes its numbers under the plot. Pure: runs in the
// builder and the browser; every number comes from the engine's inference-frontier result.
import { si, displayText, primeTexts } from '../core/format.js';
import { logAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead, registerOwnTables, tableRowsHTML, unitHTML } from '../core/render.js';

export const FRONTIER_LEAD = ['pick', 'pick_latency', 'pick_throughput', 'pick_cost', 'fastest_latency', 'target_miss', 'front_points', 'fitting'];
registerLead('inference-frontier', FRONTIER_LEAD);
// The points table is drawn here, under the plot, and only when opened: 512 rows of 15 columns
// were 30 of a chapter's 73 kB (brotli) drawn into every page by the generic renderer.
registerOwnTables('inference-frontier', ['points']);

const WIDTH = 640;
const HEIGHT = 400;
const MARGIN = { left: 78, right: 20, top: 34, bottom: 56 };
const R = 5;
const SHAPES = ['circle', 'square', 'triangle', 'diamond'];
const COLOURS = 8; // classes s0..s7 in the sheet, light and dark

// The slices in the order the table lists them, each with its colour class and shape: slices
// past the eighth colour take the next shape, so no two of the (at most 16) look alike.
export function slicesOf(points) {
  const names = [...new Set(points.map((p) => p.shape))];
  return names.map((name, i) => ({ name, colour: `s${i % COLOURS}`, shape: SHAPES[(i + Math.floor(i / COLOURS)) % SHAPES.length] }));
}

// The point the engine picked: the one with its latency and throughput, to the bit.
export function pickIndex(result) {
  return (result?.points ?? []).findIndex((p) => p.t_per_token === result.pick_latency && p.tokens_per_s_per_chip === result.pick_throughput);
}

// What one point says when pointed at or focused.
export function pointWords(p) {
  return `Slice ${p.shape}, tp ${displayText(p.tp)}, batch ${displayText(p.batch)}: ` +
    `${si(p.t_per_token, 's')} a token, ${si(p.tokens_per_s_per_chip, 'tokens/s')} per chip, ${si(p.cost_per_million, 'USD')} per million tokens. ` +
    `Step parts: KV loading ${si(p.t_kv_load, 's')}, weight loading ${si(p.t_weight_load, 's')}, FLOPs ${si(p.t_flops, 's')}, ` +
    `collectives ${si(p.t_collectives, 's')}; bound by ${p.bound}. ` +
    `${p.fits === 'yes' ? 'Fits' : 'Does not fit'} in HBM (${si(p.hbm_used, 'B')} a chip)${p.front === 'yes' ? '; on the Pareto front' : ''}.`;
}

// Its name in the list: short, so 512 of them weigh little; the focused one says it all.
const shortName = (p) => `${p.shape}, batch ${displayText(p.batch)}`;

function markerSVG(shape, x, y, r) {
  const f = (v) => Math.round(v * 10) / 10;
  if (shape === 'circle') return ['circle', `cx="${x}" cy="${y}" r="${r}"`];
  if (shape === 'square') return ['rect', `x="${f(x - r * 0.9)}" y="${f(y - r * 0.9)}" width="${f(r * 1.8)}" height="${f(r * 1.8)}"`];
  if (shape === 'triangle') return ['polygon', `points="${x},${f(y - r * 1.15)} ${f(x + r)},${f(y + r * 0.7)} ${f(x - r)},${f(y + r * 0.7)}"`];
  return ['polygon', `points="${x},${f(y - r * 1.2)} ${f(x + r * 1.2)},${y} ${x},${f(y + r * 1.2)} ${f(x - r * 1.2)},${y}"`];
}

// The pixel position of every point, for the drawing and for the pointer's nearest point.
export function layout(result) {
  const points = result?.points ?? [];
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  if (!points.length) return { area, points: [], x: null, y: null };
  const xs = points.map((p) => p.t_per_token).filter((v) => v > 0);
  const ys = points.map((p) => p.tokens_per_s_per_chip).filter((v) => v > 0);
  const x = logAxis([Math.min(...xs) / 1.2, Math.max(...xs) * 1.2], [area.left, area.right]);
  const y = logAxis([Math.min(...ys) / 1.3, Math.max(...ys) * 1.3], [area.bottom, area.top]);
  return { area, x, y, points: points.map((p) => [x(p.t_per_token), y(p.tokens_per_s_per_chip)]) };
}

function ticksOf(axis) {
  const t = axis.ticks(1);
  return t.length > 5 ? axis.ticks(2) : t;
}

export function scatterSVG(result, target = null) {
  const points = result?.points ?? [];
  const title = 'Tokens per second per chip against per-token latency, every slice and batch';
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" class="frontier-plot" role="group" aria-label="${esc(title)}">`;
  const { area, x, y, points: at } = layout(result);
  if (!points.length) return `${open}</svg>`;
  const { left, right, top, bottom, w } = area;
  const slices = slicesOf(points);
  const bySlice = new Map(slices.map((s) => [s.name, s]));
  const pick = pickIndex(result);
  const parts = [
    ticksSVG(x, ticksOf(x), { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => si(v, 's') }),
    ticksSVG(y, ticksOf(y), { side: 'left', edge: left, across: [left, right], label: (v) => si(v) }), // the unit is in the axis title
  ];
  const [x0, x1] = x.scale.domain();
  if (Number.isFinite(target) && target > x0 && target < x1) {
    parts.push(`<g class="target" data-target><line x1="${x(target)}" y1="${top}" x2="${x(target)}" y2="${bottom}" stroke-dasharray="6 4"/>` +
      `<text x="${x(target) + 5}" y="${top + 14}" fill="currentColor" class="small">target ${esc(si(target, 's'))}</text></g>`);
  }
  const front = points.map((p, i) => [p, at[i]]).filter(([p]) => p.front === 'yes').sort((a, b) => a[0].t_per_token - b[0].t_per_token);
  const options = points.map((p, i) => {
    const s = bySlice.get(p.shape);
    const [tag, geometry] = markerSVG(s.shape, at[i][0], at[i][1], R);
    const cls = `pt ${s.colour}${p.fits === 'yes' ? '' : ' out'}${p.front === 'yes' ? ' on-front' : ''}`;
    const name = i === pick || (pick < 0 && i === 0) ? pointWords(p) : shortName(p);
    return `<${tag} class="${cls}" data-i="${i}" ${geometry} role="option" aria-selected="${i === pick}" tabindex="${i === pick || (pick < 0 && i === 0) ? 0 : -1}" aria-label="${esc(name)}"/>`;
  });
  parts.push(`<g class="points" role="listbox" aria-label="${esc(`${displayText(points.length)} points; the arrow keys move along a slice's batches (Left, Right) and between slices (Up, Down)`)}">${options.join('')}</g>`);
  // The front over the points, so the points under it do not hide it; the pointer passes through.
  if (front.length) parts.push(`<path class="front" data-front d="${front.map(([, [px, py]], i) => `${i ? 'L' : 'M'}${px},${py}`).join(' ')}" fill="none"/>`);
  if (pick >= 0) {
    const [px, py] = at[pick];
    parts.push(`<circle class="pick-ring" data-pick cx="${px}" cy="${py}" r="${R * 2.2}"/>` +
      `<text class="small pick-label" x="${px}" y="${Math.max(top + 12, py - R * 3)}" text-anchor="middle" fill="currentColor">pick</text>`);
  }
  parts.push('<circle class="focus-ring" data-ring r="9" cx="0" cy="0"/>', frameSVG(area),
    `<text class="axis-title" x="${left + w / 2}" y="${HEIGHT}" dy="-0.4em" text-anchor="middle" fill="currentColor">latency per token</text>`,
    `<text class="axis-title" x="8" y="${top - 14}" fill="currentColor">tokens/s per chip</text>`);
  return `${open}${parts.join('')}</svg>`;
}

function swatch(colour, shape, out = false) {
  const [tag, geometry] = markerSVG(shape, 8, 8, 5);
  return `<svg class="swatch" viewBox="0 0 16 16" aria-hidden="true"><${tag} class="pt ${colour}${out ? ' out' : ''}" ${geometry}/></svg>`;
}

// The key, in the page's text: each slice by name and shape (not by colour alone), then the marks.
function keyHTML(result, target) {
  const slices = slicesOf(result.points);
  const items = slices.map((s) => `<li>${swatch(s.colour, s.shape)}${esc(`slice ${s.name}: ${s.shape}s`)}</li>`);
  items.push(`<li>${swatch('s0', 'circle', true)}hollow: does not fit in HBM</li>`,
    '<li><svg class="swatch" viewBox="0 0 28 16" aria-hidden="true"><path class="front" d="M1,12 L27,4"/></svg>the Pareto front</li>',
    '<li><svg class="swatch" viewBox="0 0 16 16" aria-hidden="true"><circle class="pick-ring" cx="8" cy="8" r="6"/></svg>the pick</li>');
  if (Number.isFinite(target)) items.push('<li><svg class="swatch" viewBox="0 0 16 16" aria-hidden="true"><line class="target-key" x1="8" y1="0" x2="8" y2="16"/></svg>the latency target</li>');
  return `<ul class="legend">${items.join('')}</ul>`;
}

// `values`: the inputs as given (the builder's settings, the element's fields), for the target.
export function frontierExtrasHTML(result, values = {}) {
  if (!result) return '<div class="inference-extras inference-panel" data-extras></div>';
  const target = values?.target_latency === undefined || values.target_latency === '' ? NaN : Number(values.target_latency);
  primeTexts((result.points ?? []).flatMap((p) => [[p.tp, ''], [p.batch, '']]));
  const pick = pickIndex(result);
  const first = pick >= 0 ? result.points[pick] : result.points?.[0];
  return '<div class="inference-extras inference-panel" data-extras>' +
    '<h4 class="results">Latency against throughput</h4>' +
    `<div class="plot frontier">${scatterSVG(result, target)}</div>` +
    `<p class="readout" data-readout-text>${first ? esc(pointWords(first)) : ''}</p>${keyHTML(result, target)}` +
    `<details class="fold" data-fold="points"><summary>Every point tried (${esc(displayText(result.points?.length ?? 0))})</summary>` +
    '<div data-points-box></div></details></div>';
}

// The points table, for the schema's `table` (its columns' labels and units) and the result's rows.
export function pointsTableHTML(table, rows) {
  const head = table.columns.map((c) => `<th scope="col" title="${esc(c.description)}">${esc(c.label || c.name)}${unitHTML(c.label || c.name, c.unit)}</th>`).join('');
  return `<div class="table-box" tabindex="0" role="region" aria-label="${esc(table.description)}">` +
    `<table class="result-table" data-table="${esc(table.name)}"><thead><tr>${head}</tr></thead><tbody>${tableRowsHTML(table, rows)}</tbody></table></div>`;
}
