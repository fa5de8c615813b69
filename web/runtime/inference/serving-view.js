// The serving simulation drawn (pure: the element and the tests share it): the queue and the
// busy slots over time, the tokens per second, a timeline of the first requests (waiting, up
// to their first token, decoding) and the TTFT / TPOT / latency percentiles. A frame is one
// point of the engine's time series; playing moves a time line across the three pictures.
import { escapeHTML as esc } from '../core/escape.js';
import { formatValue } from '../core/format.js';
import { fieldHTML } from '../core/widget-form.js';
import { linearAxis, ticksSVG } from '../core/axes.js';
import { simControlsHTML } from '../core/sim-controls.js';

// The simulation's fields a reader edits: the first four in view, the rest folded.
export const SERVING_FIELDS = ['mode', 'rate', 'slots', 'requests', 'model', 'chip', 'shape', 'tp',
  'prompt_dist', 'prompt', 'prompt_min', 'prompt_max', 'output_dist', 'output', 'output_min',
  'output_max', 'seed', 'prefill_replicas', 'kv_bandwidth'];
const MAIN_FIELDS = SERVING_FIELDS.slice(0, 4);
const DISTS = ['fixed', 'uniform', 'exponential'];
const FIELD_INFO = {
  mode: ['Batching', '', ['continuous', 'static', 'disaggregated'], ['continuous', 'static', 'disaggregated (prefill apart)']],
  rate: ['Arrivals', 'requests/s'],
  slots: ['Slots per replica', ''],
  requests: ['Requests', ''],
  model: ['Model', '', null],
  chip: ['Chip', '', null],
  shape: ['Slice shape', '', null],
  tp: ['Tensor parallelism', ''],
  prompt_dist: ['Prompt lengths', '', DISTS],
  prompt: ['Prompt (fixed, or mean)', 'tokens'],
  prompt_min: ['Shortest prompt', 'tokens'],
  prompt_max: ['Longest prompt', 'tokens'],
  output_dist: ['Output lengths', '', DISTS],
  output: ['Output (fixed, or mean)', 'tokens'],
  output_min: ['Shortest output', 'tokens'],
  output_max: ['Longest output', 'tokens'],
  seed: ['Seed', ''],
  prefill_replicas: ['Prefill replicas (disaggregated)', ''],
  kv_bandwidth: ['KV transfer (0: instant)', 'B/s'],
};
// What a page asks for: points of each series and requests on the timeline.
const SAMPLES = 120;
const TIMELINE = 40;
export const SPEEDS = [5, 10, 20, 40];
export const DEFAULT_SPEED = 20;

// The engine's run for the fields (strings by name; '' takes the engine's default). Throws the
// engine's CalculatorError for a bad field; a run that does not fit in HBM comes back with
// fits false and its reason.
export function runServing(engine, values) {
  const request = { samples: SAMPLES, timeline: TIMELINE };
  for (const name of SERVING_FIELDS) if (values[name] !== undefined && values[name] !== '') request[name] = values[name];
  return engine.simulate('serving', request);
}

export const frameCount = (sim) => (sim?.fits ? sim.series.time.length : 1);

const WIDTH = 720;
const LEFT = 64;
const RIGHT = WIDTH - 12;

function timeAxis(sim) {
  return linearAxis([0, sim.duration], [LEFT, RIGHT]);
}

// Where the time line of frame `index` stands on every picture.
export function nowX(sim, index) {
  return timeAxis(sim)(sim.series.time[index] ?? 0);
}

function nowLine(x, top, bottom) {
  return `<line class="now" data-now x1="${x}" y1="${top}" x2="${x}" y2="${bottom}"/>`;
}

