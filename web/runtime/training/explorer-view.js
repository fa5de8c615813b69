// <sb-training>'s pictures after the calculator form (chapter 5's explorer): the book's layer
// In, W_in, W_out, Out as four boxes cut into the layout's shards, each under its sharding in
// chapter 3's notation and its shape on one chip; then the step's collectives in the order the
// algorithm runs them, each marked on or off the critical path in words; before those, one
// layer's algorithm step by step, its matmuls between its collectives. Pure: runs in the
// builder and the browser; every number and every piece of notation is the engine's (the
// training result's sharding_*, local_* outputs and its arrays, algorithm and collectives tables).
import { formatValue, si } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';

const KEYS = { In: 'in', W_in: 'w_in', W_out: 'w_out', Out: 'out' };
// Past this many pieces along a side the lines would merge: the box shows this many bands.
export const MAX_BANDS = 16;
const BOX = { left: 22, top: 20, width: 176, height: 112 };
const OPS = { 'all-gather': 'AllGather', 'reduce-scatter': 'ReduceScatter', 'all-reduce': 'AllReduce', 'all-to-all': 'AllToAll', send: 'Send' };
const PHASES = [
  ['forward', 'Forward pass'],
  ['backward', 'Backward pass'],
  ['step', 'Once a step, after the backward pass'],
];

function arrayBoxSVG(row, label) {
  const rows = Math.min(row.row_shards, MAX_BANDS);
  const cols = Math.min(row.col_shards, MAX_BANDS);
  const w = BOX.width / cols;
  const h = BOX.height / rows;
  // One faint box, the held piece, and the cuts as one path: a 16 x 16 grid is 3 nodes, not 256.
  const cuts = [];
  for (let j = 1; j < cols; ++j) cuts.push(`M${(BOX.left + j * w).toFixed(2)} ${BOX.top}v${BOX.height}`);
  for (let i = 1; i < rows; ++i) cuts.push(`M${BOX.left} ${(BOX.top + i * h).toFixed(2)}h${BOX.width}`);
  const parts = [
    `<rect class="piece" x="${BOX.left}" y="${BOX.top}" width="${BOX.width}" height="${BOX.height}"/>`,
    `<rect class="piece held" x="${BOX.left}" y="${BOX.top}" width="${w.toFixed(2)}" height="${h.toFixed(2)}"/>`,
  ];
  if (cuts.length) parts.push(`<path class="cuts" d="${cuts.join('')}"/>`);
  const W = BOX.left + BOX.width + 4;
  const H = BOX.top + BOX.height + 4;
  return `<svg class="layer-box" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">` +
    `<text class="dim" x="${BOX.left + BOX.width / 2}" y="13" text-anchor="middle">${esc(row.cols)} →</text>` +
    `<text class="dim" x="12" y="${BOX.top + BOX.height / 2}" text-anchor="middle" transform="rotate(-90 12 ${BOX.top + BOX.height / 2})">${esc(row.rows)} →</text>` +
    `${parts.join('')}<rect class="outline" x="${BOX.left}" y="${BOX.top}" width="${BOX.width}" height="${BOX.height}"/></svg>`;
}

// "cut 16 ways along B" or "whole along D", and the bands note past MAX_BANDS.
function cutText(dim, shards) {
  if (shards <= 1) return `whole along ${dim}`;
  const drawn = shards > MAX_BANDS ? ` (drawn as ${MAX_BANDS} bands)` : '';
  return `cut ${formatValue(shards, '', 'int')} ways along ${dim}${drawn}`;
}

function arrayFigureHTML(result, row) {
  const key = KEYS[row.array];
  const sharding = String(result[`sharding_${key}`] ?? row.array);
  const local = String(result[`local_${key}`] ?? '');
  const copies = row.copies > 1 ? `each piece on ${formatValue(row.copies, '', 'int')} chips` : 'each piece on one chip';
  const label = `${sharding}: ${cutText(row.rows, row.row_shards)}, ${cutText(row.cols, row.col_shards)}; ` +
    `one chip holds the solid piece, ${local}`;
  return `<figure class="layer-array" data-array="${esc(row.array)}">` +
    `<figcaption><code class="notation" data-sharding>${esc(sharding)}</code></figcaption>${arrayBoxSVG(row, label)}` +
    '<dl class="array-facts">' +
    `<div><dt>On one chip</dt><dd data-local>${esc(local)}</dd></div>` +
    `<div><dt>Whole, in one slice</dt><dd data-shape>${esc(row.shape)}</dd></div>` +
    `<div><dt>Bytes per chip</dt><dd data-bytes>${esc(si(row.bytes, 'B'))}</dd></div>` +
    `<div><dt>Pieces</dt><dd data-pieces>${esc(cutText(row.rows, row.row_shards))}, ${esc(cutText(row.cols, row.col_shards))}; ${esc(copies)}</dd></div>` +
    '</dl></figure>';
}

// What a collective moves, in the notation of the array it comes from: a gradient is sharded
// like its array (dOut like Out), so it takes that array's notation with a d in front.
function movedText(result, tensor) {
  const base = tensor.startsWith('d') && KEYS[tensor.slice(1)] ? tensor.slice(1) : tensor;
  const sharding = KEYS[base] ? result[`sharding_${KEYS[base]}`] : undefined;
  if (typeof sharding !== 'string') return tensor;
  return base === tensor ? sharding : `d${sharding}`;
}

