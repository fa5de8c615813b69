// <sb-gpu-kernel>'s picture after the form: the roofline of the chosen GPU and number format
// (the gpu-kernel result's peak and the bandwidth of the memory its operands stream from, with
// HBM's roof beside an L2 or SMEM one) on log axes, the reader's kernel on it, and
// a matmul sweep measured on one H200 drawn over the model (each measured shape run through the
// gpu-kernel calculator for its FLOPs, bytes and roofline time; its achieved FLOP/s is those
// FLOPs over the measured seconds). Pure: runs in the builder and the browser.
import { si, sci } from '../core/format.js';
import { logAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead } from '../core/render.js';

export const KERNEL_LEAD = ['intensity', 'critical_intensity', 'time', 'bound', 'occupancy'];
registerLead('gpu-kernel', KERNEL_LEAD);

// The chip the measurements were taken on (the reference file's device).
export const MEASURED_CHIP = 'h200';

const WIDTH = 640;
const HEIGHT = 380;
// left: room for the y labels at a phone's font (24 px) clear of the rotated y title.
const MARGIN = { left: 100, right: 20, top: 16, bottom: 56 };
const positive = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;

// The measured matmuls of `dtype` as the engine models them: [{ M, K, N, seconds, square,
// intensity, flops, model_time, achieved }], and the H200's roof, or null when none was
// measured in that format. `engine.calculate` is the builder's or the page's engine.
export function measuredPoints(engine, measured, dtype) {
  const rows = (measured?.matmul ?? []).filter((m) => m.dtype === dtype);
  if (!rows.length) return null;
  let roof = null;
  const points = rows.map((m) => {
    const r = engine.calculate('gpu-kernel', { op: 'matmul', chip: MEASURED_CHIP, dtype, B: m.M, D: m.K, F: m.N }, { steps: false });
    roof ??= { peak_flops: r.peak_flops, bandwidth: r.hbm_bandwidth };
    return { M: m.M, K: m.K, N: m.N, seconds: m.seconds, square: m.M === m.K && m.K === m.N && m.K !== 8192,
      intensity: r.intensity, flops: r.flops, model_time: r.time, achieved: r.flops / m.seconds };
  });
  return { dtype, roof, points };
}

function roofPath(scale, roof, [x0, x1]) {
  const ridge = roof.peak_flops / roof.bandwidth;
  const a = Math.min(Math.max(ridge, x0), x1);
  return `M${scale.x(x0)},${scale.y(Math.min(x0 * roof.bandwidth, roof.peak_flops))} L${scale.x(a)},${scale.y(Math.min(a * roof.bandwidth, roof.peak_flops))} L${scale.x(x1)},${scale.y(roof.peak_flops)}`;
}

// The memory input's choice as the schema labels it (its default when none was made).
export function memoryLabel(schema, value) {
  const input = schema.inputs.find((i) => i.name === 'memory');
  const at = input?.choices.indexOf(value ?? input.default) ?? -1;
  return at >= 0 ? input.choice_labels?.[at] ?? input.choices[at] : null;
}

// The roof's name: the label given, else HBM when the result's bandwidth is HBM's.
function memoryName(result, label) {
  return label ?? (result.memory_bandwidth === result.hbm_bandwidth ? 'HBM' : 'memory');
}

function decades(values, pad) {
  const ok = values.filter(positive);
  return [Math.floor(Math.log10(Math.min(...ok)) - pad), Math.ceil(Math.log10(Math.max(...ok)) + pad)];
}

