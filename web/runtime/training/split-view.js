// <sb-training-split>'s pictures beside the calculator form: the strip of math over
// communication for every power-of-two FSDP x TP split with X_opt marked, the ratio against the
// batch per chip for FSDP, TP and the mix, and the communication of named splits against the
// batch. Pure: runs in the builder and the browser; every number comes from the engine's
// training-split result (its splits, curves and times tables).
import { si, formatValue } from '../core/format.js';
import { logAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead } from '../core/render.js';
import { drawWhenOpen, foldHTML, setHTML } from './fold.js';

// The optimizer's answer, drawn before its form (render.js folds its other results and its
// tables): the best split, its math over communication and its bound, and X_opt.
export const SPLIT_LEAD = ['best_x', 'best_y', 'best_ratio', 'bound', 'x_opt'];
registerLead('training-split', SPLIT_LEAD);

const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { left: 84, right: 24, top: 40, bottom: 60 };
const COLORS = ['var(--_memory, #9a5b00)', 'var(--_comm, #c62828)', 'var(--_compute, #1a7f37)', 'var(--_accent, #2557a7)',
  'var(--_fg, #222)', '#7b3fa0', '#00838f', '#6d4c41'];

const ratioText = (r) => (r === null || r === undefined ? 'no communication' : formatValue(r, '', 'num'));

function svgOpen(cls, title) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" class="${cls}" aria-label="${esc(title)}"><title>${esc(title)}</title>`;
}

// A cell's shade: compute-bound (good) or not (bad), stronger the further the ratio is from 1
// (level 1 within a factor of 1.5, level 4 beyond a factor of 10). Classes, not style
// attributes, as the strict CSP allows.
function cellClass(ratio) {
  const r = ratio ?? 1e3;
  const far = Math.abs(Math.log10(r));
  const level = far < Math.log10(1.5) ? 1 : far < Math.log10(3) ? 2 : far < 1 ? 3 : 4;
  return `${r >= 1 ? 'good' : 'bad'} lv${level}`;
}

// The strip's items in order: each split's cell, with X_opt's mark between the two splits it
// falls between. Each item is its class, its data-x and its texts, so an edit can rewrite the
// cells it keeps rather than build new ones.
function stripItems(result) {
  const rows = result?.splits ?? [];
  const items = [];
  let marked = false;
  const mark = () => ({ cls: 'xopt', x: null, texts: [`X_opt = ${formatValue(result.x_opt, '', 'num')}`] });
  for (const row of rows) {
    if (!marked && result.x_opt < row.X) { items.push(mark()); marked = true; }
    const best = row.best === 'yes';
    items.push({ cls: `cell ${cellClass(row.ratio)}${best ? ' best' : ''}`, x: String(row.X),
      texts: [`${row.X} × ${row.Y}`, ': math over comms ', ratioText(row.ratio), `, ${row.bound}-bound${best ? ', the best split' : ''}`] });
  }
  if (!marked && rows.length) items.push(mark());
  return items;
}

const CELL_SPANS = ['xy', 'visually-hidden', 'ratio', 'visually-hidden'];

function itemHTML({ cls, x, texts }) {
  if (x === null) return `<li class="${cls}">${esc(texts[0])}</li>`;
  return `<li class="${esc(cls)}" data-x="${esc(x)}">${texts.map((t, i) => `<span class="${CELL_SPANS[i]}">${esc(t)}</span>`).join('')}</li>`;
}

const stripLabel = (result) => `FSDP X × TP Y splits of ${result?.chips ?? ''} chips, each with its math over communication`;

// One cell a split, X growing along the list, wrapping onto more rows on a narrow screen, with
// X_opt's mark between the two splits it falls between. A screen reader reads each cell as its
// split, its ratio and its bound.
export function heatStripHTML(result) {
  return `<ul class="strip" aria-label="${esc(stripLabel(result))}">${stripItems(result).map(itemHTML).join('')}</ul>`;
}

// The strip redrawn in place for a new result: when it has as many items, with X_opt's mark at
// the same place (a batch edit moves the ratios, not the splits), each item keeps its nodes and
// only what changed is written; otherwise the list is drawn anew.
export function updateHeatStrip(ul, result) {
  const items = stripItems(result);
  const label = stripLabel(result);
  if (ul.getAttribute('aria-label') !== label) ul.setAttribute('aria-label', label);
  const lis = ul.children;
  const same = lis.length === items.length && items.every((item, i) =>
    (item.x === null) === lis[i].classList.contains('xopt') && (item.x === null || lis[i].children.length === item.texts.length));
  if (!same) {
    ul.innerHTML = items.map(itemHTML).join('');
    return;
  }
  items.forEach((item, i) => {
    const li = lis[i];
    if (li.className !== item.cls) li.className = item.cls;
    if (item.x === null) {
      if (li.textContent !== item.texts[0]) li.textContent = item.texts[0];
      return;
    }
    if (li.dataset.x !== item.x) li.dataset.x = item.x;
    item.texts.forEach((text, k) => {
      const span = li.children[k];
      if (span.textContent !== text) span.textContent = text;
    });
  });
}

