// Pure renderers of <sb-collective-sim>: a collective (AllGather, ReduceScatter, AllReduce,
// AllToAll) played step by step on a ring, a line or a 2D torus. Everything that happens comes
// from the engine: the collective calculator prices it (time, bound, the worked formula) and
// engine.simulateCollective moves the chunks (steps of moves, the state of every device after
// each step, partial sums). This file lays the devices out, colours chunks by the device they
// started on and draws each step's moves as arrows with chips travelling along them.
// No DOM, no engine state.
import { escapeHTML } from '../core/escape.js';
import { formatValue } from '../core/format.js';
import { asError, effectiveValue, fieldHTML, outputsListHTML, stepsHTML } from '../core/widget-form.js';
import { withChoices } from '../core/input-groups.js';
import { sizeAttributes } from '../core/sizes.js';
import { simControlsHTML } from '../core/sim-controls.js';

export const CALCULATOR = 'collective';
export const SIM_FIELDS = ['op', 'shape', 'bytes', 'wraparound', 'bidirectional', 'latency', 'chip'];
export const SPEEDS = [0.5, 1, 2, 4];
export const DEFAULT_SPEED = 1;
export const REDUCING = ['reduce-scatter', 'all-reduce'];
// Devices x chunks drawn cell by cell up to this; past it each device shows one bar.
export const MAX_CELLS = 4096;
export const COST_OUTPUTS = ['time', 'bound', 't_bandwidth', 't_latency', 'hops', 'busbw', 'algbw', 'bytes_per_chip',
  'crossover_bytes', 'latency_threshold_bytes', 'link_bandwidth', 'chips', 'wraps', 'efficiency'];
const SHAPE_INPUT = { name: 'shape', type: 'text', unit: '', label: 'Shape', description: 'devices: 8 for a ring of 8, 4x4 for a 2D torus' };
// Fields of the collective calculator that the simulator's shape replaces.
const SHAPE_FIELDS = ['axis_size', 'axes'];

// The form's inputs, from the collective calculator's schema: its op, bytes, bidirectional,
// latency and chip; a shape (its axes, or its axis size, by default); wraparound yes or no
// (a simulation cannot be "auto").
export function simInputs(schema) {
  const pick = (name) => schema.inputs.find((i) => i.name === name);
  const axes = pick('axes')?.default;
  const shape = { ...SHAPE_INPUT, default: axes ? String(axes) : String(pick('axis_size')?.default ?? '') };
  const wrap = pick('wraparound');
  const wraparound = wrap && {
    ...withChoices(wrap, (c) => c !== 'auto'), default: wrap.default === 'auto' || !wrap.default ? 'yes' : wrap.default,
  };
  const inputs = { op: pick('op'), shape, bytes: pick('bytes'), wraparound, bidirectional: pick('bidirectional'), latency: pick('latency'), chip: pick('chip') };
  return SIM_FIELDS.map((name) => inputs[name]).filter(Boolean);
}

function fieldValue(schema, values, name) {
  if (name === 'shape') return String(values?.shape ?? '').trim() || simInputs(schema).find((i) => i.name === 'shape').default;
  if (name === 'wraparound') return String(values?.wraparound ?? '').trim() || simInputs(schema).find((i) => i.name === 'wraparound')?.default || 'yes';
  return effectiveValue(schema, values, name);
}

// The collective calculator's request for these fields: a shape with an x is its `axes`,
// a single number its `axis_size`.
export function costRequest(schema, values) {
  const request = {};
  for (const name of ['op', 'bytes', 'wraparound', 'bidirectional', 'latency', 'chip']) {
    const text = name === 'wraparound' ? fieldValue(schema, values, name) : String(values?.[name] ?? '').trim();
    if (text !== '') request[name] = text;
  }
  const shape = fieldValue(schema, values, 'shape');
  if (shape.includes('x')) request.axes = shape;
  else request.axis_size = shape;
  return request;
}

