// Pure renderers of <sb-systolic-sim>: the shadow root's markup (built at build time for the
// static first frame, and in the browser) and the per-cycle view the element writes in place.
// No DOM, no engine: every number comes from an engine simulation (engine.simulateSystolic)
// or the closed form (engine.calculate('systolic')) passed in; this file only lays them out.
import { escapeHTML } from '../core/escape.js';
import { formatValue } from '../core/format.js';
import { schemaDefault } from '../core/widget-form.js';
import { sizeAttributes } from '../core/sizes.js';
import { simControlsHTML } from '../core/sim-controls.js';

// The fields, in the order the form shows them; each is a systolic calculator input.
export const SIM_FIELDS = ['rows', 'cols', 'M', 'N', 'K', 'dataflow', 'convention'];
// The page's step budget (PEs x cycles): every frame is kept for scrubbing, and this keeps
// them to a few MB; a bigger shape gets the engine's budget error and its hint.
export const PAGE_PE_STEPS = 262144;
export const SPEEDS = [1, 2, 4, 8, 16, 32];
export const DEFAULT_SPEED = 4;

// PeFlag bits of engine/include/scalebook/systolic_sim.h.
export const FLAG = { weight: 1, activation: 2, psum: 4, shadow: 8, mac: 16, stationaryA: 32 };

const CELL = 64;
const GAP = 4;

// How each dataflow moves values, in words (the legend under the grid).
const FLOWS = {
  ws: 'Weight-stationary: B’s values (w) stay in the PEs; A’s values (a) move right one PE a cycle; partial sums (Σ) move down and leave at the bottom edge.',
  is: 'Input-stationary: A’s values (a) stay in the PEs; B’s values (w) move right one PE a cycle; partial sums (Σ) move down and leave at the bottom edge.',
  os: 'Output-stationary: A’s values (a) move right and B’s values (w) move down; each PE accumulates one element of C (Σ) and hands it out after its K-th MAC.',
};

// The request simulateSystolic takes for these field values (strings, as typed).
export function simRequest(values, maxFrames) {
  const request = { max_pe_steps: PAGE_PE_STEPS, max_frames: Math.min(maxFrames, PAGE_PE_STEPS) };
  for (const name of SIM_FIELDS) {
    const value = String(values[name] ?? '').trim();
    if (value !== '') request[name] = value;
  }
  return request;
}

// The simulation with the shape it ran on (the field values, or the schema's defaults where a
// field is empty), which the grid needs and the engine's result does not repeat.
export function withShape(sim, schema, values) {
  const pick = (name) => {
    const value = String(values[name] ?? '').trim();
    return value === '' ? schema.inputs.find((i) => i.name === name).default : value;
  };
  return { ...sim, rows: Number(pick('rows')), cols: Number(pick('cols')), dataflow: String(pick('dataflow')) };
}

// The closed form and the simulation of `values` (`frames` cycles recorded; default all, which
// is the closed form's count). `engine` is the loaded engine; throws its CalculatorError.
export function runSimulation(engine, schema, values, frames = Infinity) {
  const inputs = Object.fromEntries(Object.entries(simRequest(values, 0)).filter(([k]) => SIM_FIELDS.includes(k)));
  const closed = engine.calculate('systolic', inputs, { steps: false });
  // Under scalesim the closed form gives the last cycle's 0-based index, one less than the
  // cycles the array runs, and the player should show every one of them.
  const convention = String(simRequest(values, 0).convention ?? schema.inputs.find((i) => i.name === 'convention')?.default);
  const cycles = closed.compute_cycles + (convention === 'scalesim' ? 1 : 0);
  const sim = engine.simulateSystolic(simRequest(values, Math.min(frames, cycles)));
  return { closed, sim: withShape(sim, schema, values) };
}

// MACs done up to and including each frame: the running sum of the engine's per-cycle MACs.
export function macsSoFar(sim) {
  let total = 0;
  return sim.frames.map((frame) => (total += frame.macs));
}

function num(x) {
  return formatValue(x, '', 'num');
}

