// The pipeline schedule as a Gantt grid (pure: the builder and <sb-pipeline> share it). One row
// per stage, time left to right; every box is one work item of the engine's simulation
// (simulatePipeline): a microbatch's forward (F), backward (B) or, for the zero-bubble schedule,
// its input-gradient (I) and weight-gradient (W) halves. Playing steps through the simulation's
// frames (the intervals between events): items finished, running and still to come are told
// apart by class, and the activations each stage holds are the frame's.
import { escapeHTML as esc } from '../core/escape.js';
import { formatValue } from '../core/format.js';
import { fieldHTML } from '../core/widget-form.js';
import { linearAxis, ticksSVG } from '../core/axes.js';
import { simControlsHTML } from '../core/sim-controls.js';
import { CalculatorError } from '../../../bindings/wasm/engine.mjs';

export const PIPELINE_FIELDS = ['stages', 'microbatches', 'schedule', 'virtual_stages',
  'forward_cost', 'backward_input_cost', 'backward_weight_cost', 'transfer_time'];
const MAIN_FIELDS = PIPELINE_FIELDS.slice(0, 4);
// A page draws at most this many frames and items: beyond them a grid is unreadable anyway.
export const MAX_FRAMES = 4096;
const MAX_ITEMS = 6000;
export const DEFAULT_SPEED = 4;
const SPEEDS = [1, 2, 4, 8, 16];

const KIND_NAMES = { F: 'forward', B: 'backward', I: 'input gradient', W: 'weight gradient' };

// The engine's run for the fields (strings by name; '' takes the default). Throws the engine's
// CalculatorError for a bad field. A run too big to draw is refused by the engine before it
// simulates (max_items), so an edit never blocks the page; the message says where to go.
export function runPipeline(engine, values) {
  const request = { max_frames: MAX_FRAMES, max_items: MAX_ITEMS };
  for (const name of PIPELINE_FIELDS) if (values[name] !== undefined && values[name] !== '') request[name] = values[name];
  try {
    return engine.simulatePipeline(request);
  } catch (err) {
    if (!(err instanceof CalculatorError) || !err.message.endsWith(`over its budget of ${MAX_ITEMS}`)) throw err;
    throw new CalculatorError({
      code: err.code, field: err.field,
      message: `${err.message}, what this page draws; scalebook simulate pipeline takes more`,
    });
  }
}

const ROW = 34;
const LEFT = 74;
const WIDTH = 720;
const TOP = 8;

// Where frame `index` is: the time it starts (the step's end after the last frame).
export function frameTime(sim, index) {
  return index < sim.frames.length ? sim.frames[index].time : sim.step_time;
}

function itemState(item, t) {
  if (item.end <= t) return 'done';
  if (item.start <= t) return 'running';
  return 'todo';
}

// The grid at time t (a frame's start).
export function ganttSVG(sim, t = 0) {
  const stages = sim.stages.length;
  const height = TOP + stages * ROW + 40;
  const x = linearAxis([0, sim.step_time], [LEFT, WIDTH - 12]);
  const boxes = sim.items.map((item, i) => {
    const x0 = x(item.start);
    const w = Math.max(x(item.end) - x0 - 1, 1);
    const y = TOP + item.stage * ROW + 3;
    const label = `${item.kind}${item.microbatch + 1}`;
    const text = w >= 7 * label.length + 4
      ? `<text x="${(x0 + w / 2).toFixed(1)}" y="${y + 18}" text-anchor="middle">${esc(label)}</text>` : '';
    return `<g class="item kind-${item.kind} ${itemState(item, t)}" data-item="${i}">` +
      `<rect x="${x0.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${ROW - 6}" rx="3">` +
      `<title>stage ${item.stage + 1}, microbatch ${item.microbatch + 1}${sim.schedule === 'interleaved' ? `, chunk ${item.chunk + 1}` : ''}: ` +
      `${KIND_NAMES[item.kind]} from ${formatValue(item.start, '')} to ${formatValue(item.end, '')}</title></rect>${text}</g>`;
  }).join('');
  const rows = sim.stages.map((_, s) => `<text class="row-label" x="${LEFT - 8}" y="${TOP + s * ROW + 21}" text-anchor="end">stage ${s + 1}</text>`).join('');
  const bottom = TOP + stages * ROW;
  const ticks = ticksSVG(x, x.ticks(6), { side: 'bottom', edge: bottom, across: [TOP, bottom], label: (v) => formatValue(v, '') });
  const now = x(t);
  return `<svg class="gantt" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${esc(`${sim.schedule} schedule of ${stages} stages`)}">` +
    `${ticks}${rows}${boxes}<line class="now" data-now x1="${now}" y1="${TOP - 4}" x2="${now}" y2="${bottom + 4}"/>` +
    `<text class="axis-title" x="${(LEFT + WIDTH) / 2}" y="${height}" dy="-0.3em" text-anchor="middle">time (units of the costs)</text></svg>`;
}