const asNumber = (text) => (text !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

// The per-hop latency the simulation uses: the field, or the schema's default, or the one the
// calculator took from the chip (its latency term over its hops).
export function latencyOf(schema, values, cost) {
  const typed = String(values?.latency ?? '').trim();
  if (typed !== '') return asNumber(typed);
  const fallback = schema.inputs.find((i) => i.name === 'latency')?.default;
  if (typeof fallback === 'number') return fallback;
  return cost.hops > 0 ? cost.t_latency / cost.hops : 0;
}

// Small whole numbers to reduce, one per device and chunk: device d holds d + 1 everywhere, so
// a fully reduced chunk holds 1 + 2 + ... + n.
export function sampleValues(devices) {
  return Array.from({ length: devices }, (_, d) => Array(devices).fill(d + 1));
}

export function simRequest(schema, values, cost) {
  const op = fieldValue(schema, values, 'op');
  const request = {
    op, shape: fieldValue(schema, values, 'shape'), bytes: asNumber(fieldValue(schema, values, 'bytes')),
    wraparound: fieldValue(schema, values, 'wraparound'), bidirectional: fieldValue(schema, values, 'bidirectional'),
    bandwidth: cost.link_bandwidth, latency: latencyOf(schema, values, cost),
  };
  if (values?.sums === 'yes' && REDUCING.includes(op)) request.values = sampleValues(cost.chips);
  return request;
}

// An error about the calculator's axis fields belongs to the shape field here; one about the
// link bandwidth, to the chip it came from.
function placed(error) {
  if (SHAPE_FIELDS.includes(error.field)) return { ...error, field: 'shape' };
  if (error.field === 'bandwidth') return { ...error, field: 'chip' };
  return error;
}

// { cost, sim, error }: the calculator's closed form and the engine's simulation of the fields.
export function runCollective(engine, schema, values) {
  let cost;
  try {
    cost = engine.calculate(CALCULATOR, costRequest(schema, values));
    return { cost, sim: engine.simulateCollective(simRequest(schema, values, cost)), error: null };
  } catch (err) {
    return { cost: cost ?? null, sim: null, error: placed(asError(err)) };
  }
}

// How a device's chunks sit in its box: AllToAll blocks by source (rows) and destination
// (columns); on a 2D torus chunks like the mesh; on one axis a near-square block (a square box
// keeps the ring's circle small, so the cells stay big on a phone).
export function chunkGrid(sim) {
  if (sim.op === 'all-to-all') return { rows: sim.devices, cols: sim.devices };
  if (sim.shape.length === 2) return { rows: sim.shape[0], cols: sim.shape[1] };
  const cols = Math.ceil(Math.sqrt(sim.chunks));
  return { rows: Math.ceil(sim.chunks / cols), cols };
}

// The device a chunk started on, which gives its colour: block id = src * n + dst for AllToAll.
export function chunkOrigin(sim, chunk) {
  return sim.op === 'all-to-all' ? Math.floor(chunk / sim.devices) : chunk;
}

export function chunkColor(origin, devices) {
  return `hsl(${Math.round(210 + (360 * origin) / Math.max(devices, 1)) % 360} 70% 55%)`;
}

const PAD = 4;
const HEAD = 12;
const GAP = 30;

// Boxes, links and the picture's size: a ring on a circle, a line in rows of up to 8 going back
// and forth, a 2D torus as a grid (the first axis down). `wraps`: the wraparound field.
export function simLayout(sim, wraps, sums = false) {
  const grid = chunkGrid(sim);
  const detailed = sim.devices * sim.chunks <= MAX_CELLS;
  const cell = !detailed ? 0 : sums ? 18 : Math.max(4, Math.min(14, Math.floor(64 / Math.max(grid.rows, grid.cols))));
  const w = detailed ? grid.cols * cell + 2 * PAD : 48;
  const h = (detailed ? grid.rows * cell : 10) + 2 * PAD + HEAD;
  const n = sim.devices;
  const centers = [];
  const links = [];
  if (sim.shape.length === 2) {
    const [nx, ny] = sim.shape;
    for (let id = 0; id < n; ++id) centers.push({ x: Math.floor(id % ny) * (w + GAP), y: Math.floor(id / ny) * (h + GAP) });
    for (let id = 0; id < n; ++id) {
      const [x, y] = [Math.floor(id / ny), id % ny];
      if (y + 1 < ny) links.push({ a: id, b: id + 1, wrap: false });
      if (x + 1 < nx) links.push({ a: id, b: id + ny, wrap: false });
      if (wraps && ny > 2 && y === ny - 1) links.push({ a: id, b: id - y, wrap: true, axis: 1 });
      if (wraps && nx > 2 && x === nx - 1) links.push({ a: id, b: y, wrap: true, axis: 0 });
    }
  } else if (wraps && n > 2) {
    const diag = Math.hypot(w, h);
    const r = Math.max((diag + 18) / (2 * Math.sin(Math.PI / n)), diag);
    for (let i = 0; i < n; ++i) {
      const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
      centers.push({ x: r * Math.cos(angle), y: r * Math.sin(angle) });
    }
    for (let i = 0; i < n; ++i) links.push({ a: i, b: (i + 1) % n, wrap: i === n - 1 });
  } else {
    const perRow = Math.max(2, Math.min(8, Math.floor(440 / (w + GAP))));
    for (let i = 0; i < n; ++i) {
      const row = Math.floor(i / perRow);
      const col = row % 2 ? perRow - 1 - (i % perRow) : i % perRow;
      centers.push({ x: col * (w + GAP), y: row * (h + GAP) });
    }
    for (let i = 0; i + 1 < n; ++i) links.push({ a: i, b: i + 1, wrap: false });
  }
  const margin = 24;
  const xs = centers.map((c) => c.x);
  const ys = centers.map((c) => c.y);
  const left = Math.min(...xs) - w / 2 - margin;
  const top = Math.min(...ys) - h / 2 - margin;
  const width = Math.max(...xs) - Math.min(...xs) + w + 2 * margin;
  const height = Math.max(...ys) - Math.min(...ys) + h + 2 * margin;
  const boxes = centers.map((c) => ({ x: Math.round((c.x - left) * 10) / 10, y: Math.round((c.y - top) * 10) / 10 }));
  return { grid, cell, detailed, w, h, boxes, links, width, height, sums, torus: sim.shape.length === 2 };
}

// Where a straight line from a box's centre towards `to` leaves the box.
function edge(from, to, w, h) {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const t = Math.min(ux ? w / 2 / Math.abs(ux) : Infinity, uy ? h / 2 / Math.abs(uy) : Infinity) + 3;
  return { x: from.x + ux * t, y: from.y + uy * t };
}

// The curve a move follows from box a to box b: a quadratic Bézier bending to the left of the
// direction of travel, so the two directions of a link never overlap: [sx, sy, cx, cy, ex, ey].
// A torus's wraparound move (its boxes are not neighbours in the picture) leaves by the
// source's outer edge and arrives by the target's opposite edge, as the dashed stubs show:
// two such segments, 12 numbers, the first half of the way on the first.
export function movePath(layout, from, to) {
  const a = layout.boxes[from];
  const b = layout.boxes[to];
  const dist = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const round = (v) => Math.round(v * 10) / 10;
  if (dist > Math.max(layout.w, layout.h) + GAP + 1 && layout.torus) {
    const across = Math.abs(b.x - a.x) > Math.abs(b.y - a.y);
    const d = across ? -Math.sign(b.x - a.x) : -Math.sign(b.y - a.y); // the way the move travels
    const half = across ? layout.w / 2 : layout.h / 2;
    const stub = GAP * 0.75;
    const side = 5 * d; // each direction on its own side of the stub
    const point = (box, along) => (across ? { x: box.x + along, y: box.y - side } : { x: box.x + side, y: box.y + along });
    const segment = (p, q) => [p.x, p.y, (p.x + q.x) / 2, (p.y + q.y) / 2, q.x, q.y];
    return [...segment(point(a, d * (half + 3)), point(a, d * (half + stub))),
      ...segment(point(b, -d * (half + stub)), point(b, -d * (half + 3)))].map(round);
  }
  const bend = 0.2 * dist;
  const control = { x: (a.x + b.x) / 2 + ((b.y - a.y) / dist) * bend, y: (a.y + b.y) / 2 - ((b.x - a.x) / dist) * bend };
  const start = edge(a, control, layout.w, layout.h);
  const end = edge(b, control, layout.w, layout.h);
  return [start.x, start.y, control.x, control.y, end.x, end.y].map(round);
}

// A point of a move's path at t in [0, 1].
export function pointAt(path, t) {
  if (path.length === 12) return t < 0.5 ? pointAt(path.slice(0, 6), 2 * t) : pointAt(path.slice(6), 2 * t - 1);
  const [sx, sy, cx, cy, ex, ey] = path;
  const u = 1 - t;
  return { x: u * u * sx + 2 * u * t * cx + t * t * ex, y: u * u * sy + 2 * u * t * cy + t * t * ey };
}

// The SVG path data of a move's path.
export function pathData(path) {
  const parts = [];
  for (let i = 0; i < path.length; i += 6) parts.push(`M${path[i]} ${path[i + 1]} Q${path[i + 2]} ${path[i + 3]} ${path[i + 4]} ${path[i + 5]}`);
  return parts.join(' ');
}

// The moves of a step grouped by link (from -> to), in the order the engine lists them.
export function movesByLink(moves) {
  const links = new Map();
  for (const move of moves) {
    const key = `${move.from}>${move.to}`;
    if (!links.has(key)) links.set(key, { from: move.from, to: move.to, moves: [] });
    links.get(key).moves.push(move);
  }
  return [...links.values()];
}

// Where along its curve the k-th of m chips on one link rides when the step is at `progress`.
export function chipT(progress, k, m) {
  const spread = Math.min(0.12, 0.5 / m);
  return Math.max(0.04, Math.min(0.96, progress + (k - (m - 1) / 2) * spread));
}

function num(x) {
  return formatValue(x, '', 'num');
}

function deviceSVG(sim, layout, state, sums, id) {
  const { x, y } = layout.boxes[id];
  const left = x - layout.w / 2;
  const top = y - layout.h / 2;
  const parts = [`<g class="dev" data-device="${id}" transform="translate(${left},${top})">`,
    `<rect class="dev-box" width="${layout.w}" height="${layout.h}" rx="4"/>`,
    `<text class="dev-label" x="${PAD}" y="10">#${id}</text>`];
  const row = state[id];
  if (!layout.detailed) {
    const held = row.reduce((s, f) => s + f, 0) / row.length;
    parts.push(`<rect class="dev-bar-bg" x="${PAD}" y="${HEAD + PAD}" width="${layout.w - 2 * PAD}" height="10"/>`,
      `<rect class="dev-bar" data-held="${num(held)}" x="${PAD}" y="${HEAD + PAD}" width="${(layout.w - 2 * PAD) * held}" height="10"/>`);
  } else {
    const { cols } = layout.grid;
    row.forEach((fraction, c) => {
      const cx = PAD + (c % cols) * layout.cell;
      const cy = HEAD + PAD + Math.floor(c / cols) * layout.cell;
      parts.push(`<rect class="cell" data-cell="${c}" x="${cx}" y="${cy}" width="${layout.cell}" height="${layout.cell}" ` +
        `fill="${chunkColor(chunkOrigin(sim, c), sim.devices)}" fill-opacity="${num(fraction)}"/>`);
      if (sums && fraction > 0) {
        parts.push(`<text class="cell-sum" x="${cx + layout.cell / 2}" y="${cy + layout.cell / 2}" text-anchor="middle" ` +
          `dominant-baseline="central">${escapeHTML(num(sums[id][c]))}</text>`);
      }
    });
  }
  parts.push('</g>');
  return parts.join('');
}

function linkSVG(layout, link) {
  const a = layout.boxes[link.a];
  const b = layout.boxes[link.b];
  if (!link.wrap || !layout.torus) {
    return `<line class="link${link.wrap ? ' wrap' : ''}" x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}"/>`;
  }
  // A torus's wraparound: a dashed stub leaving each edge, as <sb-slice> draws it.
  const stub = GAP * 0.7;
  const [dx, dy] = link.axis === 1 ? [1, 0] : [0, 1];
  const half = link.axis === 1 ? layout.w / 2 : layout.h / 2;
  return `<line class="link wrap" x1="${a.x + dx * half}" y1="${a.y + dy * half}" x2="${a.x + dx * (half + stub)}" y2="${a.y + dy * (half + stub)}"/>` +
    `<line class="link wrap" x1="${b.x - dx * half}" y1="${b.y - dy * half}" x2="${b.x - dx * (half + stub)}" y2="${b.y - dy * (half + stub)}"/>`;
}

// The moves of step `index` as arrows, with a chip per chunk at `progress` along its arrow.
export function movesSVG(sim, layout, index, progress = 0.5) {
  const step = sim.steps[index];
  if (!step) return '';
  return movesByLink(step.moves).map((link) => {
    const path = movePath(layout, link.from, link.to);
    const chips = link.moves.map((move, k) => {
      const t = chipT(progress, k, link.moves.length);
      const p = pointAt(path, t);
      return `<rect class="chip" data-chip data-path="${path.join(' ')}" data-k="${k}" data-m="${link.moves.length}" ` +
        `x="-4" y="-4" width="8" height="8" rx="2" transform="translate(${Math.round(p.x * 10) / 10},${Math.round(p.y * 10) / 10})" ` +
        `fill="${chunkColor(chunkOrigin(sim, move.chunk), sim.devices)}"><title>chunk ${move.chunk}: ${escapeHTML(formatValue(move.bytes, 'B'))}</title></rect>`;
    });
    return `<g class="move" data-from="${link.from}" data-to="${link.to}"><path class="arrow" d="${pathData(path)}" ` +
      `marker-end="url(#arrowhead)"/>${chips.join('')}</g>`;
  }).join('');
}

// The picture of frame `index`: states[index] and, before the last frame, step index's moves.
export function collectiveSVG(sim, layout, index, progress = 0.5) {
  const state = sim.states[index];
  const sums = layout.sums && sim.sums ? sim.sums[index] : null;
  const devices = state.map((_, id) => deviceSVG(sim, layout, state, sums, id)).join('');
  const label = `${sim.op} on ${sim.shape.join('x')} devices, step ${index} of ${sim.steps.length}`;
  return `<svg class="coll" viewBox="0 0 ${Math.round(layout.width)} ${Math.round(layout.height)}" ` +
    `${sizeAttributes({ maxWidth: `${Math.round(layout.width)}px` })} role="img" aria-label="${escapeHTML(label)}">` +
    `<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">` +
    `<path d="M0 0 L10 5 L0 10 z"/></marker></defs>` +
    `<g class="links">${layout.links.map((link) => linkSVG(layout, link)).join('')}</g>` +
    `<g class="devs">${devices}</g><g class="moves" data-moves>${movesSVG(sim, layout, index, progress)}</g></svg>`;
}

// Bytes sent before each frame, and the most any one link (one direction) has carried.
export function traffic(sim) {
  const perLink = new Map();
  const sent = [0];
  const busiest = [0];
  let total = 0;
  let most = 0;
  for (const step of sim.steps) {
    for (const move of step.moves) {
      total += move.bytes;
      const key = `${move.from}>${move.to}`;
      const carried = (perLink.get(key) ?? 0) + move.bytes;
      perLink.set(key, carried);
      most = Math.max(most, carried);
    }
    sent.push(total);
    busiest.push(most);
  }
  return { sent, busiest };
}

// On a 2D torus the first axis (down) is X and the second (across) Y, as in the sharding picture.
function alongText(sim, axis) {
  if (sim.shape.length !== 2) return '';
  return axis === 0 ? ' along X (down)' : ' along Y (across)';
}

// The numbers beside the picture for frame `index`; all from the simulation.
export function statsView(sim, index, flow = traffic(sim)) {
  const steps = sim.steps.length;
  const step = sim.steps[index];
  const before = sim.steps[index - 1];
  const clock = index === 0 ? 0 : before.start + before.duration;
  const moving = step ? step.moves.reduce((s, m) => s + m.bytes, 0) : 0;
  return {
    step: `${index} of ${steps}`,
    phase: step ? `next: ${step.phase}${alongText(sim, step.axis)}` : 'done',
    clock: `${formatValue(clock, 's')} of ${formatValue(sim.time, 's')}`,
    moving: formatValue(moving, 'B'),
    sent: formatValue(flow.sent[index], 'B'),
    busiest: formatValue(flow.busiest[index], 'B'),
    valuetext: `step ${index} of ${steps}`,
  };
}

// The sentence comparing the simulated total with the closed form. On a 2D torus the engine
// runs the axes one after the other while the closed form runs them at once, so there the
// simulation may take longer and says why.
export function checkText(sim) {
  if (!sim) return '';
  const same = Math.abs(sim.time - sim.closed_form) <= 1e-9 * Math.max(Math.abs(sim.closed_form), 1e-30);
  const total = formatValue(sim.time, 's');
  const closed = formatValue(sim.closed_form, 's');
  if (same) return `simulation total ${total} = closed form ${closed}`;
  if (sim.shape.length === 2) return `simulation total ${total}, one axis after the other; the closed form ${closed} runs both axes at once`;
  return `simulation total ${total} differs from the closed form ${closed}`;
}

function statHTML(key, label, value) {
  return `<div class="out"><dt>${label}</dt><dd data-stat="${key}">${escapeHTML(value)}</dd></div>`;
}

function statsHTML(sim, index) {
  const s = sim ? statsView(sim, index) : {};
  return `<dl class="outputs sim-stats">${statHTML('step', 'Step', s.step ?? '—')}${statHTML('phase', 'Phase', s.phase ?? '—')}` +
    `${statHTML('clock', 'Time', s.clock ?? '—')}${statHTML('moving', 'Bytes this step', s.moving ?? '—')}` +
    `${statHTML('sent', 'Bytes sent so far', s.sent ?? '—')}${statHTML('busiest', 'Busiest link so far', s.busiest ?? '—')}</dl>`;
}

function controlsHTML(sim, index) {
  return simControlsHTML({
    last: sim ? sim.steps.length : 0,
    index,
    valuetext: sim ? statsView(sim, index).valuetext : '',
    enabled: Boolean(sim),
    words: { frame: 'Step', back: 'Step back', forward: 'Step forward', reset: 'Reset to the start', rate: 'steps/s' },
    speeds: SPEEDS,
    speed: DEFAULT_SPEED,
  });
}

// The calculator's closed form beside the simulation: its numbers and its worked formula.
export function costHTML(costSchema, cost, tex = null) {
  const outputs = costSchema?.outputs ?? [];
  const bound = cost?.bound ? `<p class="bound">Bound: <span class="badge badge-${escapeHTML(cost.bound)}" data-bound>${escapeHTML(cost.bound)}</span></p>` : '';
  return `${bound}${outputsListHTML(outputs, cost, COST_OUTPUTS.filter((n) => n !== 'bound'), { stale: !cost, cls: 'cost' })}` +
    (cost?.steps?.length ? `<details class="worked" open><summary>The closed form</summary>${stepsHTML(cost.steps, tex)}</details>` : '');
}

export function legendHTML(sim) {
  if (!sim) return '';
  const what = {
    'all-gather': 'Each device starts with its own chunk (its colour) and ends with every chunk.',
    'reduce-scatter': 'Every device starts with a partial copy of every chunk; chunk k ends fully summed on device k.',
    'all-reduce': 'A ReduceScatter, then an AllGather: every device ends with every chunk fully summed.',
    'all-to-all': 'Each device starts with a row of blocks, one for each destination, and ends with the column addressed to it: a sharded transpose.',
  }[sim.op] ?? '';
  return `<p class="sim-legend" data-legend>${escapeHTML(what)} A cell’s colour says which device the data started on; ` +
    `its strength, how much of it the device holds. Arrows are the moves of the next step.</p>`;
}

// The whole shadow root. schema: the collective calculator's; values: field strings by name
// (and sums: "yes" to show partial sums); run: runCollective's result; index: the frame shown.
export function collectiveSimHTML({ schema, chips = [], values = {}, run = null, index = 0, tex = null, prefix = 'coll' }) {
  const error = run?.error ?? null;
  const inputs = simInputs(schema);
  const field = (input) => fieldHTML(input, String(values[input.name] ?? ''), { prefix, error, chips, text: fieldValue(schema, values, input.name) });
  const general = error && !SIM_FIELDS.includes(error.field) ? error.message : '';
  const sim = run?.sim ?? null;
  const wraps = fieldValue(schema, values, 'wraparound') === 'yes';
  const sums = values.sums === 'yes';
  const picture = sim ? collectiveSVG(sim, simLayout(sim, wraps, sums && Boolean(sim.sums)), index)
    : '<p class="sim-empty">No simulation to show: fix the field marked above.</p>';
  return `<div class="sb-calc sb-sim sb-coll${error ? ' is-stale' : ''}">` +
    `<p class="desc">A collective played step by step: every move is the engine’s, and so is the closed form beside it.</p>` +
    `<form class="fields aligned" novalidate>${inputs.map(field).join('')}` +
    `<div class="field check" title="ReduceScatter and AllReduce: device d holds the number d + 1 in every chunk; watch the sums build up">` +
    `<label><input type="checkbox" name="sums" value="yes"${sums ? ' checked' : ''}> show sums</label></div></form>` +
    `<p class="error general" data-error-for="">${escapeHTML(general)}</p>` +
    controlsHTML(sim, index) +
    `<div class="sim-body"><div class="sim-grid coll-picture" data-picture tabindex="0" role="region" aria-label="The devices, step by step">${picture}</div>` +
    `<div class="sim-side">${statsHTML(sim, index)}<p class="sim-check" data-stat="check">${escapeHTML(checkText(sim))}</p>` +
    `<div data-cost>${costHTML(schema, run?.cost ?? null, tex)}</div></div></div>` +
    `<div data-legend-slot>${legendHTML(sim)}</div></div>`;
}
