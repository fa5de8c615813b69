// Pure renderers of <sb-gpu-collective-sim>: a collective over a few GPUs on a switched fabric,
// played step by step. Every move, byte and time is the engine's (the gpu-collective
// simulation, engine/include/scalebook/gpus/collective_sim.h), and the check beside it is the
// collective calculator's time for the same GPUs. This file lays the GPUs out under their
// node's NVSwitch, the nodes on either side of the leaf switch, and draws each step's moves as
// paths through the switch they cross, with a packet per move. No DOM, no engine state.
import { escapeHTML } from '../core/escape.js';
import { formatValue } from '../core/format.js';
import { fieldHTML } from '../core/widget-form.js';
import { simControlsHTML } from '../core/sim-controls.js';
import { sizeAttributes } from '../core/sizes.js';

export const SIMULATION = 'gpu-collective';
export const FIELDS = ['op', 'algorithm', 'chip', 'gpus', 'cluster', 'bytes', 'latency'];
export const SPEEDS = [0.5, 1, 2, 4];
export const DEFAULT_SPEED = 1;
// Past this many moves in a step (an AllToAll over many GPUs) only GPU 0's are drawn.
export const MAX_DRAWN = 160;
// Where a paused step shows its packets along their paths: on their way to the switch, clear
// of its label.
export const PAUSED_AT = 0.3;

// The form's inputs: the collective calculator's op, bytes, latency and cluster, the GPUs of
// the cluster builder's chip list, a count of GPUs and the algorithm ('auto': ring, or direct
// for an AllToAll, as the engine chooses).
export function simInputs(engine) {
  const collective = engine.schema('collective').inputs;
  const pick = (name) => collective.find((i) => i.name === name);
  const gpus = engine.schema('gpu-cluster').inputs.find((i) => i.name === 'chip').choices;
  return {
    op: pick('op'),
    algorithm: {
      name: 'algorithm', type: 'choice', unit: '', label: 'Algorithm', default: 'auto',
      choices: ['auto', 'ring', 'in-network', 'direct'],
      description: 'ring; in-network: the switches reduce (NVLS, SHARP), AllReduce only; direct: AllToAll',
    },
    chip: { ...pick('chip'), label: 'GPU', choices: gpus, default: 'h100' },
    gpus: { name: 'gpus', type: 'count', unit: '', label: 'GPUs', default: 8, description: 'one node or fewer, or whole nodes; at most 64' },
    cluster: { ...pick('cluster'), label: 'Cluster' },
    bytes: pick('bytes'),
    latency: { ...pick('latency'), default: 0, description: 'seconds each step costs at least (the catalog gives none for GPUs)' },
  };
}

// The simulation's request from the form's strings: an empty field or 'auto' is left out.
export function simRequest(values) {
  const request = {};
  for (const name of FIELDS) {
    const text = String(values?.[name] ?? '').trim();
    if (text !== '' && !(name === 'algorithm' && text === 'auto')) request[name] = text;
  }
  return request;
}

// The collective calculator's request for the same GPUs, to check the simulation against.
export function costRequest(sim) {
  return {
    op: sim.op, chip: sim.chip, axis_size: sim.gpus, bytes: sim.bytes, latency: sim.latency,
    cluster: sim.clusterId, in_network: sim.algorithm === 'in-network' ? 'yes' : 'no',
  };
}

const list = (array) => Array.from(array ?? []);

// The engine's result with its flat arrays as plain moves.
export function shapeRun(raw, clusterId) {
  return {
    ...raw,
    clusterId,
    steps: raw.steps.map((s) => ({
      ...s,
      level_bytes: list(s.level_bytes),
      level_times: list(s.level_times),
      moves: Array.from(s.moves.from, (from, i) => ({
        from, to: s.moves.to[i], chunk: s.moves.chunk[i], level: s.moves.level[i], bytes: s.moves.bytes[i],
      })),
    })),
  };
}

// { sim, calculatorTime, error }: the engine's simulation and the calculator's time.
export function runGpuCollective(engine, values) {
  try {
    const request = simRequest(values);
    const sim = shapeRun(engine.simulate(SIMULATION, request), request.cluster ?? 'auto');
    const cost = engine.calculate('collective', costRequest(sim), { steps: false });
    return { sim, calculatorTime: cost.time, error: null };
  } catch (err) {
    return { sim: null, calculatorTime: null, error: { field: err.field ?? '', message: err.message ?? String(err) } };
  }
}

const W = 34;
const H = 24;
const GAP = 8;
const PAD = 8;
const BAR = 14;
const NODE_GAP = 18;
const LEAF = 18;
const ROW_GAP = 26;

