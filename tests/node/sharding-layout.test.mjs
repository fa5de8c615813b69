// engine.shardingLayout over WASM (the page's sharding picture) and the two sharding
// calculators' list outputs and named dimensions as JS sees them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
import { loadChecked } from './checked-engine.mjs';

const engine = await loadEngine();

function throwsAt(fn, { code = 'invalid_argument', field, message, position }) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof CalculatorError);
    assert.equal(error.code, code);
    assert.equal(error.field, field);
    assert.equal(error.message, message);
    assert.equal(error.position, position);
    return true;
  });
}

// A[I_X, J_Y] on a 2x2 mesh: the chapter's first picture, each device one quadrant.
const QUADRANTS = {
  mesh: [{ name: 'X', size: 2 }, { name: 'Y', size: 2 }],
  array: 'A',
  dims: [{ name: 'I', axes: ['X'], pieces: 2 }, { name: 'J', axes: ['Y'], pieces: 2 }],
  unreduced: [],
  devices: [
    { id: 0, coords: [0, 0], pieces: [0, 0] },
    { id: 1, coords: [0, 1], pieces: [0, 1] },
    { id: 2, coords: [1, 0], pieces: [1, 0] },
    { id: 3, coords: [1, 1], pieces: [1, 1] },
  ],
  partition_spec: "P('X', 'Y')",
};

for (const [build, load] of [['release', async () => engine], ['checked', loadChecked]]) {
  test(`the ${build} build returns exactly the documented shape`, async () => {
    const e = await load();
    assert.deepEqual(e.shardingLayout({ array: 'A[I_X, J_Y]', mesh: 'X=2, Y=2' }), QUADRANTS);
    assert.deepEqual(e.shardingLayout({ array: 'A[I_X, J_Y]', mesh: '{X: 2, Y: 2}' }), QUADRANTS);
    assert.deepEqual(e.shardingLayout({ array: 'A[I_X, J_Y]', mesh: '2x2' }), QUADRANTS);
  });
}

test('I_XY and I_YX place the row strips in different orders', () => {
  const rows = (array) => engine.shardingLayout({ array, mesh: 'X=2, Y=2' }).devices.map((d) => d.pieces[0]);
  assert.deepEqual(rows('A[I_XY, J]'), [0, 1, 2, 3]);
  assert.deepEqual(rows('A[I_YX, J]'), [0, 2, 1, 3]);
  const layout = engine.shardingLayout({ array: 'A[I_XY, J]', mesh: 'X=2, Y=2' });
  assert.deepEqual(layout.dims[0], { name: 'I', axes: ['X', 'Y'], pieces: 4 });
  assert.equal(layout.partition_spec, "P(('X', 'Y'), None)");
});

test('a replicated, unreduced array: every device holds block 0', () => {
  const layout = engine.shardingLayout({ array: 'C[I, K]{U_Z}', mesh: '2x2x2' });
  assert.deepEqual(layout.unreduced, ['Z']);
  assert.equal(layout.devices.length, 8);
  assert.deepEqual(layout.devices[5], { id: 5, coords: [1, 0, 1], pieces: [0, 0] });
  assert.ok(layout.devices.every((d) => d.pieces.every((p) => p === 0)));
});

test('bad specs throw CalculatorErrors that point at the character', () => {
  throwsAt(() => engine.shardingLayout({ array: 'A[I_X, J_X]', mesh: 'X=2, Y=2' }), {
    field: 'array',
    message: 'array uses mesh axis X twice in A (an axis splits one dimension only) at character 9',
    position: 9,
  });
  throwsAt(() => engine.shardingLayout({ array: 'A[I_W]', mesh: 'X=2' }), {
    field: 'array',
    message: 'array uses mesh axis W, which the mesh (X) lacks, at character 4',
    position: 4,
  });
  throwsAt(() => engine.shardingLayout({ array: 'A[I]', mesh: 'X=0' }), {
    field: 'mesh',
    message: 'mesh axis X must have a size of at least 1, got 0 at character 2',
    position: 2,
  });
  // The position counts characters: everything before the first non-ASCII one is ASCII.
  throwsAt(() => engine.shardingLayout({ array: 'A[\u{1F600}]', mesh: 'X=2' }), {
    field: 'array',
    message: 'array must be plain ASCII; it has a non-ASCII character at character 2',
    position: 2,
  });
  throwsAt(() => engine.shardingLayout({ mesh: 'X=2' }), {
    field: 'array',
    message: 'array is empty; write an array like A[I_X, J] at character 0',
    position: 0,
  });
  assert.throws(() => engine.shardingLayout({ array: 'A[I]', mesh: 'X=64, Y=128' }), (error) => {
    assert.equal(error.code, 'out_of_range');
    assert.equal(error.field, 'mesh');
    assert.equal(error.message, 'mesh has 8192 devices; the picture shows at most 4096');
    assert.equal(error.position, undefined);
    return true;
  });
  assert.throws(() => engine.shardingLayout({ array: 'A[I]', mesh: 'X=2', axes: 'X' }),
    { name: 'CalculatorError', field: 'axes', message: 'shardingLayout has no field "axes"; its fields are array, mesh' });
  assert.throws(() => engine.shardingLayout('A[I]'), { name: 'CalculatorError', field: '' });
});

test('sharded-matmul: named dimensions in, the collectives as rows of plain objects out', () => {
  const n = 8192;
  const r = engine.calculate('sharded-matmul', {
    spec: 'A[I_X, J_Y] * B[J_Y, K] -> C[I_X, K]', mesh: 'X=4, Y=4', I: n, J: String(n), K: n,
  });
  assert.equal(r.case, '3');
  assert.deepEqual(Object.keys(r.collectives[0]), ['op', 'axes', 'array', 'bytes', 'time']);
  assert.equal(r.collectives[0].op, 'all-reduce');
  assert.equal(r.collectives[0].bytes, 2 * n * n / 4);
  assert.ok(Array.isArray(r.alternatives) && r.alternatives.length >= 1);
  assert.deepEqual(Object.keys(r.alternatives[0]), ['plan', 'collectives', 't_comm', 't_total']);
  throwsAt(() => engine.calculate('sharded-matmul', { spec: 'A[I, J] * B[J, K] -> C[I, J]' }), {
    field: 'spec',
    message: "spec has dimension names that don't line up: C must have I, K (what A and B leave after contracting J), got I, J at character 26",
    position: 26,
  });
});

test('array-memory: the pop quiz\'s 1 MiB shard', () => {
  const r = engine.calculate('array-memory', { array: 'A[I_XY, J]', mesh: 'X=8, Y=2', dtype: 'fp32', I: 1024, J: 4096 });
  assert.equal(r.local_shape, '64x4096');
  assert.equal(r.bytes_per_device, 1048576);
  assert.throws(() => engine.calculate('array-memory', { array: 'B[M_X, N]' }),
    { name: 'CalculatorError', field: 'M', message: 'give the size of dimension M, like M=4096' });
});
