// Achievable FLOP/s against the token batch for a few matmul sizes (the book's chapter 1,
// question 3), as an SVG string. Pure: runs in the builder and the browser. Every plotted
// number comes from the engine's matmul results passed in; this file only draws them.
import { si } from './format.js';
import { linearAxis, ticksSVG, frameSVG, plotArea } from './axes.js';
import { escapeHTML as esc } from './escape.js';

const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { left: 108, right: 24, top: 40, bottom: 52 };
const COLORS = ['var(--_accent, #2557a7)', 'var(--_memory, #9a5b00)', 'var(--_compute, #1a7f37)', 'var(--_comm, #c62828)'];

export function sweepTitle(values) {
  return `Achievable FLOP/s against batch size on ${values.chip}, ${values.dtype_activations} activations, ${values.dtype_weights} weights`;
}

// The batches to evaluate: every `step` tokens from 1 to maxBatch.
export function sweepBatches(maxBatch, points = 64) {
  const step = Math.max(1, Math.round(maxBatch / points));
  const batches = [1];
  for (let b = step; b <= maxBatch; b += step) if (b > 1) batches.push(b);
  return batches;
}

// curves: [{ label, points: [[B, flops], ...], knee: B|null }]; peak: FLOP/s of the chip.
export function batchSweepSVG({ curves, peak, maxBatch, title }) {
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  const { left, right, top, bottom, w } = area;
  const ymax = peak * 1.1;
  const x = linearAxis([0, maxBatch], [left, right]);
  const y = linearAxis([0, ymax], [bottom, top]);
  const xs = x.ticks(8);
  // Every other batch label gives way on a phone, where the labels are larger.
  const parts = [ticksSVG(x, xs, { side: 'bottom', edge: bottom, across: [top, bottom], label: String, minor: (_, i) => xs.length > 6 && i % 2 === 1 }),
    ticksSVG(y, y.ticks(5), { side: 'left', edge: left, across: [left, right], label: (f) => si(f, 'FLOP/s') })];
  parts.push(`<line class="peak" x1="${left}" y1="${y(peak)}" x2="${right}" y2="${y(peak)}" stroke="currentColor" stroke-dasharray="5 4"/>` +
    `<text x="${left + 6}" y="${y(peak) - 6}" fill="currentColor">peak ${esc(si(peak, 'FLOP/s'))}</text>`);
  curves.forEach((curve, i) => {
    const color = COLORS[i % COLORS.length];
    const d = curve.points.map(([b, f], k) => `${k ? 'L' : 'M'}${x(b)},${y(f)}`).join(' ');
    parts.push(`<path class="curve" data-label="${esc(curve.label)}" d="${d}" fill="none" stroke="${color}" stroke-width="2.5"/>`);
    if (curve.knee !== null && curve.knee <= maxBatch) {
      parts.push(`<circle class="knee" data-knee="${esc(String(Math.round(curve.knee)))}" cx="${x(curve.knee)}" cy="${y(peak)}" r="5" fill="${color}"/>`);
    }
    const ly = top + 150 + i * 20;
    const knee = curve.knee === null ? 'never compute-bound' : `knee at B = ${Math.round(curve.knee)}`;
    parts.push(`<text x="${right - 8}" y="${ly}" text-anchor="end" fill="${color}" font-weight="600">` +
      `${esc(curve.label)}: ${esc(knee)}</text>`);
  });
  // The y title sits above the axis, clear of the tick labels at any text size.
  parts.push(frameSVG(area),
    `<text class="axis-title" x="${left + w / 2}" y="${HEIGHT - 10}" text-anchor="middle" fill="currentColor">token batch B</text>`,
    `<text class="axis-title" x="8" y="${top - 14}" fill="currentColor">achievable FLOP/s</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" class="sweep">` +
    `<title>${esc(title)}</title>${parts.join('')}</svg>`;
}

// One engine sweep of the matmul over B per size. inputs: matmul inputs other than B, D, F.
// The calculation at B = 1 (numbers only) checks the inputs first, so a bad one reads as the
// calculator's own message, and gives the chip's peak and the knee (critical_batch_exact).
export function sweepCurves(engine, { inputs, sizes, maxBatch }) {
  const batches = sweepBatches(maxBatch);
  let peak = 0;
  const curves = sizes.map((size) => {
    const base = { ...inputs, D: size, F: size };
    const first = engine.calculate('matmul', { ...base, B: 1 }, { steps: false });
    peak = first.peak_flops;
    const { series } = engine.sweep('matmul', { inputs: base, over: 'B', values: batches, outputs: ['achieved_flops'] });
    const points = batches.map((B, i) => [B, series.achieved_flops[i]]);
    return { label: `D = F = ${size}`, points, knee: first.critical_batch_exact };
  });
  return { curves, peak };
}

function selectHTML(name, label, options, value) {
  const opts = options.map(([v, text]) =>
    `<option value="${esc(v)}"${v === value ? ' selected' : ''}>${esc(text)}</option>`).join('');
  return `<label class="field"><span>${esc(label)}</span><select name="${esc(name)}">${opts}</select></label>`;
}

// The shadow root of <sb-batch-sweep>: chip and number formats to pick, then the plot.
// values: { chip, dtype_weights, dtype_activations }; chips: engine.chips(); dtypes: names.
export function batchSweepHTML({ chips, dtypes, values, svg, error = '' }) {
  const dtypeOptions = dtypes.map((d) => [d, d]);
  return `<div class="sb-calc"><form class="sweep-controls fields">` +
    selectHTML('chip', 'chip', chips.map((c) => [c.id, c.name]), values.chip) +
    selectHTML('dtype_weights', 'weights', dtypeOptions, values.dtype_weights) +
    selectHTML('dtype_activations', 'activations', dtypeOptions, values.dtype_activations) +
    `</form><p class="error general" data-error-for="">${esc(error)}</p>` +
    `<div class="plot" data-plot>${svg}</div></div>`;
}