// What one PE shows: its three values (blank when the register holds nothing) and its class.
export function cellView(frame, i, dataflow) {
  const { weight, activation, psum, flags } = frame.pes;
  const f = flags[i];
  const stationary = dataflow === 'os' ? 'p' : (f & FLAG.stationaryA ? 'a' : 'w');
  const state = f & FLAG.mac ? 'mac' : (f & (FLAG.weight | FLAG.activation | FLAG.psum) ? 'busy' : 'idle');
  return {
    w: f & FLAG.weight ? `w ${num(weight[i])}` : '',
    a: f & FLAG.activation ? `a ${num(activation[i])}` : '',
    p: f & FLAG.psum ? `Σ ${num(psum[i])}` : '',
    cls: `pe pe-${state}${f & FLAG.shadow ? ' pe-shadow' : ''} st-${stationary}`,
  };
}

// The numbers beside the grid for frame `index`: all from the simulation and the closed form.
export function statsView(sim, index, pes, cumulative = macsSoFar(sim)) {
  const frame = sim.frames[index];
  const elapsed = frame.cycle + 1;
  const done = cumulative[index];
  return {
    cycle: `${elapsed} of ${sim.cycles}`,
    macsNow: String(frame.macs),
    macsSoFar: `${done} of ${sim.macs}`,
    utilization: formatPercent(done / (pes * elapsed)),
    total: formatPercent(sim.macs / sim.pe_steps),
    valuetext: `cycle ${elapsed} of ${sim.cycles}`,
  };
}

function formatPercent(x) {
  return `${formatValue(100 * x, '', 'num')}%`;
}

// The grid of PEs as SVG for frame `frame` (null: empty PEs); cells are data-pe="i".
export function gridSVG(rows, cols, frame, dataflow) {
  const width = cols * (CELL + GAP) - GAP;
  const height = rows * (CELL + GAP) - GAP;
  const cells = [];
  for (let r = 0; r < rows; ++r) {
    for (let c = 0; c < cols; ++c) {
      const i = r * cols + c;
      const view = frame ? cellView(frame, i, dataflow) : { w: '', a: '', p: '', cls: 'pe pe-idle' };
      const x = c * (CELL + GAP);
      const y = r * (CELL + GAP);
      cells.push(`<g data-pe="${i}" class="${view.cls}" transform="translate(${x},${y})">` +
        `<rect width="${CELL}" height="${CELL}" rx="5"/><circle class="shadow-dot" cx="${CELL - 9}" cy="9" r="5"/>` +
        `<text x="6" y="18" class="v-w">${escapeHTML(view.w)}</text>` +
        `<text x="6" y="37" class="v-a">${escapeHTML(view.a)}</text>` +
        `<text x="6" y="56" class="v-p">${escapeHTML(view.p)}</text></g>`);
    }
  }
  const minWidth = Math.max(cols * 2.9, 10);
  return `<svg class="pe-grid" viewBox="-2 -2 ${width + 4} ${height + 4}" role="img" ` +
    `${sizeAttributes({ minWidth: `${minWidth}rem` })} aria-label="${rows} by ${cols} array of processing elements">` +
    `${cells.join('')}</svg>`;
}

function fieldHTML(input, value, error) {
  const name = escapeHTML(input.name);
  const message = error?.field === input.name ? error.message : '';
  const common = `id="sim-${name}" name="${name}" title="${escapeHTML(input.description)}" ` +
    `aria-describedby="sim-err-${name}"${message ? ' aria-invalid="true"' : ''}`;
  const chosen = value === '' ? String(input.default ?? '') : value;
  let control;
  if (input.type === 'choice') {
    const choices = input.choices.includes(chosen) ? input.choices : [...input.choices, chosen];
    control = `<select ${common}>${choices.map((c) => `<option value="${escapeHTML(c)}"` +
      `${c === chosen ? ' selected' : ''}>${escapeHTML(c)}</option>`).join('')}</select>`;
  } else {
    control = `<input ${common} type="text" inputmode="numeric" autocomplete="off" spellcheck="false" ` +
      `value="${escapeHTML(value)}">`;
  }
  return `<div class="field"><label for="sim-${name}">${name}</label>${control}` +
    `<span class="error" id="sim-err-${name}" data-error-for="${name}">${escapeHTML(message)}</span></div>`;
}