function axesText(axes) {
  // X' (the groups of a split axis) is one axis.
  return axes === 'DCN' ? 'DCN' : (String(axes).match(/[^']'?/g) ?? []).join(', ');
}

function collectiveHTML(result, row) {
  const critical = row.critical === 'yes';
  const mark = critical
    ? '<span class="path-mark critical" data-mark="critical">critical path</span>'
    : '<span class="path-mark overlapped" data-mark="overlapped">overlaps compute</span>';
  const count = row.count === 1 ? 'once a step' : `${formatValue(row.count, '', 'num')} times a step`;
  return `<li class="comm${critical ? ' critical' : ''}" data-critical="${critical ? 'yes' : 'no'}">${mark} ` +
    `<span class="what"><strong>${esc(OPS[row.op] ?? row.op)}</strong> of <code>${esc(movedText(result, row.tensor))}</code> ` +
    `over ${esc(axesText(row.axes))} (${esc(row.strategy.toUpperCase())}): ` +
    `<span data-time>${esc(si(row.time, 's'))}</span>, ${esc(count)}, <span data-total>${esc(si(row.total, 's'))}</span> in all</span></li>`;
}

function algorithmHTML(result) {
  const rows = Array.isArray(result.collectives) ? result.collectives : [];
  if (!rows.length) return '<p class="algo-empty">This layout runs no collectives: every chip trains alone.</p>';
  const phases = PHASES.map(([phase, title]) => {
    const items = rows.filter((r) => r.phase === phase);
    if (!items.length) return '';
    return `<li class="phase" data-phase="${phase}"><span class="phase-title">${esc(title)}</span>` +
      `<ol class="phase-steps">${items.map((r) => collectiveHTML(result, r)).join('')}</ol></li>`;
  });
  return `<ol class="algorithm">${phases.join('')}</ol>`;
}

const PASS_TITLES = { forward: 'Forward', backward: 'Backward', step: 'Once a step' };

// One row of the engine's algorithm table: a matmul with its FLOPs, or a collective marked
// on or off the critical path, each with its time on one chip.
function layerStepHTML(row) {
  const notation = `<code class="notation">${esc(row.operation)}</code>`;
  if (row.op === 'matmul') {
    return `<li class="matmul" data-kind="matmul">${notation} <span class="cost">${esc(si(row.flops, 'FLOP'))}, ` +
      `<span data-time>${esc(si(row.time, 's'))}</span></span></li>`;
  }
  const critical = row.critical === 'yes';
  const mark = critical
    ? '<span class="path-mark critical" data-mark="critical">critical path</span>'
    : '<span class="path-mark overlapped" data-mark="overlapped">overlaps compute</span>';
  return `<li class="comm${critical ? ' critical' : ''}" data-kind="collective" data-critical="${critical ? 'yes' : 'no'}">` +
    `${mark} ${notation} <span class="cost">(${esc(row.strategy)}) ${esc(si(row.bytes, 'B'))}, ` +
    `<span data-time>${esc(si(row.time, 's'))}</span></span></li>`;
}

function layerAlgorithmHTML(result) {
  const rows = Array.isArray(result.algorithm) ? result.algorithm : [];
  const passes = Object.entries(PASS_TITLES).map(([pass, title]) => {
    const items = rows.filter((r) => r.pass === pass);
    if (!items.length) return '';
    return `<li class="phase" data-pass="${pass}"><span class="phase-title">${esc(title)}</span>` +
      `<ol class="phase-steps">${items.map(layerStepHTML).join('')}</ol></li>`;
  });
  return `<ol class="layer-algorithm" data-layer-algorithm>${passes.join('')}</ol>`;
}

// The training step's few results a reader wants first (render.js draws them before the form and
// folds the other outputs and the tables): how long a step takes, what bounds it, the memory per
// chip and the MFU. Names, not labels: each label is the engine's.
export const TRAINING_LEAD = ['step_time', 'bound', 'mem_total', 'mfu'];

// A section a reader opens: its title, then its body. data-fold names it, so a redraw keeps it
// open (sb-calculator-extras.js).
const fold = (name, title, body) => `<details class="fold" data-fold="${name}"><summary>${title}</summary>${body}</details>`;

export function explorerExtrasHTML(result) {
  if (!result || !Array.isArray(result.arrays)) return '<div class="explorer-extras" data-extras data-explorer></div>';
  const figures = result.arrays.map((row) => arrayFigureHTML(result, row)).join('');
  return '<div class="explorer-extras" data-extras data-explorer>' +
    fold('layer', 'The layer on one chip',
      '<p class="caption">The book’s layer, In · W<sub>in</sub> · W<sub>out</sub> → Out, as this layout cuts it: each box is one ' +
      'array of one slice, split into its pieces; the solid piece is what one chip holds.</p>' +
      `<div class="layer-boxes">${figures}</div>`) +
    fold('layer-steps', 'One layer, step by step',
      '<p class="caption">The book’s algorithm for this layout: each matmul (A ·<sub>J</sub> B, written <code>A *_J B</code>, ' +
      'sums over J) and each collective of one layer, in order, with the slice’s whole batch. Times the book’s way: ' +
      'FLOPs / C, bytes / (M W<sub>ici</sub>). {U_X} marks a result still to be summed over X.</p>' +
      `${layerAlgorithmHTML(result)}`) +
    fold('step', 'The step, collective by collective',
      '<p class="caption">In the order the algorithm runs them. Those on the critical path stall the matmuls that need ' +
      'their result; the others run while the chip computes.</p>' +
      `${algorithmHTML(result)}`) + '</div>';
}