// A log-log plot of curves [{label, points: [[x, y]], dashed}], with vertical markers
// [{at, label}] and an optional horizontal line at y = 1. Every point can be read: pointing at
// the plot or moving along it with the arrow keys shows the nearest one (core/readout.js),
// from the points listed on one focusable layer, not from a node per point, so a redraw
// creates a few dozen nodes rather than hundreds.
function logPlotSVG({ cls, title, xTitle, yTitle, xUnit, yUnit, curves, markers = [], unity = false }) {
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  const { left, right, top, bottom, w } = area;
  const xsAll = curves.flatMap((c) => c.points.map((p) => p[0])).filter((v) => v > 0);
  const ysAll = curves.flatMap((c) => c.points.map((p) => p[1])).filter((v) => v > 0 && Number.isFinite(v));
  if (!xsAll.length || !ysAll.length) return `${svgOpen(cls, title)}</svg>${legendHTML(curves)}`;
  const x = logAxis([Math.min(...xsAll), Math.max(...xsAll)], [left, right]);
  const ylo = Math.min(...ysAll, unity ? 0.5 : Infinity) / 1.5;
  const yhi = Math.max(...ysAll, unity ? 2 : 0) * 1.5;
  const y = logAxis([ylo, yhi], [bottom, top]);
  const xt = x.ticks(1);
  const yt = y.ticks(y.ticks(1).length > 6 ? 2 : 1);
  const points = [];
  const parts = [ticksSVG(x, xt, { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => si(v, xUnit), minor: (_, i) => xt.length > 4 && i % 2 === 1 }),
    ticksSVG(y, yt, { side: 'left', edge: left, across: [left, right], label: (v) => si(v, yUnit) })];
  if (unity) {
    parts.push(`<line class="unity" x1="${left}" y1="${y(1)}" x2="${right}" y2="${y(1)}" stroke="currentColor" stroke-dasharray="6 4"/>` +
      `<text x="${right - 6}" y="${y(1) - 6}" text-anchor="end" fill="currentColor">compute-bound above</text>`);
  }
  for (const m of markers) {
    if (!(m.at > x.scale.domain()[0] && m.at < x.scale.domain()[1])) continue;
    parts.push(`<g class="marker"><line x1="${x(m.at)}" y1="${top}" x2="${x(m.at)}" y2="${bottom}" stroke="currentColor" stroke-opacity="0.6" stroke-dasharray="2 3"/>` +
      `<text x="${x(m.at) + 4}" y="${top + 14 + 18 * (m.row ?? 0)}" fill="currentColor" class="marker-label">${esc(m.label)}</text></g>`);
  }
  curves.forEach((curve, i) => {
    const color = COLORS[i % COLORS.length];
    const pts = curve.points.filter(([a, b]) => a > 0 && b > 0 && Number.isFinite(b));
    if (!pts.length) return;
    const d = pts.map(([a, b], k) => `${k ? 'L' : 'M'}${x(a)},${y(b)}`).join(' ');
    parts.push(`<path class="curve" data-label="${esc(curve.label)}" d="${d}" fill="none" stroke="${color}" stroke-width="2.5"${curve.dashed ? ' stroke-dasharray="7 4"' : ''}/>`);
    for (const [a, b] of pts) points.push([Math.round(x(a) * 10) / 10, Math.round(y(b) * 10) / 10, `${curve.label}: ${si(b, yUnit)} at ${si(a, xUnit)}`]);
  });
  parts.push(frameSVG(area),
    `<text class="axis-title" x="${left + w / 2}" y="${HEIGHT}" dy="-0.25em" text-anchor="middle" fill="currentColor">${esc(xTitle)}</text>`,
    `<text class="axis-title" x="8" y="${top - 14}" fill="currentColor">${esc(yTitle)}</text>`,
    readoutLayerSVG(area, points, title));
  return `${svgOpen(cls, title)}${parts.join('')}</svg>${legendHTML(curves)}<p class="readout" data-readout-text aria-live="polite"></p>`;
}