function statHTML(key, label, value) {
  return `<div class="out"><dt>${label}</dt><dd data-stat="${key}">${escapeHTML(value)}</dd></div>`;
}

// The sentence comparing the simulator's count with the closed form's compute_cycles.
export function checkText(sim, closed) {
  if (!sim || !closed) return '';
  const same = sim.cycles === closed.compute_cycles;
  return `closed form: ${closed.compute_cycles} cycles — ` +
    (same ? 'matches the closed form' : `differs from the closed form by ${sim.cycles - closed.compute_cycles}`);
}

function statsHTML(sim, index, pes) {
  const s = sim ? statsView(sim, index, pes) : {};
  return `<dl class="outputs sim-stats">` +
    statHTML('cycle', 'Cycle', s.cycle ?? '—') +
    statHTML('macs-now', 'MACs this cycle', s.macsNow ?? '—') +
    statHTML('macs', 'MACs so far', s.macsSoFar ?? '—') +
    statHTML('utilization', 'Utilization so far', s.utilization ?? '—') +
    statHTML('total', 'Utilization, whole run', s.total ?? '—') +
    statHTML('sim-cycles', 'Simulated cycles', sim ? String(sim.cycles) : '—') +
    `</dl>`;
}

function controlsHTML(sim, index) {
  return simControlsHTML({
    last: sim ? sim.frames.length - 1 : 0,
    index,
    valuetext: sim ? statsView(sim, index, 1).valuetext : '',
    enabled: Boolean(sim),
    words: { frame: 'Cycle', back: 'Step back one cycle', forward: 'Step forward one cycle', reset: 'Reset to the first cycle', rate: 'cycles/s' },
    speeds: SPEEDS,
    speed: DEFAULT_SPEED,
  });
}

// The whole shadow root. schema: the systolic calculator's; values: field strings by name;
// sim: a simulateSystolic result with frames (or null); closed: calculate('systolic') result;
// error: {field, message} to show beside its field.
export function systolicSimHTML({ schema, values = {}, sim = null, closed = null, index = 0, error = null }) {
  const inputs = SIM_FIELDS.map((name) => schema.inputs.find((i) => i.name === name));
  const known = new Set(SIM_FIELDS);
  const general = error && !known.has(error.field) ? error.message : '';
  const rows = sim?.rows ?? 0;
  const cols = sim?.cols ?? 0;
  const dataflow = sim?.dataflow ?? schemaDefault(schema, 'dataflow');
  const grid = sim ? gridSVG(rows, cols, sim.frames[index] ?? null, dataflow)
    : '<p class="sim-empty">No simulation to show: fix the field marked above.</p>';
  const truncated = sim?.frames_truncated
    ? `<p class="sim-note">Only the first ${sim.frames.length} cycles are recorded for this shape.</p>` : '';
  return `<div class="sb-calc sb-sim${error ? ' is-stale' : ''}" data-dataflow="${escapeHTML(dataflow)}">` +
    `<p class="desc">Cycle by cycle, ${escapeHTML(schema.description.replace(/^cycles of /, ''))}: every value moves one PE a cycle.</p>` +
    `<form class="fields" novalidate>${inputs.map((input) => fieldHTML(input, String(values[input.name] ?? ''), error)).join('')}</form>` +
    `<p class="error general" data-error-for="">${escapeHTML(general)}</p>` +
    controlsHTML(sim, index) +
    `<div class="sim-body"><div class="sim-grid" data-grid tabindex="0" role="region" aria-label="The array, cycle by cycle">${grid}</div>` +
    `<div class="sim-side">${statsHTML(sim, index, rows * cols)}` +
    `<p class="sim-check" data-stat="check">${escapeHTML(checkText(sim, closed))}</p></div></div>` +
    `<p class="sim-legend"><span data-flow>${escapeHTML(legendText(dataflow))}</span> ` +
    `<span class="key key-mac">MAC this cycle</span> <span class="key key-busy">holds data</span> ` +
    `<span class="key key-shadow">next fold’s value waiting (shadow)</span></p>${truncated}</div>`;
}

export function legendText(dataflow) {
  return FLOWS[dataflow] ?? '';
}
