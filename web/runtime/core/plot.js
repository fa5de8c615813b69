// The log-log roofline plot as an SVG string (pure: runs in the builder and in the browser).
// The axes are core/axes.js (d3-scale); every number printed on the plot comes from the
// engine result.
import { si, sci } from './format.js';
import { logAxis, ticksSVG, frameSVG, plotArea } from './axes.js';
import { escapeHTML as esc } from './escape.js';

const WIDTH = 640;
const HEIGHT = 400;
const MARGIN = { left: 70, right: 32, top: 20, bottom: 52 };
const MAX_TICKS = 8;

const positive = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;

// Whole decades around [lo, hi], at least `pad` decades of margin on each side.
function decades(lo, hi, pad) {
  return [Math.floor(Math.log10(lo) - pad), Math.ceil(Math.log10(hi) + pad)];
}

// Maps values to pixels on log axes spanning [10^x0, 10^x1] x [10^y0, 10^y1].
function makeScale([x0, x1], [y0, y1]) {
  const { left, right, top, bottom } = plotArea(WIDTH, HEIGHT, MARGIN);
  return {
    x: logAxis([10 ** x0, 10 ** x1], [left, right]),
    y: logAxis([10 ** y0, 10 ** y1], [bottom, top]),
  };
}

function roofPath(scale, roof, [xmin, xmax]) {
  const ridge = roof.peak_flops / roof.hbm_bandwidth;
  return `M${scale.x(xmin)},${scale.y(xmin * roof.hbm_bandwidth)}` +
    ` L${scale.x(ridge)},${scale.y(roof.peak_flops)} L${scale.x(xmax)},${scale.y(roof.peak_flops)}`;
}

// Decades on both axes, at most MAX_TICKS labels each, and the axis titles.
function axesSVG(scale, [x0, x1], [y0, y1]) {
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  const { left, right, top, bottom } = area;
  const xs = scale.x.ticks(Math.ceil((x1 - x0) / MAX_TICKS));
  const ys = scale.y.ticks(Math.ceil((y1 - y0) / MAX_TICKS));
  return ticksSVG(scale.x, xs, { side: 'bottom', edge: bottom, across: [top, bottom], mark: 5, label: si }) +
    ticksSVG(scale.y, ys, { side: 'left', edge: left, across: [left, right], mark: 5, label: sci }) +
    frameSVG(area) +
    `<text class="axis-title" x="${(left + right) / 2}" y="${HEIGHT - 8}" text-anchor="middle" ` +
    `fill="currentColor">arithmetic intensity (FLOP/B)</text>` +
    `<text class="axis-title" transform="translate(14 ${(top + bottom) / 2}) rotate(-90)" ` +
    `text-anchor="middle" fill="currentColor">attainable FLOP/s</text>`;
}

// Labels sit under their roof's flat part; roofs with close peaks (H100 and v6e) would print
// one label over the other, so each goes at least a line below the one above it.
function otherRoofsSVG(scale, roofs, xrange) {
  const labelY = new Map();
  let last = -Infinity;
  for (const roof of [...roofs].sort((a, b) => b.peak_flops - a.peak_flops)) {
    last = Math.max(scale.y(roof.peak_flops) + 14, last + 14);
    labelY.set(roof, last);
  }
  return roofs.map((roof) =>
    `<g class="other"><path class="other-roof" d="${roofPath(scale, roof, xrange)}" fill="none" ` +
    `stroke="currentColor" stroke-opacity="0.4" stroke-width="1.5"><title>${esc(roof.label)}: ` +
    `peak ${esc(si(roof.peak_flops, 'FLOP/s'))}, HBM ${esc(si(roof.hbm_bandwidth, 'B/s'))}</title></path>` +
    `<text class="other-label" x="${scale.x(xrange[1]) - 4}" y="${labelY.get(roof)}" ` +
    `text-anchor="end" fill="currentColor" fill-opacity="0.7">${esc(roof.label)}</text></g>`).join('');
}

function pointSVG(scale, p) {
  const x = scale.x(p.intensity);
  const y = scale.y(p.achieved_flops);
  return `<circle class="point" cx="${x}" cy="${y}" r="6" data-point-x="${x}" data-point-y="${y}" ` +
    `data-bound="${esc(p.bound)}" fill="currentColor" stroke="white" stroke-width="1.5">` +
    `<title>${esc(p.label)}: ${esc(si(p.intensity, 'FLOP/B'))}, ${esc(si(p.achieved_flops, 'FLOP/s'))}</title></circle>`;
}

// The point's label sits at the bottom right, a corner no roof crosses (roofs rise to the
// right), so it cannot collide with the lines or with the other chips' labels.
function legendSVG(p) {
  const x = WIDTH - MARGIN.right - 8;
  const y = HEIGHT - MARGIN.bottom - 52;
  return `<text class="point-label" x="${x}" y="${y}" text-anchor="end" fill="currentColor">` +
    `<tspan font-weight="600"><tspan class="legend-dot" data-bound="${esc(p.bound)}">● </tspan>` +
    `${esc(p.label)}</tspan><tspan x="${x}" dy="1.3em">${esc(si(p.intensity, 'FLOP/B'))}, ` +
    `${esc(si(p.achieved_flops, 'FLOP/s'))}</tspan></text>`;
}