// The layer the reader points at or tabs to, with every point as [x, y, words] in the plot's
// coordinates, and the mark it moves to the point read.
function readoutLayerSVG({ left, top, w, h }, points, title) {
  return '<circle class="readout-mark" data-readout-mark r="6" cx="0" cy="0"/>' +
    `<rect class="readout-layer" x="${left}" y="${top}" width="${w}" height="${h}" fill="transparent" tabindex="0" ` +
    `role="group" aria-label="${esc(`${title}: point at it, or use the arrow keys, to read its points`)}" ` +
    `data-readout="${esc(JSON.stringify(points))}"/>`;
}

// The key under a plot, in the page's text so it wraps and grows on a phone: a line sample
// in each curve's colour (and dash) before its label.
function legendHTML(curves) {
  const items = curves.map((curve, i) => `<li><svg class="swatch" viewBox="0 0 28 10" aria-hidden="true">` +
    `<line x1="1" y1="5" x2="27" y2="5" stroke="${COLORS[i % COLORS.length]}" stroke-width="3"${curve.dashed ? ' stroke-dasharray="7 4"' : ''}/></svg>` +
    `${esc(curve.label)}</li>`);
  return `<ul class="legend">${items.join('')}</ul>`;
}

export function ratioPlotSVG(result) {
  const rows = result?.curves ?? [];
  const curve = (key, label) => ({ label, points: rows.map((r) => [r.per_chip, r[key]]) });
  return logPlotSVG({
    cls: 'ratio-plot', title: 'Math over communication against tokens per chip, for FSDP alone, TP alone and the mix at X_opt',
    xTitle: 'tokens per chip B / N', yTitle: 'math / comms', xUnit: 'tokens', yUnit: '', unity: true,
    curves: [curve('fsdp', 'FSDP alone'), curve('tp', 'TP alone'), curve('mixed', 'FSDP x TP at X_opt')],
    markers: result ? [{ at: result.per_chip, label: 'this batch', row: 0 }, { at: result.mixed_batch, label: 'mixed threshold', row: 1 },
      { at: result.fsdp_batch, label: 'FSDP threshold', row: 2 }] : [],
  });
}

export function timePlotSVG(result) {
  const rows = result?.times ?? [];
  const names = [...new Set(rows.map((r) => r.split))];
  const curves = names.map((name) => ({ label: `${name} comms`, points: rows.filter((r) => r.split === name).map((r) => [r.B, r.t_comms]) }));
  const first = names.length ? rows.filter((r) => r.split === names[0]) : [];
  curves.push({ label: 'math', dashed: true, points: first.map((r) => [r.B, r.t_math]) });
  return logPlotSVG({
    cls: 'time-plot', title: 'Communication of each named split and the math, per layer forward, against the batch',
    xTitle: 'global batch B (tokens)', yTitle: 'time per layer', xUnit: 'tokens', yUnit: 's', curves,
    markers: result ? [{ at: result.mixed_global, label: 'mixed threshold', row: 0 }] : [],
  });
}

// The strip shows; each plot is a section a reader opens (on a phone the two were 600 px).
const PLOTS = [
  ['ratio-plot', 'Math over communication, plotted against the batch per chip', ratioPlotSVG],
  ['time-plot', 'The named splits\' communication, plotted against the batch', timePlotSVG],
];

export function splitExtrasHTML(result) {
  if (!result) return '<div class="split-extras" data-split-extras data-extras></div>';
  return '<div class="split-extras" data-split-extras data-extras>' +
    '<h4 class="results">Every power-of-two split</h4>' +
    '<p class="note">Each cell is one split, X-way FSDP by Y-way TP, with its math over its communication: green (at least 1) is compute-bound, red is not, and the best has a heavy border. X_opt sits where the two kinds of communication balance.</p>' +
    heatStripHTML(result) +
    PLOTS.map(([name, title, plot]) => foldHTML(name, title, `<div class="plot" data-plot="${name}">${plot(result)}</div>`)).join('') +
    '</div>';
}

// After each result: the strip rewritten in place, each open plot redrawn, a closed one when it
// opens (fold.js). `root`: the element's shadow root, whose extras the build or splitExtrasHTML drew.
export function updateSplitExtras(root, result) {
  const extras = root.querySelector('[data-split-extras]');
  if (!extras) return;
  const strip = extras.querySelector('.strip');
  if (!strip) {
    extras.outerHTML = splitExtrasHTML(result);
    return;
  }
  updateHeatStrip(strip, result);
  for (const [name, , plot] of PLOTS) {
    const box = extras.querySelector(`[data-plot="${name}"]`);
    drawWhenOpen(box?.closest('details'), () => setHTML(box, plot(result)));
  }
}