// Where everything sits. One node: its NVSwitch over a row of GPUs. More: half the nodes above
// the leaf switch (NVSwitch on top, NICs facing down), half below (mirrored), so no path
// crosses another node. A group of at most 64 GPUs spans one SU, so the leaf is the top level.
export function layoutOf(sim) {
  const perNode = sim.node_gpus;
  const nodes = sim.nodes;
  const cols = nodes > 1 ? Math.min(perNode, 4) : Math.min(perNode, 8);
  const rows = Math.ceil(perNode / cols);
  const nodeW = cols * (W + GAP) - GAP + 2 * PAD;
  const nodeH = BAR + GAP + rows * (H + GAP) - GAP + 2 * PAD;
  const perRow = nodes > 1 ? Math.ceil(nodes / 2) : 1;
  const width = perRow * (nodeW + NODE_GAP) - NODE_GAP + 2 * PAD;
  const leafY = nodes > 1 ? PAD + nodeH + ROW_GAP : null;
  const height = nodes > 1 ? 2 * nodeH + 2 * ROW_GAP + LEAF + 2 * PAD : nodeH + 2 * PAD;
  const boxes = [];
  const nodeBoxes = [];
  for (let n = 0; n < nodes; ++n) {
    const below = n >= perRow; // under the leaf, mirrored
    const x = PAD + (n % perRow) * (nodeW + NODE_GAP);
    const y = below ? leafY + LEAF + ROW_GAP : PAD;
    const barY = below ? y + nodeH - PAD - BAR : y + PAD;
    nodeBoxes.push({ x, y, below, barY });
    for (let k = 0; k < perNode; ++k) {
      const r = Math.floor(k / cols);
      const gx = x + PAD + (k % cols) * (W + GAP);
      const gy = below ? y + PAD + r * (H + GAP) : y + PAD + BAR + GAP + r * (H + GAP);
      boxes.push({ x: gx, y: gy, node: n });
    }
  }
  // Each node's first and last rows of GPUs (their y), the ones next to its switches.
  const rowEdges = nodeBoxes.map((_, n) => {
    const ys = boxes.filter((box) => box.node === n).map((box) => box.y);
    return { first: Math.min(...ys), last: Math.max(...ys) };
  });
  return { width, height, nodeW, nodeH, boxes, nodeBoxes, leafY, rowEdges };
}

// The points a move follows: up (or down) into the switch of its level, along it, and back. A
// GPU behind another row leaves by its side and runs up the gap between columns, so no path
// crosses a GPU.
export function movePoints(layout, move) {
  const toSwitch = (g, level) => {
    const b = layout.boxes[g];
    const node = layout.nodeBoxes[b.node];
    const cx = b.x + W / 2;
    // Towards the NVSwitch (level 0) or the leaf, which sit on opposite sides of the node.
    const up = (level === 0) !== node.below;
    const target = level === 0 ? (up ? node.barY + BAR : node.barY) : (up ? layout.leafY + LEAF : layout.leafY);
    const rowEdge = up ? layout.rowEdges[b.node].first : layout.rowEdges[b.node].last;
    if (b.y === rowEdge) return [{ x: cx, y: up ? b.y : b.y + H }, { x: cx, y: target }];
    const side = { x: b.x, y: b.y + H / 2 };
    return [side, { x: b.x - GAP / 2, y: side.y }, { x: b.x - GAP / 2, y: target }];
  };
  if (move.to === -1) return toSwitch(move.from, move.level);
  if (move.from === -1) return toSwitch(move.to, move.level).reverse();
  // Across the middle of the switch, so paths from either side meet on one line.
  const out = toSwitch(move.from, move.level);
  const back = toSwitch(move.to, move.level).reverse();
  const node = layout.nodeBoxes[layout.boxes[move.from].node];
  const mid = move.level === 0 ? node.barY + BAR / 2 : layout.leafY + LEAF / 2;
  return [...out, { x: out.at(-1).x, y: mid }, { x: back[0].x, y: mid }, ...back];
}

// A point `t` (0..1) of the way along a polyline.
export function along(points, t) {
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i].x, p.y - points[i].y));
  let left = t * lengths.reduce((s, l) => s + l, 0);
  for (let i = 0; i < lengths.length; ++i) {
    if (left <= lengths[i] || i === lengths.length - 1) {
      const f = lengths[i] ? Math.min(1, left / lengths[i]) : 0;
      return { x: points[i].x + f * (points[i + 1].x - points[i].x), y: points[i].y + f * (points[i + 1].y - points[i].y) };
    }
    left -= lengths[i];
  }
  return points[0];
}

export function drawnMoves(step) {
  if (!step) return [];
  return step.moves.length > MAX_DRAWN ? step.moves.filter((m) => m.from === 0) : step.moves;
}

export function chunkColor(chunk, gpus) {
  return `hsl(${Math.round(210 + (360 * chunk) / Math.max(gpus, 1)) % 360} 70% 55%)`;
}