// The main roof, its peak above the flat part, and the ridge: a dashed line at the critical
// intensity, labelled at the bottom left of it, where the slopes never reach.
function mainRoofSVG(scale, roof, ridge, xrange) {
  const right = scale.x(xrange[1]) - 4;
  const ridgeX = scale.x(ridge);
  const bottom = HEIGHT - MARGIN.bottom;
  return `<path class="roof" d="${roofPath(scale, roof, xrange)}" fill="none" stroke="currentColor" ` +
    `stroke-width="2.5" stroke-linejoin="round"/>` +
    `<text class="roof-label" x="${right}" y="${scale.y(roof.peak_flops) - 6}" text-anchor="end" ` +
    `fill="currentColor">peak ${esc(si(roof.peak_flops, 'FLOP/s'))}</text>` +
    `<line class="ridge" x1="${ridgeX}" y1="${MARGIN.top}" x2="${ridgeX}" y2="${bottom}" ` +
    `stroke="currentColor" stroke-dasharray="5 4"/>` +
    `<text class="ridge-label" x="${ridgeX - 5}" y="${bottom - 8}" text-anchor="end" ` +
    `fill="currentColor">critical ${esc(si(ridge, 'FLOP/B'))}</text>`;
}

function emptySVG(message) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} 80" role="img">` +
    `<title>Roofline plot: ${esc(message)}</title><text class="note" x="${WIDTH / 2}" y="40" ` +
    `text-anchor="middle" fill="currentColor">${esc(message)}</text></svg>`;
}

// Axis ranges in whole decades: x covers the point and every ridge with a decade to spare,
// y covers every roof from the left edge up to half a decade above the highest peak.
function ranges(ridges, intensity, roofs, achieved) {
  const xs = [...ridges, ...(intensity ? [intensity] : [])];
  const xdec = decades(Math.min(...xs), Math.max(...xs), 1);
  const xmin = 10 ** xdec[0];
  const ys = [...roofs.flatMap((r) => [r.peak_flops, xmin * r.hbm_bandwidth]), ...(achieved ? [achieved] : [])];
  return { xdec, ydec: decades(Math.min(...ys), Math.max(...ys), 0.5) };
}

// opts: { peak_flops, hbm_bandwidth, intensity, achieved_flops, critical_intensity, label,
//         bound?, extraChips?: [{label, peak_flops, hbm_bandwidth}] }
export function rooflinePlotSVG(opts) {
  const { peak_flops: peak, hbm_bandwidth: bw, intensity, achieved_flops: achieved } = opts;
  if (!positive(peak) || !positive(bw)) return emptySVG('no chip to plot');
  const ridge = positive(opts.critical_intensity) ? opts.critical_intensity : peak / bw;
  const others = (opts.extraChips ?? []).filter((c) => positive(c.peak_flops) && positive(c.hbm_bandwidth));
  const roofs = [{ peak_flops: peak, hbm_bandwidth: bw }, ...others];
  const point = positive(intensity) && positive(achieved)
    ? { intensity, achieved_flops: achieved, label: opts.label ?? '', bound: opts.bound ?? '' } : null;
  const { xdec, ydec } = ranges([ridge, ...others.map((c) => c.peak_flops / c.hbm_bandwidth)],
    point?.intensity, roofs, point?.achieved_flops);
  const xrange = [10 ** xdec[0], 10 ** xdec[1]];
  const scale = makeScale(xdec, ydec);
  const summary = point
    ? `the op at ${si(intensity, 'FLOP/B')} attains ${si(achieved, 'FLOP/s')}`
    : 'the op does no FLOPs, so it has no point';
  const noPoint = `<text class="note" x="${WIDTH - MARGIN.right - 8}" y="${HEIGHT - MARGIN.bottom - 52}" ` +
    `text-anchor="end" fill="currentColor">no FLOPs: nothing to place on the roofline</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" ` +
    `class="roofline"><title>Roofline plot. ${esc(opts.label ?? '')}; ${esc(summary)}; ` +
    `peak ${esc(si(peak, 'FLOP/s'))}, critical intensity ${esc(si(ridge, 'FLOP/B'))}</title>` +
    axesSVG(scale, xdec, ydec) +
    otherRoofsSVG(scale, others, xrange) +
    mainRoofSVG(scale, roofs[0], ridge, xrange) +
    (point ? pointSVG(scale, point) + legendSVG(point) : noPoint) +
    `</svg>`;
}

// The shadow root of <sb-roofline-plot>: its CSS and the SVG (or a waiting line if no data).
export function rooflinePlotHTML(opts) {
  const body = opts ? rooflinePlotSVG(opts) : '<p class="loading" role="status">Waiting for the calculator…</p>';
  return `<div class="plot" data-plot>${body}</div>`;
}

// What to draw for one calculator result; the element and the builder both call this so the
// static plot and the live one match. `chips` is engine.chips(); `extraChipIds` the ids to draw
// as faint roofs (a chip without a peak for the dtype in use is left out, never guessed).
export function rooflinePlotOptions({ result, inputs = {}, schema, chips = [], extraChipIds = [] }) {
  const defaultOf = (name) => schema?.inputs.find((input) => input.name === name)?.default ?? '';
  const chipId = inputs.chip || defaultOf('chip');
  const dtype = inputs.dtype || defaultOf('dtype');
  const custom = Boolean(inputs.peak_flops || inputs.hbm_bandwidth);
  const name = custom ? 'your chip' : chips.find((chip) => chip.id === chipId)?.name ?? chipId;
  const extraChips = extraChipIds
    .filter((id) => custom || id !== chipId)
    .map((id) => chips.find((chip) => chip.id === id))
    .filter((chip) => chip && chip.peak_flops[dtype] !== undefined)
    .map((chip) => ({ label: chip.name, peak_flops: chip.peak_flops[dtype], hbm_bandwidth: chip.hbm_bandwidth }));
  return {
    peak_flops: result.peak_flops,
    hbm_bandwidth: result.hbm_bandwidth,
    intensity: result.intensity,
    achieved_flops: result.achieved_flops,
    critical_intensity: result.critical_intensity,
    bound: result.bound,
    label: name ? `${name}: ${result.bound}-bound` : `${result.bound}-bound`,
    extraChips,
  };
}
