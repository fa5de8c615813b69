// Bandwidth a collective reaches against the size of the array it moves (the book's chapter 3
// figure of AllGather bandwidth on a TPU v5e against message size), as an SVG string, with the
// form and readout around it. Pure: runs in the builder and the browser. Every number comes
// from the engine's collective calculator, swept over the plotted sizes in one engine call; the
// size at which it reaches 90% of peak is the engine's solve over sizes, never a formula here.
// On a GPU (chapter 12) the form trades the torus's wraparound for the switched fabric's inputs:
// the per-step latency, the cluster and in-network reduction; the curve is then nccl-tests' bus
// bandwidth, and a latency shows it rising with the message size.
import { si } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';
import { fieldHTML, asError } from '../core/widget-form.js';
import { torusChips } from '../hardware/slice-view.js';
import { linearAxis, logAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';

export const CALCULATOR = 'collective';
export const FIELDS = ['op', 'chip', 'shape', 'wraparound'];
// A GPU's fields, in place of FIELDS.
export const GPU_FIELDS = ['op', 'chip', 'shape', 'latency', 'cluster', 'in_network'];
// Settings a GPU's sweep adds, passed to the calculator as they are.
const GPU_SETTINGS = ['latency', 'cluster', 'in_network'];
export const SIZE_MIN = 1e4;
export const SIZE_MAX = 1e10;
export const TARGET = 0.9;
const PER_DECADE = 12;

const WIDTH = 640;
const HEIGHT = 360;
// bottom: the tick labels and the title, each a line of a phone's 22 px font.
const MARGIN = { left: 100, right: 32, top: 40, bottom: 60 };
// Room (viewBox units, at the phone's larger text) for a regime's name, and for the labels
// right of the corner before they move to its left.
const REGION_LABEL = 150;
const FAR_RIGHT = 290;
const CROSS_LABEL = 200;

const SHAPE_INPUT = { name: 'shape', type: 'text', unit: '', description: 'chips along the one axis (16), or several axes at once (8x16)' };
const SHAPE_FIELDS = ['axis_size', 'axes'];

// Array sizes V to plot: PER_DECADE a decade from SIZE_MIN to SIZE_MAX.
export function sweepSizes() {
  const decades = Math.log10(SIZE_MAX / SIZE_MIN);
  return Array.from({ length: decades * PER_DECADE + 1 }, (_, i) => SIZE_MIN * 10 ** (i / PER_DECADE));
}

// True for a chip on a switched fabric (a GPU): one the catalog gives no torus.
export function isGpu(chips, id) {
  return Boolean(id) && chips.some((c) => c.id === id) && !torusChips(chips).some((c) => c.id === id);
}

// The form's field names: FIELDS, or GPU_FIELDS when the chosen chip is a GPU.
export function sweepFields(chips, chosenChip = '') {
  return isGpu(chips, chosenChip) ? GPU_FIELDS : FIELDS;
}

// The form's inputs from the calculator's schema: op, chip (the catalog's TPUs, and the chosen
// chip if it is not one), the axes as one field, wraparound; on a GPU the catalog's other chips
// (the GPUs), the GPU count, the latency, the cluster and in-network reduction.
export function sweepInputs(schema, chips, chosenChip = '') {
  const pick = (name) => schema.inputs.find((i) => i.name === name);
  const axes = pick('axes')?.default;
  const shape = { ...SHAPE_INPUT, default: axes ? String(axes) : String(pick('axis_size')?.default ?? '') };
  const tpus = torusChips(chips).map((c) => c.id);
  if (isGpu(chips, chosenChip)) {
    const gpus = chips.map((c) => c.id).filter((id) => !tpus.includes(id));
    return {
      op: pick('op'), chip: { ...pick('chip'), choices: gpus }, shape: { ...SHAPE_INPUT, description: 'GPUs: one node or fewer, or whole nodes' },
      latency: pick('latency'), cluster: pick('cluster'), in_network: pick('in_network'),
    };
  }
  const chip = { ...pick('chip'), choices: tpus.length ? tpus : pick('chip').choices };
  if (chosenChip && !chip.choices.includes(chosenChip)) chip.choices = [...chip.choices, chosenChip];
  return { op: pick('op'), chip, shape, wraparound: pick('wraparound') };
}

// The calculator's inputs for the fields, without bytes: a shape with an x is `axes`, a single
// number `axis_size`; an empty field takes the calculator's default.
export function collectiveRequest(values) {
  const request = {};
  for (const name of ['op', 'chip', 'wraparound', ...GPU_SETTINGS]) {
    const text = String(values?.[name] ?? '').trim();
    if (text !== '') request[name] = text;
  }
  const shape = String(values?.shape ?? '').trim();
  if (shape.includes('x')) request.axes = shape;
  else if (shape !== '') request.axis_size = shape;
  return request;
}

// The element's attributes (or the directive's named settings) as form values; get(name) reads
// the setting of the calculator input `name`. A GPU's settings are there only when given.
export function settingsValues(get) {
  const shape = get('axes') ?? get('axis_size') ?? '';
  const values = { op: get('op') ?? '', chip: get('chip') ?? '', shape, wraparound: get('wraparound') ?? '' };
  for (const name of GPU_SETTINGS) if (get(name) !== null && get(name) !== undefined) values[name] = get(name);
  return values;
}

// The smallest V at which the collective reaches `TARGET` of peak: the engine's solve over
// bytes from 1 byte to `maxBytes` (it bisects on log V). Returns { found: { bytes } or
// { always: true } (already there at 1 byte) or null (never, up to `maxBytes`), ceiling: the
// efficiency at `maxBytes` when it is never reached }.
function reach(engine, request, maxBytes) {
  const solved = engine.solve(CALCULATOR, {
    inputs: request, over: 'bytes', output: 'efficiency', target: TARGET, lo: 1, hi: maxBytes,
  });
  if (solved.at_lo) return { found: { always: true } };
  if (solved.at === null) return { found: null, ceiling: solved.output_at };
  return { found: { bytes: solved.at } };
}

// One engine sweep over the plotted sizes (and the crossover, so the corner is drawn where the
// engine puts it), numbers only. A first calculation at the smallest size checks the fields,
// so a bad one throws the engine's CalculatorError in the calculator's own words.
export function bandwidthSweep(engine, values) {
  const request = collectiveRequest(values);
  const run = (bytes) => engine.calculate(CALCULATOR, { ...request, bytes }, { steps: false });
  const maxBytes = engine.schema(CALCULATOR).inputs.find((i) => i.name === 'bytes').max;
  const first = run(SIZE_MIN);
  if (first.achieved_bandwidth === null) return { request, empty: true, chips: first.chips };
  const crossover = first.crossover_bytes;
  const sizes = sweepSizes();
  if (crossover !== null && crossover > SIZE_MIN && crossover < SIZE_MAX) sizes.push(crossover);
  sizes.sort((a, b) => a - b);
  const { series } = engine.sweep(CALCULATOR, {
    inputs: request, over: 'bytes', values: sizes,
    outputs: ['achieved_bandwidth', 'efficiency', 'peak_bandwidth', 'chips', 'hop_latency'],
  });
  const last = sizes.length - 1;
  const at = (name, i) => (Number.isNaN(series[name][i]) ? null : series[name][i]); // NaN: none
  const { found, ceiling } = reach(engine, request, maxBytes);
  return {
    request,
    empty: false,
    points: sizes.map((bytes, i) => [bytes, at('achieved_bandwidth', i)]),
    peak: at('peak_bandwidth', last),
    crossover,
    chips: at('chips', last),
    hopLatency: at('hop_latency', last),
    largest: { bytes: SIZE_MAX, achieved: at('achieved_bandwidth', last), efficiency: at('efficiency', last) },
    ceiling: ceiling ?? run(maxBytes).efficiency,
    reach: found?.bytes !== undefined ? { ...found, achieved: run(found.bytes).achieved_bandwidth } : found,
  };
}

const pct = (f) => `${Number((100 * f).toPrecision(3))}%`;

// The readout under the plot: what fills the <p data-readout> (kept, so aria-live announces it).
export function readoutInner(sweep) {
  if (sweep.empty) return 'One chip: there is nothing to send, so no bandwidth to plot.';
  const { reach: r, chips } = sweep;
  let first;
  if (r?.always) first = `Reaches ${pct(TARGET)} of peak at every size: no per-hop latency on this chip.`;
  else if (r) {
    first = `Reaches ${pct(TARGET)} of peak at <strong data-per-device>${esc(si(r.bytes / chips, 'B'))} per device</strong> ` +
      `(an array of ${esc(si(r.bytes, 'B'))} over ${chips} chips).`;
  } else first = `Never reaches ${pct(TARGET)} of peak: it levels off at ${pct(sweep.ceiling)}, however large the array.`;
  const regime = sweep.crossover === null ? 'No latency term: bandwidth-bound at every size.'
    : `Latency-bound below ${esc(si(sweep.crossover, 'B'))}, bandwidth-bound above.`;
  const big = `At ${esc(si(sweep.largest.bytes, 'B'))} each chip sends ${esc(si(sweep.largest.achieved, 'B/s'))}, ` +
    `${pct(sweep.largest.efficiency)} of its ${esc(si(sweep.peak, 'B/s'))} peak.`;
  return `${first} ${regime} ${big}`;
}

// The engine's V at 90% of peak, for the readout's data-bytes ('' when there is none).
export function reachBytes(sweep) {
  return sweep?.reach?.bytes === undefined ? '' : String(sweep.reach.bytes);
}

function readoutHTML(sweep) {
  const bytes = reachBytes(sweep);
  return `<p class="readout" data-readout aria-live="polite"${bytes ? ` data-bytes="${bytes}"` : ''}>${sweep ? readoutInner(sweep) : ''}</p>`;
}

export function sweepTitle(values, chips = []) {
  const request = collectiveRequest(values);
  const chip = chips.find((c) => c.id === request.chip)?.name ?? request.chip ?? 'the default chip';
  const axes = request.axes ?? request.axis_size ?? 'the default axis';
  const gpu = isGpu(chips, request.chip);
  return `${request.op ?? 'all-gather'} over ${axes} ${gpu ? 'GPUs' : 'chips'} of ${chip}: ${gpu ? 'bus bandwidth' : 'bandwidth per chip'} against array size`;
}

// The plot. sweep: bandwidthSweep's answer; title: the SVG's accessible name. Labels sit where
// the curve is not: above the peak line at the right, the latency-bound name along the top of
// its region, the 90% mark and the crossover right of the corner (left of it when the corner
// is far right, where the latency-bound name moves to the bottom left, under the rising curve).
export function bandwidthSVG(sweep, title) {
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  const { left, right, top, bottom, w, h } = area;
  const x = logAxis([SIZE_MIN, SIZE_MAX], [left, right]);
  const frame = frameSVG(area) +
    `<text class="axis-title" x="${left + w / 2}" y="${HEIGHT}" dy="-0.25em" text-anchor="middle" fill="currentColor">array size V (log scale)</text>` +
    `<text class="axis-title" x="8" y="${top - 14}" fill="currentColor">bandwidth per chip</text>`;
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" class="bandwidth">` +
    `<title>${esc(title)}</title>`;
  // Every decade has a gridline; on a phone, where the labels are larger, every other one a label.
  const parts = [ticksSVG(x, x.ticks(), { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => si(v, 'B'), minor: (_, i) => i % 2 === 1 })];
  if (sweep.empty) {
    parts.push(`<text class="note" x="${left + w / 2}" y="${top + h / 2}" text-anchor="middle" fill="currentColor">one chip: nothing to send</text>`);
    return `${open}${parts.join('')}${frame}</svg>`;
  }
  const ymax = sweep.peak * 1.1;
  const y = linearAxis([0, ymax], [bottom, top]);
  parts.push(ticksSVG(y, y.ticks(5), { side: 'left', edge: left, across: [left, right], label: (b) => si(b, 'B/s') }));
  const cross = sweep.crossover;
  const shown = cross !== null && cross > SIZE_MIN && cross < SIZE_MAX;
  const far = shown && x(cross) > right - FAR_RIGHT;
  parts.push(shown ? crossoverSVG(x(cross), cross, { bottom, right, far }) : crossoverNote(cross, { bottom, right }));
  parts.push(`<line class="peak" x1="${left}" y1="${y(sweep.peak)}" x2="${right}" y2="${y(sweep.peak)}" stroke="currentColor" stroke-dasharray="5 4"/>` +
    `<text class="peak-label" x="${right - 6}" y="${y(sweep.peak) - 7}" text-anchor="end" fill="currentColor">peak ${esc(si(sweep.peak, 'B/s'))} per chip</text>`);
  const d = sweep.points.map(([v, b], k) => `${k ? 'L' : 'M'}${x(v)},${y(b)}`).join(' ');
  parts.push(`<path class="curve" d="${d}" fill="none" stroke="var(--_accent, #2557a7)" stroke-width="2.5"/>`);
  const r = sweep.reach;
  if (r?.bytes >= SIZE_MIN && r.bytes <= SIZE_MAX) {
    const [cx, cy] = [x(r.bytes), y(r.achieved)];
    // Under the point (in em, clear of the peak line's label at any font size): right of it,
    // or ending at the plot's right edge when the point is far right.
    const label = far ? `x="${right - 6}" y="${cy}" dy="1.6em" text-anchor="end"` : `x="${cx + 10}" y="${cy}" dy="1.6em"`;
    parts.push(`<circle class="reach" data-bytes="${r.bytes}" cx="${cx}" cy="${cy}" r="5" fill="var(--_accent, #2557a7)"/>` +
      `<text class="reach-label" ${label} fill="currentColor">${pct(TARGET)}: ${esc(si(r.bytes / sweep.chips, 'B'))} per device</text>`);
  }
  return `${open}${parts.join('')}${frame}</svg>`;
}

// The latency/bandwidth crossover at x = cx: the latency-bound region shaded, a dashed line,
// and each regime named on its side when there is room.
function crossoverSVG(cx, crossover, { bottom, right, far }) {
  const top = MARGIN.top;
  const parts = [`<rect class="latency-region" x="${MARGIN.left}" y="${top}" width="${Math.round((cx - MARGIN.left) * 10) / 10}" height="${bottom - top}" fill="currentColor" fill-opacity="0.05"/>`,
    `<line class="crossover" data-crossover="${crossover}" x1="${cx}" y1="${top}" x2="${cx}" y2="${bottom}" stroke="currentColor" stroke-dasharray="2 4"/>`];
  const label = `crossover ${esc(si(crossover, 'B'))}`;
  // Right of the line at mid-height the plot is empty (the curve is flat along the top there);
  // with no room left of the right edge, low on the line's left, clear of the peak's label.
  if (right - cx >= CROSS_LABEL) parts.push(`<text class="crossover-label" x="${cx + 8}" y="${top + (bottom - top) * 0.6}" fill="currentColor">${label}</text>`);
  else parts.push(`<text class="crossover-label" x="${cx - 8}" y="${bottom - 36}" text-anchor="end" fill="currentColor">${label}</text>`);
  if (cx - MARGIN.left >= REGION_LABEL) {
    parts.push(far ? `<text class="region" x="${MARGIN.left + 6}" y="${bottom - 10}" fill="currentColor">latency-bound</text>`
      : `<text class="region" x="${cx - 8}" y="${top + 18}" text-anchor="end" fill="currentColor">latency-bound</text>`);
  }
  if (right - cx >= REGION_LABEL + 20) parts.push(`<text class="region" x="${cx + 8}" y="${bottom - 10}" fill="currentColor">bandwidth-bound</text>`);
  return parts.join('');
}

// A crossover off the plot, or none (no latency term): said in words at the bottom right.
function crossoverNote(crossover, { bottom, right }) {
  let text = 'no latency term: bandwidth-bound at every size';
  if (crossover !== null) {
    text = `crossover at ${si(crossover, 'B')}: ${crossover <= SIZE_MIN ? 'bandwidth' : 'latency'}-bound at every size shown`;
  }
  return `<text class="note" x="${right - 8}" y="${bottom - 12}" text-anchor="end" fill="currentColor">${esc(text)}</text>`;
}

// { sweep, error }: the plot's numbers for the fields, or the engine's error placed on the
// field it names (the calculator's axis fields are the form's shape).
export function runSweep(engine, values) {
  try {
    return { sweep: bandwidthSweep(engine, values), error: null };
  } catch (err) {
    const error = asError(err);
    return { sweep: null, error: SHAPE_FIELDS.includes(error.field) ? { ...error, field: 'shape' } : error };
  }
}

const CAPTION = 'The curve is the engine’s <code>achieved_bandwidth</code>: the bytes one chip sends ' +
  '(<code>bytes_per_chip</code>) over the collective’s time. On a ring that is twice the book’s inferred link ' +
  'bandwidth, bytes·(X−1)/(2X·time), because each chip sends over two links at once; the dashed line, ' +
  '<code>peak_bandwidth</code>, is likewise both links, so the fraction of peak is the same. ' +
  'Numbers from the latency-plus-bandwidth model, not a measurement.';

const GPU_CAPTION = 'The curve is the engine’s <code>achieved_bandwidth</code>: the bytes one GPU sends ' +
  '(<code>bytes_per_chip</code>, the nccl-tests count) over the collective’s time, which is nccl-tests’ bus bandwidth. ' +
  'The dashed line, <code>peak_bandwidth</code>, is the GPU’s NVLink egress (and its share of the node’s NICs ' +
  'across nodes). Each step of the collective costs at least the latency, so small messages fall short. ' +
  'Numbers from the latency-plus-bandwidth model, not a measurement.';

// The shadow root of <sb-collective-sweep>: the form, the plot, the readout and the caption.
// values: the form's strings; run: runSweep's answer.
export function collectiveSweepHTML({ schema, chips, values, run }) {
  const inputs = sweepInputs(schema, chips, values.chip);
  const names = sweepFields(chips, values.chip);
  const gpu = names === GPU_FIELDS;
  const error = run.error;
  const fields = names.map((name) => fieldHTML(inputs[name], String(values[name] ?? ''), {
    prefix: 'bw', error, chips, label: name === 'shape' ? (gpu ? 'GPUs' : 'Axis size or axes') : undefined,
  })).join('');
  const general = error && !names.includes(error.field) ? error.message : '';
  const body = run.sweep ? bandwidthSVG(run.sweep, sweepTitle(values, chips)) : '';
  return `<div class="sb-calc sb-bw${error ? ' is-stale' : ''}"><form class="fields aligned" novalidate>${fields}</form>` +
    `<p class="error general" data-error-for="">${esc(general)}</p>` +
    `<div class="plot" data-plot>${body}</div>` +
    `${readoutHTML(run.sweep)}` +
    `<p class="caption">${gpu ? GPU_CAPTION : CAPTION}</p></div>`;
}
