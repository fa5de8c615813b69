// The pure views of chapter 3's widgets (<sb-sharding>, <sb-sharded-matmul>,
// <sb-collective-sim>) and their directives, fed engine answers shaped as the engine's API
// returns them (shardingLayout, calculate('array-memory' | 'sharded-matmul' | 'collective'),
// simulateCollective) with numbers derived by hand here. The engine functions themselves are
// tested with the engine; these tests check what the pages make of their answers.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { CalculatorError, loadEngine } from '../../bindings/wasm/engine.mjs';
import { useEngine } from '../../web/runtime/core/format.js';
import {
  PRESETS, meshArrangement, meshPictureHTML, localShapeText, copiesPerBlock, captionText, jaxLines, blockLabel,
  runSharding, shardingHTML, shardingBodyHTML, memoryRequest,
} from '../../web/runtime/sharding/sharding-view.js';
import {
  plannerRequest, runPlanner, plannerHTML, plannerBodyHTML, timelineModel, timelineSVG, planSteps, plannerInputs,
} from '../../web/runtime/sharding/planner-view.js';
import {
  simInputs, costRequest, simRequest, runCollective, latencyOf, sampleValues, chunkGrid, chunkOrigin, simLayout,
  collectiveSVG, movesByLink, traffic, statsView, checkText, collectiveSimHTML, pointAt, movePath,
} from '../../web/runtime/collectives/collective-view.js';
import { dimensionNames, markedTextHTML, notationHTML, errorHTML, asError, valueText } from '../../web/runtime/core/widget-form.js';
import { parseArgs } from '../../web/builder/args.mjs';
import { extractDirectives } from '../../web/builder/directives.mjs';

// A layout as engine.shardingLayout describes it, built here from first principles: device ids
// row-major over the mesh axes in declared order; a dimension sharded over axes (in subscript
// order) has the product of their sizes as pieces, and a device's piece index reads its
// coordinates along those axes as digits, the first axis most significant.
function layoutOf(meshSizes, dims, array = 'A', spec = '') {
  const names = Object.keys(meshSizes);
  const sizes = Object.values(meshSizes);
  const count = sizes.reduce((a, b) => a * b, 1);
  const devices = [];
  for (let id = 0; id < count; ++id) {
    const coords = [];
    let rest = id;
    for (let k = sizes.length - 1; k >= 0; --k) {
      coords[k] = rest % sizes[k];
      rest = Math.floor(rest / sizes[k]);
    }
    const pieces = dims.map(([, axes]) => axes.reduce((index, axis) => index * meshSizes[axis] + coords[names.indexOf(axis)], 0));
    devices.push({ id, coords, pieces });
  }
  return {
    mesh: names.map((name) => ({ name, size: meshSizes[name] })),
    array,
    dims: dims.map(([name, axes]) => ({ name, axes, pieces: axes.reduce((p, a) => p * meshSizes[a], 1) })),
    unreduced: [],
    devices,
    partition_spec: spec,
  };
}

const IXY = layoutOf({ X: 2, Y: 2 }, [['I', ['X', 'Y']], ['J', []]], 'A', "P(('X', 'Y'), None)");
const IYX = layoutOf({ X: 2, Y: 2 }, [['I', ['Y', 'X']], ['J', []]], 'A', "P(('Y', 'X'), None)");
const IX = layoutOf({ X: 2, Y: 2 }, [['I', ['X']], ['J', []]], 'A', "P('X', None)");
const IXJY = layoutOf({ X: 2, Y: 2 }, [['I', ['X']], ['J', ['Y']]], 'A', "P('X', 'Y')");

// The block cells of one device in a rendered picture: "i,j" -> held?
function blocksOf(svg, device) {
  const group = new RegExp(`<g class="device" data-device="${device}"[^]*?</g>`).exec(svg)[0];
  return Object.fromEntries([...group.matchAll(/<rect class="block( held)?" data-block="(\d+,\d+)"/g)].map((m) => [m[2], Boolean(m[1])]));
}

// The pictures' numbers print through format.js, which asks the real engine.
before(async () => useEngine(await loadEngine()));

test('A[I_XY, J] on X=2, Y=2 puts piece 2 of I on device (1,0), and A[I_YX, J] puts it on (0,1)', () => {
  const device = (layout, x, y) => layout.devices.find((d) => d.coords[0] === x && d.coords[1] === y);
  assert.deepEqual(device(IXY, 1, 0), { id: 2, coords: [1, 0], pieces: [2, 0] });
  const svg = meshPictureHTML(IXY);
  assert.deepEqual(blocksOf(svg, 2), { '0,0': false, '1,0': false, '2,0': true, '3,0': false });
  // Traversal order matters: over Y first, device (0,1) gets piece 2 and (1,0) piece 1.
  const yx = meshPictureHTML(IYX);
  assert.deepEqual(blocksOf(yx, 1), { '0,0': false, '1,0': false, '2,0': true, '3,0': false });
  assert.deepEqual(blocksOf(yx, 2), { '0,0': false, '1,0': true, '2,0': false, '3,0': false });
  // The grid: X down, Y across, each device where its coordinates say.
  const [panel] = meshArrangement(IXY);
  assert.deepEqual(panel.cells.map((c) => [c.device.id, c.row, c.col]), [[0, 0, 0], [1, 0, 1], [2, 1, 0], [3, 1, 1]]);
  assert.match(svg, /<text class="axis-title"[^>]*>X ↓ {2}Y →<\/text>/);
  assert.equal(localShapeText(IXY), '[I/4, J]');
  assert.equal(captionText(IXY), 'I is split 4 ways over XY; J is not split. Every block is on 1 device.');
});