const r1 = (v) => Math.round(v * 10) / 10;
const pointsText = (points) => points.map((p) => `${r1(p.x)},${r1(p.y)}`).join(' ');

// A packet's path back from its data-points ("x,y x,y ...").
export function movesPoints(text) {
  return text.split(' ').map((pair) => {
    const [x, y] = pair.split(',').map(Number);
    return { x, y };
  });
}

function levelName(sim, level) {
  return sim.levels[level]?.name ?? `level ${level}`;
}

// The picture of frame `index`: the fabric, and before the last frame step index's moves with
// a packet each at `progress` along its path.
export function fabricSVG(sim, layout, index, progress = PAUSED_AT) {
  const parts = [];
  const labels = [];
  if (layout.leafY !== null) {
    parts.push(`<rect class="switch leaf" x="${PAD}" y="${layout.leafY}" width="${layout.width - 2 * PAD}" height="${LEAF}" rx="3"/>`);
    labels.push(`<text class="switch-label" x="${layout.width / 2}" y="${layout.leafY + LEAF / 2}" text-anchor="middle" dominant-baseline="central">` +
      `${escapeHTML(levelName(sim, 1))} switch</text>`);
  }
  layout.nodeBoxes.forEach((node, n) => {
    parts.push(`<rect class="node" x="${node.x}" y="${node.y}" width="${layout.nodeW}" height="${layout.nodeH}" rx="5"/>`,
      `<rect class="switch nvswitch" x="${node.x + PAD}" y="${node.barY}" width="${layout.nodeW - 2 * PAD}" height="${BAR}" rx="2"/>`);
    labels.push(`<text class="switch-label" x="${node.x + layout.nodeW / 2}" y="${node.barY + BAR / 2}" text-anchor="middle" dominant-baseline="central">` +
      `node ${n} NVSwitch</text>`);
  });
  layout.boxes.forEach((b, g) => {
    parts.push(`<g class="gpu" data-gpu="${g}"><rect x="${b.x}" y="${b.y}" width="${W}" height="${H}" rx="3"/>` +
      `<text x="${b.x + W / 2}" y="${b.y + H / 2}" text-anchor="middle" dominant-baseline="central">${g}</text></g>`);
  });
  const step = sim.steps[index];
  // Paths, then packets, then the switches' labels (with a halo) over both.
  const packets = [];
  const moves = drawnMoves(step).map((move) => {
    const points = movePoints(layout, move);
    const p = along(points, progress);
    const title = `${move.from === -1 ? 'switch' : `GPU ${move.from}`} → ${move.to === -1 ? `the ${levelName(sim, move.level)} switch` : `GPU ${move.to}`}: ` +
      `chunk ${move.chunk}, ${formatValue(move.bytes, 'B')} over the ${levelName(sim, move.level)} level`;
    packets.push(`<rect class="packet" data-packet data-points="${pointsText(points)}" x="-4" y="-4" width="8" height="8" rx="2" ` +
      `transform="translate(${r1(p.x)},${r1(p.y)})" fill="${chunkColor(move.chunk, sim.gpus)}"><title>${escapeHTML(title)}</title></rect>`);
    return `<g class="move level-${Math.min(move.level, 2)}${move.from === -1 || move.to === -1 ? ' in-network' : ''}">` +
      `<polyline class="path" points="${pointsText(points)}"/></g>`;
  });
  const label = `${sim.op} over ${sim.gpus} ${sim.chip} GPUs, step ${index} of ${sim.steps.length}`;
  return `<svg class="gpu-coll" viewBox="0 0 ${Math.round(layout.width)} ${Math.round(layout.height)}" ` +
    `${sizeAttributes({ maxWidth: `${Math.round(1.5 * layout.width)}px` })} role="img" aria-label="${escapeHTML(label)}">` +
    `${parts.join('')}<g class="moves" data-moves>${moves.join('')}</g><g class="packets">${packets.join('')}</g><g class="labels">${labels.join('')}</g></svg>`;
}

const s = (x) => formatValue(x, 's');
const b = (x) => formatValue(x, 'B');

// The numbers beside the picture for frame `index`, every one from the simulation.
export function statsView(sim, index) {
  const total = sim.steps.length;
  const step = sim.steps[index];
  const before = sim.steps[index - 1];
  const clock = index === 0 ? 0 : before.start + before.duration;
  const levels = step ? sim.levels.map((l, i) => (step.level_bytes[i] > 0
    ? `${l.name}: ${b(step.level_bytes[i])} a GPU in ${s(step.level_times[i])}` : '')).filter(Boolean).join('; ') : '';
  const binding = !step ? '—' : step.binding < 0 ? 'the latency' : `the ${levelName(sim, step.binding)} level`;
  const what = step ? `${step.phase}${sim.algorithm === 'in-network' ? ' in the switches' : ''}` : 'done';
  return {
    step: `${index} of ${total}`,
    phase: step ? `next: ${what}` : 'done',
    clock: `${s(clock)} of ${s(sim.time)}`,
    duration: step ? s(step.duration) : '—',
    binding,
    levels: levels || '—',
    valuetext: `step ${index} of ${total}`,
    announce: step
      ? `Step ${index + 1} of ${total}: ${what}, ${s(step.duration)}, set by ${binding}. ${levels}.`
      : `Done after ${total} steps: ${s(sim.time)}.`,
  };
}

