// The GPU against TPU collective bandwidth overlay (chapter 12): the bandwidth one chip gets in a
// collective against how many chips take part, for GPUs on a cluster (2 to all its GPUs) and a
// TPU's slices (growing one axis at a time) on one plot. Every point is the collective
// calculator's achieved_bandwidth (bytes_per_chip over the time: nccl-tests' bus bandwidth on
// a GPU), the GPU series one engine sweep over axis_size; a slice shape the engine refuses is
// left out. Pure: runs in the builder and the browser.
import { si } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';
import { fieldHTML, asError } from '../core/widget-form.js';
import { torusChips } from '../hardware/slice-view.js';
import { linearAxis, logAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';

export const CALCULATOR = 'collective';
export const FIELDS = ['op', 'bytes', 'gpu', 'cluster', 'tpu'];
export const DEFAULTS = { gpu: 'h100', cluster: 'dgx-h100-superpod', tpu: 'tpu-v5p', bytes: '1e9' };
const OUTPUTS = ['achieved_bandwidth', 'chips', 'peak_bandwidth'];
const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { left: 100, right: 32, top: 40, bottom: 60 };

// An error as the engine's are, on the form's field.
const placed = (field, message) => Object.assign(new Error(message), { name: 'CalculatorError', field });

const dimsOf = (chip) => Number(chip.fields?.find((f) => f.name === 'torus_dims')?.value ?? 0);

// The form's inputs: the calculator's op and bytes, a GPU and its cluster, a TPU.
export function scalingInputs(engine) {
  const inputs = engine.schema(CALCULATOR).inputs;
  const pick = (name) => inputs.find((i) => i.name === name);
  const tpus = torusChips(engine.chips()).map((c) => c.id);
  const gpus = engine.chips().map((c) => c.id).filter((id) => !tpus.includes(id));
  return {
    op: pick('op'),
    bytes: { ...pick('bytes'), default: Number(DEFAULTS.bytes) },
    gpu: { ...pick('chip'), name: 'gpu', label: 'GPU', choices: gpus, default: DEFAULTS.gpu, description: 'the GPU of the cluster' },
    cluster: { ...pick('cluster'), choices: pick('cluster').choices.filter((c) => c !== 'auto'), default: DEFAULTS.cluster },
    tpu: { ...pick('chip'), name: 'tpu', label: 'TPU', choices: tpus, default: DEFAULTS.tpu, description: 'the TPU whose slices it is drawn against' },
  };
}

const valueOf = (values, name) => String(values?.[name] ?? '').trim() || DEFAULTS[name] || '';

// TPU slice shapes of 2 chips and up, the shortest axis doubled each time (1x1x2, 1x2x2, 2x2x2,
// 2x2x4, ...), up to `most` chips.
export function sliceShapes(dims, most) {
  const shapes = [];
  const axes = Array(Math.max(dims, 1)).fill(1);
  for (let chips = 2; chips <= most; chips *= 2) {
    const i = axes.lastIndexOf(Math.min(...axes));
    axes[i] *= 2;
    shapes.push([...axes].sort((a, b) => a - b).join('x'));
  }
  return shapes;
}

// { gpu: [[chips, B/s]...], tpu: [...], gpuPeak, tpuPeak, labels } or throws the engine's
// CalculatorError (field: the form's gpu for the calculator's chip on the GPU side).
export function scalingRun(engine, values) {
  const op = valueOf(values, 'op') || 'all-gather';
  const bytes = valueOf(values, 'bytes');
  const gpu = valueOf(values, 'gpu');
  const tpu = valueOf(values, 'tpu');
  const cluster = valueOf(values, 'cluster');
  // The calculator's chip and axis_size are the form's gpu here.
  const place = (name) => (err) => {
    const e = asError(err);
    throw placed(e.field === 'chip' || e.field === 'axis_size' ? name : e.field, e.message);
  };
  const base = { op, bytes, chip: gpu, cluster };
  let size;
  try {
    size = engine.calculate('gpu-cluster', { cluster }, { steps: false }).gpus;
    engine.calculate(CALCULATOR, { ...base, axis_size: 2 }, { steps: false });
  } catch (err) { place('gpu')(err); }
  const counts = [];
  for (let n = 2; n <= size; n *= 2) counts.push(n);
  const { series } = engine.sweep(CALCULATOR, { inputs: base, over: 'axis_size', values: counts, outputs: OUTPUTS });
  const chip = torusChips(engine.chips()).find((c) => c.id === tpu);
  if (!chip) throw placed('tpu', `tpu must be a TPU (a chip with a torus), got "${tpu}"`);
  const tpuPoints = [];
  let tpuPeak = 0;
  for (const axes of sliceShapes(dimsOf(chip), Math.max(size, 4096))) {
    try {
      const r = engine.calculate(CALCULATOR, { op, bytes, chip: tpu, axes }, { steps: false });
      if (r.achieved_bandwidth !== null) tpuPoints.push([r.chips, r.achieved_bandwidth, axes]);
      tpuPeak = Math.max(tpuPeak, r.peak_bandwidth ?? 0);
    } catch { /* a slice the chip has not got: no point */ }
  }
  const gpuPoints = counts.map((n, i) => [series.chips[i], series.achieved_bandwidth[i]]).filter(([, b]) => Number.isFinite(b));
  return {
    op, bytes: Number(bytes), gpu: gpuPoints, tpu: tpuPoints,
    gpuName: engine.chips().find((c) => c.id === gpu)?.name ?? gpu, tpuName: chip.name, cluster,
    gpuPeak: Math.max(...Array.from(series.peak_bandwidth).filter(Number.isFinite)), tpuPeak,
  };
}

// { run, error } with the error placed on its field.
export function runScaling(engine, values) {
  try {
    return { run: scalingRun(engine, values), error: null };
  } catch (err) {
    return { run: null, error: asError(err) };
  }
}

function seriesSVG(points, x, y, cls) {
  if (!points.length) return '';
  const d = points.map(([n, b], k) => `${k ? 'L' : 'M'}${x(n)},${y(b)}`).join(' ');
  return `<path class="series ${cls}" d="${d}" fill="none"/>` +
    points.map(([n, b]) => `<circle class="dot ${cls}" cx="${x(n)}" cy="${y(b)}" r="4"><title>${n} chips: ${esc(si(b, 'B/s'))}</title></circle>`).join('');
}

// The plot: chips on a log axis, bandwidth per chip on a linear one, the GPU and the TPU series.
export function scalingSVG(run) {
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  const { left, right, top, bottom, w } = area;
  const all = [...run.gpu, ...run.tpu];
  const most = Math.max(...all.map(([n]) => n), 4);
  const x = logAxis([2, most], [left, right]);
  const y = linearAxis([0, Math.max(...all.map(([, b]) => b), 1) * 1.15], [bottom, top]);
  const ticks = [];
  for (let n = 2; n <= most; n *= 4) ticks.push(n);
  const title = `${run.op}: bandwidth per chip against chips, ${run.gpuName} on ${run.cluster} and ${run.tpuName} slices`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" class="scaling"><title>${esc(title)}</title>` +
    ticksSVG(x, ticks, { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => String(v) }) +
    ticksSVG(y, y.ticks(5), { side: 'left', edge: left, across: [left, right], label: (b) => si(b, 'B/s') }) +
    seriesSVG(run.tpu, x, y, 'tpu') + seriesSVG(run.gpu, x, y, 'gpu') + frameSVG(area) +
    `<text class="axis-title" x="${left + w / 2}" y="${HEIGHT}" dy="-0.25em" text-anchor="middle" fill="currentColor">chips in the collective (log scale)</text>` +
    `<text class="axis-title" x="8" y="${top - 14}" fill="currentColor">bandwidth per chip</text></svg>`;
}

// The points as a table, for readers who do not see the plot and for a closer look.
export function scalingTableHTML(run) {
  const rows = (points, who) => points.map(([n, b, shape]) => `<tr><td>${esc(who)}</td><td>${n}${shape ? ` (${esc(shape)})` : ''}</td>` +
    `<td data-bandwidth="${b}">${esc(si(b, 'B/s'))}</td></tr>`).join('');
  return `<details class="scaling-table"><summary>The points</summary><div class="table-wrap"><table class="points">` +
    `<thead><tr><th scope="col">Chip</th><th scope="col">Chips</th><th scope="col">Bandwidth per chip</th></tr></thead>` +
    `<tbody>${rows(run.gpu, run.gpuName)}${rows(run.tpu, run.tpuName)}</tbody></table></div></details>`;
}

export function legendHTML(run) {
  return `<ul class="legend"><li><span class="swatch gpu"></span>${esc(run.gpuName)} on ${esc(run.cluster)}</li>` +
    `<li><span class="swatch tpu"></span>${esc(run.tpuName)} slices</li></ul>`;
}

// The shadow root of <sb-collective-scaling>: the form, the plot, its legend and its points.
export function collectiveScalingHTML({ engine, values, run, chips = engine.chips() }) {
  const inputs = scalingInputs(engine);
  const error = run.error;
  const fields = FIELDS.map((name) => fieldHTML(inputs[name], String(values[name] ?? ''), { prefix: 'cs', error, chips })).join('');
  const general = error && !FIELDS.includes(error.field) ? error.message : '';
  const body = run.run ? `${legendHTML(run.run)}<div class="plot" data-plot>${scalingSVG(run.run)}</div>${scalingTableHTML(run.run)}` : '';
  return `<div class="sb-calc sb-scaling${error ? ' is-stale' : ''}"><form class="fields aligned" novalidate>${fields}</form>` +
    `<p class="error general" data-error-for="">${esc(general)}</p><div class="scaling-body" data-body>${body}</div>` +
    `<p class="caption">Each point is the collective calculator’s <code>achieved_bandwidth</code> for that many chips: ` +
    `the bytes one chip sends over the collective’s time. The GPUs fill the cluster node by node; the TPU slices grow one axis at a time.</p></div>`;
}