test('A[I_X, J_Y] gives each device one quadrant; A[I_X, J] copies each block along Y', () => {
  const svg = meshPictureHTML(IXJY);
  assert.deepEqual(blocksOf(svg, 1), { '0,0': false, '0,1': true, '1,0': false, '1,1': false });
  assert.deepEqual(blocksOf(svg, 2), { '0,0': false, '0,1': false, '1,0': true, '1,1': false });
  assert.match(svg, /data-block="1,0"[^>]*\/><text class="block-label held ink-dark"[^>]*>10</); // the book's labels, black on orange
  assert.equal(localShapeText(IXJY), '[I/2, J/2]');
  const ix = meshPictureHTML(IX);
  assert.deepEqual(blocksOf(ix, 0), { '0,0': true, '1,0': false });
  assert.deepEqual(blocksOf(ix, 1), { '0,0': true, '1,0': false });
  assert.deepEqual(blocksOf(ix, 3), { '0,0': false, '1,0': true });
  assert.equal(copiesPerBlock(IX), 2);
  assert.match(captionText(IX), /Every block is on 2 devices\.$/);
  const replicated = layoutOf({ X: 2, Y: 2 }, [['I', []], ['J', []]], 'A', 'P(None, None)');
  assert.equal(copiesPerBlock(replicated), 4);
  assert.equal((meshPictureHTML(replicated).match(/class="block held"/g) ?? []).length, 4);
});

test('a third mesh axis draws one grid per index; a big mesh is described, not drawn', () => {
  // The book's quiz: int8[128, 2048] as A[I_XY, J] on X=2, Y=8, Z=2: 16 pieces of I, 2 copies (one per Z).
  const quiz = layoutOf({ X: 2, Y: 8, Z: 2 }, [['I', ['X', 'Y']], ['J', []]], 'A', "P(('X', 'Y'), None)");
  const panels = meshArrangement(quiz);
  assert.deepEqual(panels.map((p) => [p.label, p.rows, p.cols, p.cells.length]), [['Z=0', 2, 8, 16], ['Z=1', 2, 8, 16]]);
  assert.deepEqual(panels[1].cells.slice(0, 3).map((c) => c.device.id), [1, 3, 5]);
  assert.equal(copiesPerBlock(quiz), 2);
  assert.equal(localShapeText(quiz), '[I/16, J]');
  const picture = meshPictureHTML(quiz);
  assert.equal((picture.match(/<svg class="mesh"/g) ?? []).length, 2);
  assert.match(picture, /<p class="panel-label">Z=1<\/p>/);
  // The engine may spell a dimension's axes as text ('XY') rather than a list: same picture.
  const spelled = { ...quiz, dims: quiz.dims.map((d) => ({ ...d, axes: d.axes.join('') })), unreduced: 'Z' };
  assert.equal(meshPictureHTML(spelled), picture);
  assert.equal(captionText(spelled), 'I is split 16 ways over XY; J is not split. Every block is on 2 devices. Unreduced over Z: each device holds partial sums.');
  const big = layoutOf({ X: 16, Y: 8 }, [['I', ['X']], ['J', ['Y']]]);
  assert.match(meshPictureHTML(big), /128 devices are too many to draw/);
  // One axis: a 1-D array, devices across in rows of 4, blocks labelled by their piece.
  const line = layoutOf({ X: 8 }, [['I', ['X']]], 'x', "P('X',)");
  assert.deepEqual(meshArrangement(line).map((p) => [p.rows, p.cols]), [[2, 4]]);
  assert.equal(blockLabel(5, 0, 1), '5');
  assert.equal(blockLabel(12, 3, 2), '12,3');
  assert.deepEqual(jaxLines(line), ["mesh = jax.make_mesh((8,), ('X',))", "x = jax.device_put(x, NamedSharding(mesh, P('X',)))"]);
  assert.deepEqual(jaxLines(IXY), ["mesh = jax.make_mesh((2, 2), ('X', 'Y'))", "A = jax.device_put(A, NamedSharding(mesh, P(('X', 'Y'), None)))"]);
});

// The array-memory calculator's schema as the engine declares its outputs (units as the
// registry gives them), and its answer to the book's quiz: fp32[1024, 4096] as A[I_XY, J] on
// X=8, Y=2 is fp32[64, 4096] = 1 MiB per device; H100 reads it from HBM at 3.35e12 B/s.
const MEMORY_SCHEMA = {
  name: 'array-memory', description: 'bytes of a sharded array', dimensions: 'sizes of the array dimensions',
  inputs: [
    { name: 'array', type: 'text', unit: '', default: 'A[I_X, J_Y]', description: 'array spec' },
    { name: 'mesh', type: 'text', unit: '', default: 'X=2, Y=2', description: 'mesh' },
    { name: 'dtype', type: 'choice', unit: '', default: 'bf16', choices: ['fp32', 'bf16', 'int8'], description: 'format' },
    { name: 'chip', type: 'choice', unit: '', default: 'tpu-v5e', choices: ['tpu-v5e', 'h100'], description: 'chip' },
  ],
  outputs: [['devices', ''], ['local_shape', '', 'text'], ['elements_per_device', ''], ['bytes_per_device', 'B'],
    ['bytes_array', 'B'], ['bytes_total', 'B'], ['replication', ''], ['sharded_over', '', 'text'],
    ['partition_spec', '', 'text'], ['hbm_load_time', 's'], ['fits', '', 'text']]
    .map(([name, unit, type = 'number']) => ({ name, unit, type, description: name })),
  tables: [],
};
const QUIZ_LAYOUT = layoutOf({ X: 8, Y: 2 }, [['I', ['X', 'Y']], ['J', []]], 'A', "P(('X', 'Y'), None)");
const QUIZ_MEMORY = {
  devices: 16, local_shape: '64x4096', elements_per_device: 64 * 4096, bytes_per_device: 64 * 4096 * 4,
  bytes_array: 1024 * 4096 * 4, bytes_total: 1024 * 4096 * 4, replication: 1, sharded_over: 'XY',
  partition_spec: "P(('X', 'Y'), None)", hbm_load_time: (64 * 4096 * 4) / 3.35e12, fits: 'yes', steps: [],
};