// The sentence comparing the simulated total with the collective calculator's time.
export function checkText(sim, calculatorTime) {
  if (!sim) return '';
  const same = Math.abs(sim.time - calculatorTime) <= 1e-9 * Math.max(Math.abs(calculatorTime), 1e-30);
  return `simulation total ${s(sim.time)} ${same ? '=' : '≠'} the collective calculator's ${s(calculatorTime)}`;
}

function statHTML(key, label, value) {
  return `<div class="out"><dt>${label}</dt><dd data-stat="${key}">${escapeHTML(value)}</dd></div>`;
}

const STATS = [['step', 'Step'], ['phase', 'Phase'], ['clock', 'Time'], ['duration', 'This step'], ['binding', 'Set by'], ['levels', 'Per level']];

function statsHTML(sim, index) {
  const v = sim ? statsView(sim, index) : {};
  return `<dl class="outputs sim-stats">${STATS.map(([key, label]) => statHTML(key, label, v[key] ?? '—')).join('')}</dl>`;
}

export function legendHTML(sim) {
  if (!sim) return '';
  const how = {
    ring: 'Each level runs a ring: every GPU sends to the next child of that level (over NVLink through its node’s NVSwitch, or out of its NIC through the leaf switch).',
    'in-network': 'Each GPU sends its data up into the switch, which adds it up and sends the sum back down (NVLS in the node, SHARP at the leaf).',
    direct: 'Every GPU sends a piece of its block to every other GPU, over the highest level they differ at.',
  }[sim.algorithm] ?? '';
  const drawn = sim.steps.some((st) => st.moves.length > MAX_DRAWN) ? ' Only GPU 0’s sends are drawn; every GPU does the same.' : '';
  return `<p class="sim-legend" data-legend>${escapeHTML(how)} The levels run at once, each carrying 1/${sim.steps.length} ` +
    `of its share a step, so the slowest sets the pace. A packet’s colour names the GPU whose shard it carries.${drawn} ` +
    `<span class="key key-node">NVLink</span><span class="key key-leaf">scale-out</span></p>`;
}

// The whole shadow root. values: the form's strings by name; run: runGpuCollective's answer.
export function gpuCollectiveSimHTML({ engine, values = {}, run, index = 0, chips = [] }) {
  const inputs = simInputs(engine);
  const error = run?.error ?? null;
  const fields = FIELDS.map((name) => fieldHTML(inputs[name], String(values[name] ?? ''), { prefix: 'gcs', error, chips })).join('');
  const general = error && !FIELDS.includes(error.field) ? error.message : '';
  const sim = run?.sim ?? null;
  const picture = sim ? fabricSVG(sim, layoutOf(sim), index) : '<p class="sim-empty">No simulation to show: fix the field marked above.</p>';
  const controls = simControlsHTML({
    last: sim ? sim.steps.length : 0, index, valuetext: sim ? statsView(sim, index).valuetext : '', enabled: Boolean(sim),
    words: { frame: 'Step', back: 'Step back', forward: 'Step forward', reset: 'Reset to the start', rate: 'steps/s' },
    speeds: SPEEDS, speed: DEFAULT_SPEED,
  });
  return `<div class="sb-calc sb-sim sb-gpu-coll${error ? ' is-stale' : ''}">` +
    `<p class="desc">A collective over GPUs on a switched fabric, step by step: every move is the engine’s, and its total is the collective calculator’s time.</p>` +
    `<form class="fields aligned" novalidate>${fields}</form>` +
    `<p class="error general" data-error-for="">${escapeHTML(general)}</p>${controls}` +
    `<div class="sim-body"><div class="sim-grid gpu-coll-picture" data-picture tabindex="0" role="region" aria-label="The GPUs and switches, step by step">${picture}</div>` +
    `<div class="sim-side">${statsHTML(sim, index)}<p class="sim-check" data-stat="check">${escapeHTML(sim ? checkText(sim, run.calculatorTime) : '')}</p></div></div>` +
    `<div data-legend-slot>${legendHTML(sim)}</div>` +
    `<p class="visually-hidden" role="status" aria-live="polite" data-announce></p></div>`;
}