const pct = (v) => (v === null || v === undefined ? 'none' : `${(100 * v).toFixed(1)}%`);

// The figures beside the grid: simulated and closed-form, and the frame's position.
export function statsView(sim, index) {
  const t = frameTime(sim, index);
  const held = index < sim.frames.length ? sim.frames[index].activations : sim.stages.map(() => 0);
  return {
    time: `${formatValue(t, '')} of ${formatValue(sim.step_time, '')}`,
    held: held.map((a) => formatValue(a, '')).join(', '),
    valuetext: `time ${formatValue(t, '')} of ${formatValue(sim.step_time, '')}`,
  };
}

function statHTML(key, label, value) {
  return `<div class="out"><dt>${esc(label)}</dt><dd data-stat="${key}">${esc(value)}</dd></div>`;
}

function statsHTML(sim, index) {
  const s = sim ? statsView(sim, index) : {};
  return `<dl class="outputs sim-stats">` +
    statHTML('time', 'Time', s.time ?? '—') +
    statHTML('held', 'Activations held now, per stage', s.held ?? '—') +
    statHTML('step', 'Step time', sim ? formatValue(sim.step_time, '') : '—') +
    statHTML('ideal', 'Work per stage (no bubble)', sim ? formatValue(sim.ideal_time, '') : '—') +
    statHTML('bubble', 'Bubble fraction', sim ? pct(sim.bubble_fraction) : '—') +
    statHTML('closed', 'Bubble, closed form', sim ? pct(sim.closed_form_bubble) : '—') +
    statHTML('peak', 'Peak activations (stage 1)', sim ? formatValue(sim.peak_activations, '') : '—') +
    `</dl>`;
}

function controlsHTML(sim) {
  return simControlsHTML({
    last: sim ? sim.frames.length : 0,
    index: 0,
    enabled: Boolean(sim),
    words: { frame: 'Event', back: 'Step back one event', forward: 'Step forward one event', reset: 'Reset to the start', rate: 'events/s' },
    speeds: SPEEDS,
    speed: DEFAULT_SPEED,
  });
}

// The whole shadow root. schema: the pipeline calculator's; values: field strings by name.
export function pipelineHTML({ schema, values = {}, sim = null, error = null }) {
  const field = (name) => fieldHTML(schema.inputs.find((i) => i.name === name), String(values[name] ?? ''), { prefix: 'pl', error });
  const more = PIPELINE_FIELDS.filter((n) => !MAIN_FIELDS.includes(n));
  const general = error && !PIPELINE_FIELDS.includes(error.field) ? error.message : '';
  const open = more.some((n) => values[n] || error?.field === n) ? ' open' : '';
  const grid = sim ? ganttSVG(sim, 0) : '<p class="sim-empty">No schedule to show: fix the field marked above.</p>';
  return `<div class="sb-calc sb-sim sb-pipeline${error ? ' is-stale' : ''}">` +
    `<p class="desc">${esc(schema.description.replace(/^a /, 'A '))}.</p>` +
    `<form novalidate><div class="fields">${MAIN_FIELDS.map(field).join('')}</div>` +
    `<details class="advanced"${open}><summary>Costs and transfer time</summary><div class="fields">${more.map(field).join('')}</div></details></form>` +
    `<p class="error general" data-error-for="">${esc(general)}</p>` +
    controlsHTML(sim) +
    `<div class="gantt-box" data-grid tabindex="0" role="region" aria-label="The schedule, stage by stage">${grid}</div>` +
    statsHTML(sim, 0) +
    `<p class="sim-legend"><span class="key key-F">F forward</span> <span class="key key-B">B backward</span> ` +
    `<span class="key key-I">I input gradient</span> <span class="key key-W">W weight gradient</span> ` +
    `<span class="key key-idle">empty: the bubble</span></p></div>`;
}