function fakeShardingEngine(calls = []) {
  return {
    list: () => [{ name: 'array-memory', description: '' }],
    schema: () => MEMORY_SCHEMA,
    chips: () => [{ id: 'tpu-v5e', name: 'TPU v5e' }, { id: 'h100', name: 'NVIDIA H100 SXM' }],
    shardingLayout(request) {
      calls.push(['layout', request]);
      if (request.array === 'A[I_X, J_X]') {
        throw new CalculatorError({ code: 'invalid_argument', field: 'array', message: 'mesh axis X is used twice', position: 9 });
      }
      if (request.mesh === 'X=8, Y=2') return QUIZ_LAYOUT;
      return IXY;
    },
    calculate(name, inputs) {
      calls.push([name, inputs]);
      if (inputs.I === '0') throw new CalculatorError({ code: 'out_of_range', field: 'I', message: 'I must be >= 1, got 0' });
      return QUIZ_MEMORY;
    },
  };
}

test('the memory numbers come from the calculator once every dimension has a size', () => {
  const calls = [];
  const engine = fakeShardingEngine(calls);
  const values = { array: 'A[I_XY, J]', mesh: 'X=8, Y=2', dtype: 'fp32', chip: 'h100', I: '1024', J: '4096' };
  const run = runSharding(engine, MEMORY_SCHEMA, values);
  assert.deepEqual(calls, [['layout', { array: 'A[I_XY, J]', mesh: 'X=8, Y=2' }],
    ['array-memory', { array: 'A[I_XY, J]', mesh: 'X=8, Y=2', dtype: 'fp32', chip: 'h100', I: '1024', J: '4096' }]]);
  const body = shardingBodyHTML(MEMORY_SCHEMA, run);
  assert.match(body, /data-output="bytes_per_device">1\.05 MB</);
  assert.match(body, /data-output="bytes_total">16\.8 MB</);
  assert.match(body, /data-output="local_shape">64x4096</);
  assert.match(body, /data-output="hbm_load_time">313 ns</);
  assert.match(body, /data-local>\[I\/16, J\]</);
  assert.match(body, /mesh = jax\.make_mesh\(\(8, 2\), \(&#39;X&#39;, &#39;Y&#39;\)\)/);
  // Without sizes the picture still draws and the numbers wait, with a word why.
  const partial = runSharding(engine, MEMORY_SCHEMA, { array: 'A[I_XY, J]', mesh: 'X=8, Y=2', I: '1024' });
  assert.equal(partial.memory, null);
  assert.deepEqual(partial.missing, ['J']);
  assert.match(shardingBodyHTML(MEMORY_SCHEMA, partial), /Give the size of J for the bytes\.[^]*<dl class="outputs stale">/);
  // Empty fields fall back to the schema's defaults (array and mesh) or are left to the engine.
  assert.deepEqual(memoryRequest(MEMORY_SCHEMA, { I: '8', J: ' 16 ', dtype: '' }, ['I', 'J']),
    { array: 'A[I_X, J_Y]', mesh: 'X=2, Y=2', I: '8', J: '16' });
});

test('an illegal spec shows the engine’s message beside the array field, the offending character marked', () => {
  const engine = fakeShardingEngine();
  const values = { array: 'A[I_X, J_X]', mesh: 'X=2, Y=2' };
  const run = runSharding(engine, MEMORY_SCHEMA, values);
  assert.deepEqual(run.error, { field: 'array', message: 'mesh axis X is used twice', position: 9 });
  const html = shardingHTML({ schema: MEMORY_SCHEMA, values, run });
  assert.match(html, /<span class="error" id="shard-array-err" data-error-for="array">mesh axis X is used twice <code class="marked">A\[I_X, J_<mark data-position="9">X<\/mark>\]<\/code><\/span>/);
  assert.match(html, /<input id="shard-array" name="array"[^>]* aria-invalid="true"/);
  assert.match(html, /No picture to show/);
  // A dimension's bad size goes beside that dimension's field.
  const bad = runSharding(engine, MEMORY_SCHEMA, { array: 'A[I_XY, J]', mesh: 'X=2, Y=2', I: '0', J: '8' });
  assert.match(shardingHTML({ schema: MEMORY_SCHEMA, values: { array: 'A[I_XY, J]', I: '0', J: '8' }, run: bad }),
    /data-error-for="I">I must be &gt;= 1, got 0</);
  assert.match(markedTextHTML('A[I_X', 5), /A\[I_X<mark data-position="5">&#x2423;<\/mark>/); // past the end
  assert.equal(errorHTML({ message: 'bad' }, 'x'), 'bad');
  assert.deepEqual(asError(new Error('boom')), { field: '', message: 'the engine failed: boom' });
  // Counts keep every digit, with their unit; quantities take SI prefixes.
  assert.deepEqual([valueText(4096, 'devices'), valueText(262144, ''), valueText(2, 'x'), valueText(4, 'hops'), valueText(1048576, 'B'), valueText(null)],
    ['4,096 devices', '262,144', '2×', '4 hops', '1.05 MB', '—']);
});

test('the form offers a size field per dimension of the spec, the presets, and the chip names', () => {
  const html = shardingHTML({
    schema: MEMORY_SCHEMA, chips: fakeShardingEngine().chips(), values: { array: 'A[I_XY, J, K_Z]', chip: 'h100' },
  });
  assert.deepEqual([...html.matchAll(/<input id="shard-(\w+)"/g)].map((m) => m[1]), ['array', 'mesh', 'I', 'J', 'K']);
  assert.match(html, /<option value="h100" selected>NVIDIA H100 SXM<\/option>/);
  assert.equal((html.match(/data-preset=/g) ?? []).length, PRESETS.length);
  assert.match(shardingHTML({ schema: MEMORY_SCHEMA, values: { array: 'A[I_XY, J]' } }), /data-preset="A\[I_XY, J\]" aria-pressed="true"/);
  assert.deepEqual(dimensionNames('A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]{U_Z}'), ['I', 'J', 'K']);
  assert.deepEqual(dimensionNames('W[Dmodel_X, Dff] x'), ['Dmodel', 'Dff']);
  assert.deepEqual(dimensionNames('A[I'), []);
});

// The sharded-matmul calculator's schema and two plans worked by hand on TPU v5e (197e12
// bf16 FLOP/s; 4.5e10 B/s per ICI link one way; an axis of 4 does not wrap).
const PLANNER_SCHEMA = {
  name: 'sharded-matmul', description: 'a matmul of sharded arrays', dimensions: 'sizes of the named dimensions',
  inputs: [
    { name: 'spec', type: 'text', unit: '', default: 'A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]', description: 'spec' },
    { name: 'mesh', type: 'text', unit: '', default: 'X=4, Y=4', description: 'mesh' },
    { name: 'dtype', type: 'choice', unit: '', default: 'bf16', choices: ['bf16', 'fp32'], description: 'format' },
    { name: 'chip', type: 'choice', unit: '', default: 'tpu-v5e', choices: ['tpu-v5e', 'tpu-v5p'], description: 'chip' },
    { name: 'wraparound', type: 'choice', unit: '', default: 'auto', choices: ['auto', 'yes', 'no'], description: 'wraps', group: 'advanced' },
    { name: 'comm_bandwidth', type: 'number', unit: 'B/s', default: null, description: 'override', group: 'override' },
  ],
  outputs: [['case', '', 'text'], ['output_sharding', '', 'text'], ['local_a', '', 'text'], ['local_b', '', 'text'],
    ['local_c', '', 'text'], ['memory_per_device', 'B'], ['flops_per_device', 'FLOP'], ['t_compute', 's'], ['t_comm', 's'],
    ['t_serial', 's'], ['t_total', 's'], ['overlap', '', 'text'], ['devices', '']]
    .map(([name, unit, type = 'number']) => ({ name, unit, type, description: name })),
  tables: [
    { name: 'collectives', description: '', columns: [{ name: 'op', type: 'text', unit: '' }, { name: 'axes', type: 'text', unit: '' },
      { name: 'array', type: 'text', unit: '' }, { name: 'bytes', type: 'number', unit: 'B' }, { name: 'time', type: 'number', unit: 's' }] },
  ],
};
const FLOPS = 2 * 1024 * 4096 * 8192; // C[I, K] = A[I, J] B[J, K], I = 1024, J = 4096, K = 8192, on every device
const GATHER = (3 * (1024 * 4096 * 2)) / (4 * 4.5e10); // (n-1) V / (n W) on a line of 4
const CASE2 = {
  case: '2', case_description: 'A is sharded along the contracting dimension J: gather it first',
  plan: 'AllGather_X A[I, J_X] -> A[I, J]; A[I, J] * B[J, K] -> C[I, K]',
  output_sharding: 'C[I, K]', local_a: '1024x1024', local_b: '4096x8192', local_c: '1024x8192',
  memory_per_device: (1024 * 4096 + 4096 * 8192 + 1024 * 8192) * 2, flops_per_device: FLOPS,
  t_compute: FLOPS / 197e12, t_comm: GATHER, t_serial: FLOPS / 197e12 + GATHER, t_total: FLOPS / 197e12, overlap: 'yes', devices: 4,
  collectives: [{ op: 'all-gather', axes: 'X', array: 'A[I, J_X]', bytes: 1024 * 4096 * 2, time: GATHER }],
  alternatives: [{ plan: 'A[I, J_X] *_LOCAL B[J_X, K] -> C[I, K]{U_X}; AllReduce_X C[I, K]{U_X} -> C[I, K]', collectives: 'AllReduce_X',
    t_comm: (2 * 3 * 1024 * 8192 * 2) / (4 * 4.5e10), t_total: (2 * 3 * 1024 * 8192 * 2) / (4 * 4.5e10) }],
  steps: [{ label: 'compute time', latex: 'T = \\frac{2IJK}{C}', value: FLOPS / 197e12, unit: 's', output: 't_compute', depends: [] }],
};

test('the plan: case, steps in book notation, tables and the memory per device', () => {
  const body = plannerBodyHTML(PLANNER_SCHEMA, CASE2);
  assert.match(body, /Case <span class="badge case-badge" data-case>2<\/span> <span data-case-description>A is sharded/);
  assert.deepEqual(planSteps(CASE2.plan), ['AllGather_X A[I, J_X] -> A[I, J]', 'A[I, J] * B[J, K] -> C[I, K]']);
  assert.match(body, /<li><code>AllGather<sub>X<\/sub> A\[I, J<sub>X<\/sub>\] -&gt; A\[I, J\]<\/code><\/li>/);
  assert.match(body, /<td role="cell" data-column="op" data-label="op">AllGather<\/td><td role="cell" data-column="axes" data-label="axes">X<\/td><td role="cell" data-column="array" data-label="array">A\[I, J<sub>X<\/sub>\]<\/td>/);
  assert.match(body, /<td role="cell" data-column="bytes" data-label="bytes \(B\)">8\.39 MB<\/td><td role="cell" data-column="time" data-label="time \(s\)">140 µs<\/td>/);
  assert.match(body, /data-output="memory_per_device">92\.3 MB</);
  assert.match(body, /data-output="flops_per_device">68\.7 GFLOP</);
  // Alternatives: the contract's columns when the schema lists no such table.
  assert.match(body, /<table class="plan-table" role="table" data-table="alternatives">[^]*C\[I, K\]\{U<sub>X<\/sub>\}[^]*<td role="cell" data-column="t_total" data-label="t_total \(s\)">559 µs<\/td>/);
  assert.match(body, /<details class="worked"><summary>How the engine worked it out<\/summary><ol class="steps"><li><span class="step-label">compute time<\/span> <span class="step-math"><code>T = \\frac\{2IJK\}\{C\}<\/code>/);
  assert.equal(notationHTML('AllReduce_{XY} C[I, K]{U_XY}'), 'AllReduce<sub>XY</sub> C[I, K]{U<sub>XY</sub>}');
  const case1 = plannerBodyHTML(PLANNER_SCHEMA, { ...CASE2, case: '1', collectives: [], alternatives: [] });
  assert.match(case1, /No communication: every device multiplies its own blocks\./);
});

test('the timeline puts compute and each collective one after another, and side by side when overlapped', () => {
  const model = timelineModel(CASE2);
  assert.equal(model.span, CASE2.t_serial);
  assert.deepEqual(model.lanes[0].bars.map((b) => [b.label, b.start, b.time]),
    [['compute', 0, CASE2.t_compute], ['AllGather X', CASE2.t_compute, GATHER]]);
  assert.deepEqual(model.lanes[1].bars.map((b) => [b.label, b.start, b.half]), [['compute', 0, 'top'], ['AllGather X', 0, 'bottom']]);
  const svg = timelineSVG(CASE2);
  assert.match(svg, /data-total="t_serial">t_serial 489 µs</);
  assert.match(svg, /data-total="t_total">t_total 349 µs</);
  // The bars' widths are in proportion, to a tenth of a unit: compute fills 349/489 of the
  // 400-unit track.
  const compute = /<rect class="bar bar-compute" data-bar="compute" x="0" y="18" width="([\d.]+)"/.exec(svg);
  assert.equal(compute[1], String(Math.round((4000 * CASE2.t_compute) / CASE2.t_serial) / 10));
  assert.ok(Math.abs(Number(compute[1]) - (400 * CASE2.t_compute) / CASE2.t_serial) <= 0.05);
  // All zero (nothing to do) still draws.
  assert.match(timelineSVG({ t_compute: 0, t_serial: 0, t_total: 0, collectives: [] }), /t_total 0 s/);
});

test('the planner form: a size per dimension after the mesh, errors beside the field they name', () => {
  const { head, dims, tail } = plannerInputs(PLANNER_SCHEMA, ['I', 'J', 'K']);
  assert.deepEqual([head, dims, tail].map((list) => list.map((i) => i.name)), [['spec', 'mesh'], ['I', 'J', 'K'], ['dtype', 'chip', 'wraparound']]);
  assert.deepEqual(plannerRequest(PLANNER_SCHEMA, { spec: 'A[I, J_X] * B[J, K] -> C[I, K]', mesh: 'X=4', I: '1024', J: '4096', K: '8192', L: '5', dtype: '' }),
    { spec: 'A[I, J_X] * B[J, K] -> C[I, K]', mesh: 'X=4', I: '1024', J: '4096', K: '8192' });
  const calls = [];
  const engine = {
    calculate(name, inputs) {
      calls.push([name, inputs]);
      if (inputs.K === 'x') throw new CalculatorError({ code: 'invalid_argument', field: 'K', message: 'K must be a number, got "x"' });
      if (inputs.spec.includes('->')) return CASE2;
      throw new CalculatorError({ code: 'invalid_argument', field: 'spec', message: 'spec needs "->" before the output', position: inputs.spec.length });
    },
  };
  assert.equal(runPlanner(engine, PLANNER_SCHEMA, { I: '1', J: '2', K: '3' }).result, CASE2);
  assert.equal(calls[0][1].spec, 'A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]'); // the schema's default spec
  const bad = runPlanner(engine, PLANNER_SCHEMA, { spec: 'A[I, J] * B[J, K]', I: '1', J: '2', K: '3' });
  const html = plannerHTML({ schema: PLANNER_SCHEMA, values: { spec: 'A[I, J] * B[J, K]' }, run: bad });
  assert.match(html, /data-error-for="spec">spec needs &quot;-&gt;&quot; before the output <code class="marked">A\[I, J\] \* B\[J, K\]<mark data-position="17">&#x2423;<\/mark><\/code>/);
  assert.match(html, /<div class="field wide"><label for="plan-spec">/);
  const dimError = runPlanner(engine, PLANNER_SCHEMA, { I: '1', J: '2', K: 'x' });
  assert.match(plannerHTML({ schema: PLANNER_SCHEMA, values: { I: '1', J: '2', K: 'x' }, run: dimError }),
    /<input id="plan-K" name="K"[^>]* aria-invalid="true"[^]*data-error-for="K">K must be a number, got &quot;x&quot;</);
  assert.doesNotMatch(html, /comm_bandwidth/); // chip overrides are not offered here
});

// The collective calculator's schema and an AllGather on a bidirectional ring of 4 worked by
// hand: V = 4 MB, shards of 1 MB, W = 4.5e10 B/s one way, 1 µs a hop. Step 1 sends every shard
// both ways; step 2 forwards the missing one clockwise: 2 hops of 1e6 / 4.5e10 = 22.2 µs each.
const COLLECTIVE_SCHEMA = {
  name: 'collective', description: 'a collective', dimensions: null,
  inputs: [
    { name: 'op', type: 'choice', unit: '', default: 'all-gather', choices: ['all-gather', 'reduce-scatter', 'all-reduce', 'all-to-all'], description: 'op' },
    { name: 'bytes', type: 'number', unit: 'B', default: 1e6, description: 'bytes' },
    { name: 'axis_size', type: 'count', unit: '', default: 8, description: 'devices' },
    { name: 'axes', type: 'text', unit: '', default: '', description: 'axes' },
    { name: 'wraparound', type: 'choice', unit: '', default: 'auto', choices: ['auto', 'yes', 'no'], description: 'wraps' },
    { name: 'bidirectional', type: 'choice', unit: '', default: 'yes', choices: ['yes', 'no'], description: 'both ways' },
    { name: 'latency', type: 'number', unit: 's', default: null, description: 'per hop' },
    { name: 'chip', type: 'choice', unit: '', default: 'tpu-v5e', choices: ['tpu-v5e', 'h100'], description: 'chip' },
  ],
  outputs: [['time', 's'], ['bound', '', 'text'], ['t_bandwidth', 's'], ['t_latency', 's'], ['hops', ''], ['busbw', 'B/s'],
    ['algbw', 'B/s'], ['bytes_per_chip', 'B'], ['crossover_bytes', 'B'], ['link_bandwidth', 'B/s'], ['efficiency', '']]
    .map(([name, unit, type = 'number']) => ({ name, unit, type, description: name })),
  tables: [],
};
const HOP = 1e6 / 4.5e10;
const ring = (d) => (d + 4) % 4;
const AG4 = {
  op: 'all-gather', shape: [4], devices: 4, chunks: 4,
  steps: [
    { start: 0, duration: HOP, phase: 'all-gather', axis: 0,
      moves: [0, 1, 2, 3].flatMap((d) => [{ from: d, to: ring(d + 1), chunk: d, bytes: 1e6 }, { from: d, to: ring(d - 1), chunk: d, bytes: 1e6 }]) },
    { start: HOP, duration: HOP, phase: 'all-gather', axis: 0,
      moves: [0, 1, 2, 3].map((d) => ({ from: d, to: ring(d + 1), chunk: ring(d - 1), bytes: 1e6 })) },
  ],
  states: [
    [0, 1, 2, 3].map((d) => [0, 1, 2, 3].map((c) => (c === d ? 1 : 0))),
    [0, 1, 2, 3].map((d) => [0, 1, 2, 3].map((c) => (c === ring(d + 2) ? 0 : 1))),
    [0, 1, 2, 3].map(() => [1, 1, 1, 1]),
  ],
  time: 2 * HOP,
  closed_form: (2 * 4e6) / (4 * 4.5e10),
};
const COST = {
  time: 2 * HOP, bound: 'bandwidth', t_bandwidth: 2 * HOP, t_latency: 2e-6, hops: 2, bytes_per_chip: 3e6, crossover_bytes: 4e6 * (1e-6 / HOP),
  link_bandwidth: 4.5e10, chips: 4, wraps: 'yes', algbw: 4e6 / (2 * HOP), busbw: (3 / 4) * (4e6 / (2 * HOP)),
  achieved_bandwidth: 4.5e10, peak_bandwidth: 4.5e10, efficiency: 1,
  steps: [{ label: 'bandwidth term', latex: 'T = \\frac{V}{W}', value: 2 * HOP, unit: 's', output: 't_bandwidth', depends: [] }],
};

test('each frame shows the devices’ chunks, the next step’s moves and the traffic so far', () => {
  const layout = simLayout(AG4, true);
  const held = (frame) => (collectiveSVG(AG4, layout, frame).match(/class="cell"[^>]*fill-opacity="1"/g) ?? []).length;
  assert.deepEqual([0, 1, 2].map(held), [4, 12, 16]);
  assert.equal((collectiveSVG(AG4, layout, 0).match(/<g class="move"/g) ?? []).length, 8); // both ways round
  assert.equal((collectiveSVG(AG4, layout, 1).match(/<g class="move"/g) ?? []).length, 4);
  assert.equal((collectiveSVG(AG4, layout, 2).match(/<g class="move"/g) ?? []).length, 0);
  // Chunk c has device c's colour wherever it goes.
  const chip = /<g class="move" data-from="3" data-to="0">[^]*?fill="([^"]+)"/.exec(collectiveSVG(AG4, layout, 1));
  assert.match(collectiveSVG(AG4, layout, 0), new RegExp(`data-device="2"[^]*?data-cell="2"[^>]*fill="${chip[1].replace(/[()]/g, '\\$&')}" fill-opacity="1"`));
  const flow = traffic(AG4);
  assert.deepEqual(flow, { sent: [0, 8e6, 12e6], busiest: [0, 1e6, 2e6] });
  assert.deepEqual(statsView(AG4, 1, flow), {
    step: '1 of 2', phase: 'next: all-gather', clock: '22.2 µs of 44.4 µs', moving: '4 MB', sent: '8 MB', busiest: '1 MB',
    valuetext: 'step 1 of 2',
  });
  assert.equal(statsView(AG4, 2).phase, 'done');
  assert.equal(checkText(AG4), 'simulation total 44.4 µs = closed form 44.4 µs');
  assert.equal(checkText({ ...AG4, time: 3 * HOP }), 'simulation total 66.7 µs differs from the closed form 44.4 µs');
  assert.equal(checkText({ ...AG4, shape: [2, 2], time: 3 * HOP }),
    'simulation total 66.7 µs, one axis after the other; the closed form 44.4 µs runs both axes at once');
  assert.deepEqual(movesByLink(AG4.steps[1].moves).map((l) => `${l.from}>${l.to}`), ['0>1', '1>2', '2>3', '3>0']);
});

test('a ring sits on a circle, a line goes back and forth in rows, a 2D torus is a grid with wraparound stubs', () => {
  const ringLayout = simLayout(AG4, true);
  const [top, right, bottom, left] = ringLayout.boxes;
  assert.ok(top.y < right.y && right.x > left.x && bottom.y > top.y && top.x === bottom.x);
  assert.deepEqual(ringLayout.links.map((l) => [l.a, l.b, l.wrap]), [[0, 1, false], [1, 2, false], [2, 3, false], [3, 0, true]]);
  // On the circle the wraparound is one more chord, no stubs.
  assert.match(collectiveSVG(AG4, ringLayout, 2), new RegExp(`<line class="link wrap" x1="${left.x}" y1="${left.y}" x2="${top.x}" y2="${top.y}"/>`));
  const line = simLayout(AG4, false);
  assert.deepEqual(line.links.map((l) => [l.a, l.b]), [[0, 1], [1, 2], [2, 3]]);
  assert.ok(line.boxes.every((b) => b.y === line.boxes[0].y));
  const torus = { ...AG4, shape: [4, 4], devices: 16, chunks: 16, states: [Array.from({ length: 16 }, () => Array(16).fill(0))], steps: [] };
  const grid = simLayout(torus, true);
  assert.deepEqual(chunkGrid(torus), { rows: 4, cols: 4 });
  assert.equal(grid.links.filter((l) => !l.wrap).length, 24);
  assert.equal(grid.links.filter((l) => l.wrap).length, 8);
  assert.ok(grid.boxes[5].x > grid.boxes[4].x && grid.boxes[5].y > grid.boxes[1].y); // device 5 = (1, 1): X down, Y across
  assert.equal((collectiveSVG(torus, grid, 0).match(/class="link wrap"/g) ?? []).length, 16); // two stubs per wraparound
  // A move bends to the left of its direction, so 0->1 and 1->0 do not overlap; chips ride the curve.
  const there = movePath(ringLayout, 0, 1);
  const back = movePath(ringLayout, 1, 0);
  assert.notDeepEqual([there[2], there[3]], [back[2], back[3]]);
  assert.deepEqual(pointAt(there, 0), { x: there[0], y: there[1] });
  assert.deepEqual(pointAt(there, 1), { x: there[4], y: there[5] });
  // AllToAll: blocks by source (rows) and destination (columns), coloured by their source.
  assert.deepEqual(chunkGrid(AG4), { rows: 2, cols: 2 });
  assert.deepEqual(chunkGrid({ ...AG4, shape: [8], devices: 8, chunks: 8 }), { rows: 3, cols: 3 });
  const a2a = { ...AG4, op: 'all-to-all', chunks: 16 };
  assert.deepEqual(chunkGrid(a2a), { rows: 4, cols: 4 });
  assert.equal(chunkOrigin(a2a, 9), 2);
  assert.equal(chunkOrigin(AG4, 3), 3);
});

test('ReduceScatter with values shows each device’s partial sums', () => {
  // Two devices holding 1 and 2 in both chunks; one swap and each owns its chunk summed: 3.
  const rs = {
    op: 'reduce-scatter', shape: [2], devices: 2, chunks: 2, time: HOP, closed_form: HOP,
    steps: [{ start: 0, duration: HOP, phase: 'reduce-scatter', axis: 0,
      moves: [{ from: 0, to: 1, chunk: 1, bytes: 1e6 }, { from: 1, to: 0, chunk: 0, bytes: 1e6 }] }],
    states: [[[0.5, 0.5], [0.5, 0.5]], [[1, 0.5], [0.5, 1]]],
    sums: [[[1, 1], [2, 2]], [[3, 1], [2, 3]]],
  };
  assert.deepEqual(sampleValues(2), [[1, 1], [2, 2]]);
  const layout = simLayout(rs, false, true);
  assert.equal(layout.cell, 18);
  const sums = (frame) => [...collectiveSVG(rs, layout, frame).matchAll(/class="cell-sum"[^>]*>([^<]+)</g)].map((m) => m[1]);
  assert.deepEqual(sums(0), ['1', '1', '2', '2']);
  assert.deepEqual(sums(1), ['3', '1', '2', '3']);
  assert.equal((collectiveSVG(rs, simLayout(rs, false), 1).match(/class="cell-sum"/g) ?? []).length, 0); // sums off
});

test('the simulation runs on the calculator’s link bandwidth and latency; errors land on the simulator’s fields', () => {
  const calls = [];
  const engine = {
    calculate(name, inputs) {
      calls.push([name, inputs]);
      if (inputs.axis_size === '1') throw new CalculatorError({ code: 'out_of_range', field: 'axis_size', message: 'axis_size must be >= 2, got 1' });
      return COST;
    },
    simulateCollective(request) {
      calls.push(['simulate', request]);
      return AG4;
    },
  };
  const values = { op: 'all-gather', shape: '4', bytes: '4e6', wraparound: 'yes', bidirectional: 'yes', latency: '', chip: 'tpu-v5e' };
  const run = runCollective(engine, COLLECTIVE_SCHEMA, values);
  assert.equal(run.sim, AG4);
  assert.deepEqual(calls, [
    ['collective', { op: 'all-gather', bytes: '4e6', wraparound: 'yes', bidirectional: 'yes', chip: 'tpu-v5e', axis_size: '4' }],
    ['simulate', { op: 'all-gather', shape: '4', bytes: 4e6, wraparound: 'yes', bidirectional: 'yes', bandwidth: 4.5e10, latency: 1e-6 }],
  ]);
  assert.equal(latencyOf(COLLECTIVE_SCHEMA, { latency: '2e-6' }, COST), 2e-6);
  assert.deepEqual(costRequest(COLLECTIVE_SCHEMA, { shape: '4x4' }), { wraparound: 'yes', axes: '4x4' });
  assert.deepEqual(costRequest(COLLECTIVE_SCHEMA, {}), { wraparound: 'yes', axis_size: '8' }); // the schema's axis size
  const sums = simRequest(COLLECTIVE_SCHEMA, { op: 'all-reduce', shape: '4', sums: 'yes' }, COST);
  assert.deepEqual(sums.values, [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]]);
  assert.equal(simRequest(COLLECTIVE_SCHEMA, { op: 'all-gather', sums: 'yes' }, COST).values, undefined);
  const bad = runCollective(engine, COLLECTIVE_SCHEMA, { ...values, shape: '1' });
  assert.deepEqual(bad.error, { field: 'shape', message: 'axis_size must be >= 2, got 1' });
  const html = collectiveSimHTML({ schema: COLLECTIVE_SCHEMA, values: { ...values, shape: '1' }, run: bad });
  assert.match(html, /data-error-for="shape">axis_size must be &gt;= 2, got 1</);
});

test('the simulator’s page: fields from the calculator, playback, the closed form and its numbers', () => {
  assert.deepEqual(simInputs(COLLECTIVE_SCHEMA).map((i) => [i.name, i.default]), [['op', 'all-gather'], ['shape', '8'], ['bytes', 1e6],
    ['wraparound', 'yes'], ['bidirectional', 'yes'], ['latency', null], ['chip', 'tpu-v5e']]);
  const values = { op: 'all-gather', shape: '4', bytes: '4e6' };
  const html = collectiveSimHTML({ schema: COLLECTIVE_SCHEMA, values, run: { cost: COST, sim: AG4, error: null } });
  assert.match(html, /<select id="coll-wraparound" name="wraparound"[^>]*><option value="yes" selected>yes<\/option><option value="no">no<\/option><\/select>/);
  assert.match(html, /<input type="range" data-action="scrub" min="0" max="2" value="0"/);
  assert.match(html, /data-stat="check">simulation total 44\.4 µs = closed form 44\.4 µs</);
  assert.match(html, /<span class="badge badge-bandwidth" data-bound>bandwidth<\/span>/);
  assert.match(html, /data-output="time">44\.4 µs<[^]*data-output="t_latency">2 µs<[^]*data-output="busbw">67\.5 GB\/s</);
  assert.match(html, /<summary>The closed form<\/summary><ol class="steps"><li><span class="step-label">bandwidth term/);
  assert.match(html, /Each device starts with its own chunk/);
  const empty = collectiveSimHTML({ schema: COLLECTIVE_SCHEMA, values: {}, run: null });
  assert.match(empty, /data-action="play" aria-pressed="false" disabled[^]*No simulation to show/);
});

// Directives: settings are checked at build time; with an engine that has the calculator, the
// element carries its first render; with one that lacks it, the bare element and a line.
function directive(line, engine) {
  const ctx = { engine, calculators: new Map() };
  return extractDirectives(ctx, `# T\n\n${line}\n`, 'x.md').blocks[0];
}

test('quoted settings keep their spaces; an unclosed quote is an error', () => {
  assert.deepEqual(parseArgs('array="A[I_XY, J]" mesh="X=2, Y=2" I=1024').named, { array: 'A[I_XY, J]', mesh: 'X=2, Y=2', I: '1024' });
  assert.deepEqual(parseArgs('systolic rows=4').positional, ['systolic']);
  assert.equal(parseArgs('a="open b=2').unclosed, true);
});

test('the directives render the first picture with an engine that has the calculators', () => {
  const html = directive('::sharding array="A[I_XY, J]" mesh="X=8, Y=2" I=1024 J=4096 dtype=fp32 chip=h100', fakeShardingEngine());
  assert.match(html, /^<sb-sharding array="A\[I_XY, J\]" mesh="X=8, Y=2" i="1024" j="4096" dtype="fp32" chip="h100"><template shadowrootmode="open"><link rel="stylesheet" href="assets\/css\/shadow.css"><link rel="stylesheet" href="assets\/css\/sharding.css"><div class="sb-calc sb-shard/);
  assert.match(html, /data-output="bytes_per_device">1\.05 MB</);
  assert.equal((html.match(/<g class="device"/g) ?? []).length, 16);
  assert.throws(() => directive('::sharding array="A[I_X, J_X]"', fakeShardingEngine()), /^BuildError: x\.md:3: ::sharding: mesh axis X is used twice$/);
  const planner = {
    list: () => [{ name: 'sharded-matmul' }], schema: () => PLANNER_SCHEMA, chips: () => [],
    calculate: (_name, inputs) => (inputs.I === '0' ? (() => { throw new CalculatorError({ code: 'out_of_range', field: 'I', message: 'I must be >= 1, got 0' }); })() : CASE2),
  };
  const plan = directive('::sharded-matmul spec="A[I, J_X] * B[J, K] -> C[I, K]" mesh=X=4 I=1024 J=4096 K=8192', planner);
  assert.match(plan, /^<sb-sharded-matmul spec="A\[I, J_X\] \* B\[J, K\] -&gt; C\[I, K\]" mesh="X=4" i="1024" j="4096" k="8192"><template shadowrootmode="open">/);
  assert.match(plan, /<span class="step-math"><span class="katex"><math/); // formulas as MathML at build time
  assert.throws(() => directive('::sharded-matmul spec="A[I, J_X] * B[J, K] -> C[I, K]" I=0 J=1 K=1', planner), /x\.md:3: ::sharded-matmul: I must be >= 1, got 0$/);
  const coll = {
    list: () => [{ name: 'collective' }], schema: () => COLLECTIVE_SCHEMA, chips: () => [], calculate: () => COST, simulateCollective: () => AG4,
  };
  const sim = directive('::collective-sim op=all-gather shape=4 bytes=4e6', coll);
  assert.match(sim, /^<sb-collective-sim op="all-gather" shape="4" bytes="4e6"><template shadowrootmode="open">[^]*data-stat="step">0 of 2</);
});

test('without the engine’s chapter 3 functions the directives emit the bare element, and still check settings', async () => {
  // The engine as a branch without the chapter 3 calculators and simulations sees it.
  const real = await loadEngine();
  const CHAPTER3 = ['array-memory', 'sharded-matmul', 'collective'];
  const engine = { ...real, list: () => real.list().filter((c) => !CHAPTER3.includes(c.name)), shardingLayout: undefined, simulateCollective: undefined };
  const bare = (line) => directive(line, engine);
  const message = (line) => {
    try {
      bare(line);
    } catch (error) {
      assert.equal(error.name, 'BuildError');
      return error.message;
    }
    return null;
  };
  assert.equal(bare('::sharding array="A[I_XY, J]" mesh="X=2, Y=2" I=1024'),
    '<sb-sharding array="A[I_XY, J]" mesh="X=2, Y=2" i="1024"><p class="sb-placeholder" data-static="none">The sharding picture loads with the page.</p></sb-sharding>');
  assert.match(bare('::sharded-matmul'), /^<sb-sharded-matmul><p class="sb-placeholder"/);
  assert.match(bare('::collective-sim op=all-to-all shape=4x4'), /^<sb-collective-sim op="all-to-all" shape="4x4"><p class="sb-placeholder"/);
  assert.equal(message('::sharding array="A[I, J]" K=5'), 'x.md:3: ::sharding: K is not a dimension of A[I, J]; its dimensions are I, J');
  assert.equal(message('::sharding depth=3'), 'x.md:3: ::sharding: ::sharding has no setting "depth"; use array, mesh, dtype, chip and a size for each dimension (I=1024)');
  assert.equal(message('::sharded-matmul spec="A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]" L=4'),
    'x.md:3: ::sharded-matmul: L is not a dimension of A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]; its dimensions are I, J, K');
  assert.equal(message('::collective-sim n=8'), 'x.md:3: ::collective-sim: ::collective-sim has no setting "n"; use op, shape, bytes, wraparound, bidirectional, latency, chip, sums');
  assert.equal(message('::collective-sim sums=maybe'), 'x.md:3: ::collective-sim: sums must be yes or no, got "maybe"');
  assert.equal(message('::sharding extra'), 'x.md:3: ::sharding: unexpected "extra"; use ::sharding key=value ...');
  assert.equal(message('::sharding array="A[I, J]'), 'x.md:3: ::sharding: a quoted value has no closing "');
});