export function kernelPlotSVG(result, sweep, memory) {
  const bandwidth = result.memory_bandwidth ?? result.hbm_bandwidth;
  const roof = { peak_flops: result.peak_flops, bandwidth };
  const name = memoryName(result, memory);
  // Beside an L2 or SMEM roof, HBM's, so the reader sees how far the ridge moved.
  const hbm = positive(result.hbm_bandwidth) && result.hbm_bandwidth !== bandwidth ? { peak_flops: result.peak_flops, bandwidth: result.hbm_bandwidth } : null;
  const pts = sweep?.points ?? [];
  const xs = [result.intensity, result.critical_intensity, ...(hbm ? [hbm.peak_flops / hbm.bandwidth] : []), ...pts.map((p) => p.intensity)];
  const [x0, x1] = decades(xs, 0.3);
  const kernelFlops = result.flops / result.time;
  const ys = [roof.peak_flops, kernelFlops, ...pts.map((p) => p.achieved), 10 ** x0 * Math.min(bandwidth, hbm?.bandwidth ?? bandwidth)];
  const [y0, y1] = decades(ys, 0.15);
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  const scale = { x: logAxis([10 ** x0, 10 ** x1], [area.left, area.right]), y: logAxis([10 ** y0, 10 ** y1], [area.bottom, area.top]) };
  const xr = [10 ** x0, 10 ** x1];
  const axes = ticksSVG(scale.x, scale.x.ticks(Math.ceil((x1 - x0) / 7)), { side: 'bottom', edge: area.bottom, across: [area.top, area.bottom], mark: 5, label: si }) +
    ticksSVG(scale.y, scale.y.ticks(Math.ceil((y1 - y0) / 7)), { side: 'left', edge: area.left, across: [area.left, area.right], mark: 5, label: sci }) +
    frameSVG(area) +
    `<text class="axis-title" x="${(area.left + area.right) / 2}" y="${HEIGHT - 6}" text-anchor="middle" fill="currentColor">arithmetic intensity (FLOP/B)</text>` +
    `<text class="axis-title" transform="translate(14 ${(area.top + area.bottom) / 2}) rotate(-90)" text-anchor="middle" fill="currentColor">FLOP/s</text>`;
  const same = (a, b) => a && b && a.peak_flops === b.peak_flops && a.bandwidth === b.bandwidth;
  const hbmRoof = hbm ? `<path class="roof hbm" d="${roofPath(scale, hbm, xr)}"><title>${esc(`HBM roof: ${si(hbm.peak_flops, 'FLOP/s')}, HBM ${si(hbm.bandwidth, 'B/s')}`)}</title></path>` : '';
  const other = sweep?.roof && !same(sweep.roof, roof) && !same(sweep.roof, hbm)
    ? `<path class="roof vector" d="${roofPath(scale, sweep.roof, xr)}"><title>${esc(`H200 roof: ${si(sweep.roof.peak_flops, 'FLOP/s')}, HBM ${si(sweep.roof.bandwidth, 'B/s')}`)}</title></path>` : '';
  const main = `<path class="roof" d="${roofPath(scale, roof, xr)}"><title>${esc(`roof: ${si(roof.peak_flops, 'FLOP/s')}, ${name} ${si(roof.bandwidth, 'B/s')}`)}</title></path>` +
    `<text x="${area.right - 4}" y="${scale.y(roof.peak_flops) - 6}" text-anchor="end" fill="currentColor">peak ${esc(si(roof.peak_flops, 'FLOP/s'))}</text>`;
  const dots = pts.map((p) => `<circle class="measured${p.square ? ' square' : ''}" cx="${scale.x(p.intensity)}" cy="${scale.y(p.achieved)}" r="4">` +
    `<title>${esc(`measured on an H200, [${p.M}, ${p.K}] x [${p.K}, ${p.N}]: ${si(p.seconds, 's')} against the roofline's ${si(p.model_time, 's')}, ${si(p.achieved, 'FLOP/s')}`)}</title></circle>`).join('');
  const kx = scale.x(result.intensity);
  const ky = scale.y(kernelFlops);
  const kernel = `<circle class="point" cx="${kx}" cy="${ky}" r="6" fill="currentColor" stroke="white" stroke-width="1.5">` +
    `<title>${esc(`your kernel: ${si(result.intensity, 'FLOP/B')}, ${si(kernelFlops, 'FLOP/s')} on the roofline`)}</title></circle>`;
  const title = `Roofline of the chosen GPU from ${name}, peak ${si(roof.peak_flops, 'FLOP/s')}, critical intensity ${si(result.critical_intensity, 'FLOP/B')}` +
    (hbm ? ` (from HBM ${si(hbm.peak_flops / hbm.bandwidth, 'FLOP/B')})` : '') +
    (pts.length ? `, with ${pts.length} matmuls measured on an H200` : '');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>` +
    `${axes}${other}${hbmRoof}${main}${dots}${kernel}</svg>`;
}

// What the measurements say, in words: the best fraction of the datasheet's peak, and how far
// the smallest matmul sits from its roofline time.
export function measuredSummary(sweep) {
  if (!sweep?.points.length) return 'No H200 measurement in this format: the sweep was measured in bf16 and fp8.';
  const best = sweep.points.reduce((a, b) => (b.achieved > a.achieved ? b : a));
  const small = sweep.points.reduce((a, b) => (b.flops < a.flops ? b : a));
  const share = Math.round((100 * best.achieved) / sweep.roof.peak_flops);
  return `Measured on one H200 in ${sweep.dtype}: the best matmul, [${best.M}, ${best.K}] x [${best.K}, ${best.N}], reaches ` +
    `${si(best.achieved, 'FLOP/s')}, ${share}% of the datasheet's ${si(sweep.roof.peak_flops, 'FLOP/s')}. The smallest, ` +
    `[${small.M}, ${small.K}] x [${small.K}, ${small.N}], takes ${si(small.seconds, 's')} where the roofline says ${si(small.model_time, 's')}: ` +
    'launching a kernel and filling the SMs cost microseconds of their own.';
}

function keyHTML(sweep, name, withHbm) {
  const dot = (cls) => `<svg class="swatch" viewBox="0 0 14 14" aria-hidden="true"><circle class="${cls}" cx="7" cy="7" r="5"/></svg>`;
  const line = (cls) => `<svg class="swatch" viewBox="0 0 14 14" aria-hidden="true"><path class="${cls}" d="M0,12 L7,3 L14,3"/></svg>`;
  const items = [`<li>${line('roof')}the model's roof, operands in ${esc(name)}</li>`];
  if (withHbm) items.push(`<li>${line('roof hbm')}the same from HBM</li>`);
  items.push(`<li>${dot('point')}your kernel</li>`);
  if (sweep?.points.length) items.push(`<li>${dot('measured')}H200, [M, 8192] x [8192, 8192]</li>`, `<li>${dot('measured square')}H200, squares</li>`);
  return `<ul class="legend">${items.join('')}</ul>`;
}

// `memory`: the memory choice's label (memoryLabel), which names the roof.
export function kernelExtrasHTML(result, sweep, memory) {
  if (!positive(result?.peak_flops) || !positive(result?.time)) return '<div class="gpu-extras" data-extras></div>';
  const bandwidth = result.memory_bandwidth ?? result.hbm_bandwidth;
  const withHbm = positive(result.hbm_bandwidth) && result.hbm_bandwidth !== bandwidth;
  return '<div class="gpu-extras" data-extras>' +
    '<h4 class="results">The roofline, and what an H200 measured</h4>' +
    `<div class="plot">${kernelPlotSVG(result, sweep, memory)}</div>${keyHTML(sweep, memoryName(result, memory), withHbm)}` +
    `<p class="note" data-measured-summary>${esc(measuredSummary(sweep))}</p></div>`;
}