// A chart of series over the run's time; lines: [{ values, cls }].
function chartSVG(sim, { lines, label, unit, index }) {
  const height = 150;
  const top = 8;
  const bottom = height - 30;
  const x = timeAxis(sim);
  const most = Math.max(1, ...lines.flatMap((l) => Array.from(l.values)));
  const y = linearAxis([0, most], [bottom, top]);
  const time = sim.series.time;
  const paths = lines.map(({ values, cls }) => {
    const points = Array.from(values, (v, i) => `${x(time[i]).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    return `<polyline class="series ${cls}" points="${points}"/>`;
  }).join('');
  const xs = ticksSVG(x, x.ticks(6), { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => formatValue(v, 's') });
  // Bare numbers on the axis (a unit on each would not fit the margin), the unit once above.
  const ys = ticksSVG(y, y.ticks(4), { side: 'left', edge: LEFT, across: [LEFT, RIGHT], label: (v) => formatValue(v, '') });
  const title = unit ? `<text class="axis-title" x="${LEFT + 6}" y="${top + 10}" fill="currentColor">${esc(unit)}</text>` : '';
  return `<svg class="serving-chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${esc(label)}">` +
    `${xs}${ys}${title}${paths}${nowLine(nowX(sim, index), top, bottom)}</svg>`;
}

// One row a request: waiting, then up to its first token, then decoding.
function timelineSVG(sim, index) {
  const tl = sim.timeline;
  const rows = tl.arrival.length;
  const row = 9;
  const top = 6;
  const bottom = top + rows * row;
  const height = bottom + 30;
  const x = timeAxis(sim);
  const bars = Array.from(tl.arrival, (arrival, i) => {
    const first = tl.first_token[i];
    const served = Math.min(tl.admitted[i], first);
    const y = top + i * row;
    const seg = (cls, a, b) => `<rect class="${cls}" x="${x(a).toFixed(1)}" y="${y}" width="${Math.max(x(b) - x(a), 0.5).toFixed(1)}" height="${row - 2}"/>`;
    const title = `request ${i + 1} (${tl.prompt[i]} + ${tl.output[i]} tokens): arrives at ${formatValue(arrival, 's')}, ` +
      `first token at ${formatValue(first, 's')}, done at ${formatValue(tl.finish[i], 's')}`;
    return `<g><title>${esc(title)}</title>${seg('wait', arrival, served)}${seg('prefill', served, first)}${seg('decode', first, tl.finish[i])}</g>`;
  }).join('');
  const xs = ticksSVG(x, x.ticks(6), { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => formatValue(v, 's') });
  return `<svg class="serving-chart timeline" viewBox="0 0 ${WIDTH} ${height}" role="img" ` +
    `aria-label="${esc(`Timeline of the first ${rows} requests: waiting, prefill up to the first token, decoding`)}">` +
    `${xs}${bars}${nowLine(nowX(sim, index), top, bottom)}</svg>`;
}

// The figures at frame `index`, and the scrub's spoken value.
export function frameView(sim, index) {
  const s = sim.series;
  const t = s.time[index] ?? 0;
  return {
    time: `${formatValue(t, 's')} of ${formatValue(sim.duration, 's')}`,
    queue: formatValue(s.queue[index] ?? 0, ''),
    active: `${formatValue(s.active[index] ?? 0, '')} of ${formatValue(sim.slots * sim.decode_replicas, '')}`,
    rate: formatValue(s.tokens_per_s[index] ?? 0, 'tokens/s'),
    valuetext: `time ${formatValue(t, 's')}: ${formatValue(s.queue[index] ?? 0, '')} waiting, ${formatValue(s.active[index] ?? 0, '')} slots busy`,
  };
}

function percentilesHTML(sim) {
  const cell = (p, key) => `<td>${esc(p[key] === null ? 'none' : formatValue(p[key], 's'))}</td>`;
  const rows = [['ttft', 'Time to first token'], ['tpot', 'Time per output token'], ['latency', 'Latency, arrival to last token']]
    .map(([key, label]) => `<tr><th scope="row">${label}</th>${['p50', 'p90', 'p99', 'mean'].map((c) => cell(sim[key], c)).join('')}</tr>`);
  return `<table class="percentiles"><caption>Per request, over ${formatValue(sim.requests, '')} requests</caption>` +
    `<thead><tr><th scope="col">Measure</th><th scope="col">p50</th><th scope="col">p90</th><th scope="col">p99</th><th scope="col">mean</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table>`;
}

function statHTML(key, label, value) {
  return `<div class="out"><dt>${esc(label)}</dt><dd data-stat="${key}">${esc(value)}</dd></div>`;
}

// What a run changes: the pictures, the figures and the percentiles.
export function picturesHTML(sim, index = 0) {
  if (!sim) return '<p class="sim-empty">No run to show: fix the field marked above.</p>';
  if (!sim.fits) return `<p class="sim-empty">Nothing to serve: ${esc(sim.reason)}.</p>`;
  const f = frameView(sim, index);
  const pct = (v) => `${(100 * v).toFixed(1)}%`;
  return `<dl class="outputs sim-stats">` +
    statHTML('time', 'Time', f.time) + statHTML('queue', 'Waiting', f.queue) +
    statHTML('active', 'Slots busy', f.active) + statHTML('rate', 'Output now', f.rate) +
    statHTML('throughput', 'Output, whole run', `${formatValue(sim.tokens_per_s, 'tokens/s')} (${formatValue(sim.tokens_per_s_per_chip, 'tokens/s')} a chip)`) +
    statHTML('busy', 'Replicas busy', pct(sim.busy_fraction)) +
    statHTML('slots', 'Slots holding a request', pct(sim.slot_utilization)) +
    `</dl>${percentilesHTML(sim)}` +
    chartSVG(sim, { index, unit: '', label: 'Requests waiting (dashed) and slots busy (solid) over time',
      lines: [{ values: sim.series.queue, cls: 'queue' }, { values: sim.series.active, cls: 'active' }] }) +
    chartSVG(sim, { index, unit: 'tokens/s', label: 'Output tokens per second over time',
      lines: [{ values: sim.series.tokens_per_s, cls: 'tokens' }] }) +
    timelineSVG(sim, index) +
    `<p class="sim-legend"><span class="key key-wait">waiting</span> <span class="key key-prefill">to the first token</span> ` +
    `<span class="key key-decode">decoding</span></p>`;
}

function controlsHTML(sim) {
  return simControlsHTML({
    last: frameCount(sim) - 1, index: 0, enabled: Boolean(sim?.fits),
    words: { frame: 'Time', back: 'Step back', forward: 'Step forward', reset: 'Reset to the start', rate: 'points/s' },
    speeds: SPEEDS, speed: DEFAULT_SPEED,
  });
}

// The whole shadow root; values: field strings by name; the run's inputs give the defaults.
export function servingHTML({ values = {}, sim = null, error = null }) {
  const field = (name) => {
    const [label, unit, choices, choice_labels] = FIELD_INFO[name];
    const type = choices ? 'choice' : choices === null ? 'text' : 'number';
    const input = { name, type, unit, choices: choices ?? [], choice_labels, default: sim?.inputs?.[name] ?? null };
    return fieldHTML(input, String(values[name] ?? ''), { prefix: 'sv', error, label });
  };
  const more = SERVING_FIELDS.filter((n) => !MAIN_FIELDS.includes(n));
  const general = error && !SERVING_FIELDS.includes(error.field) ? error.message : '';
  const open = more.some((n) => values[n] || error?.field === n) ? ' open' : '';
  return `<div class="sb-calc sb-sim sb-serving${error ? ' is-stale' : ''}">` +
    `<p class="desc">Requests arrive at random, wait for a slot, are prefilled and then decoded token by token.</p>` +
    `<form novalidate><div class="fields">${MAIN_FIELDS.map(field).join('')}</div>` +
    `<details class="advanced"${open}><summary>Model, slice and request lengths</summary><div class="fields">${more.map(field).join('')}</div></details></form>` +
    `<p class="error general" data-error-for="">${esc(general)}</p>` +
    controlsHTML(sim) +
    `<div class="serving-box" data-picture tabindex="0" role="region" aria-label="The run over time">${picturesHTML(sim, 0)}</div></div>`;
}
