// engine.simulateCollective over WASM: the steps add up to the collective calculator's closed
// form, the states are plain devices x chunks arrays that end where each collective must,
// values are summed, and bad requests throw CalculatorErrors naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
import { loadChecked } from './checked-engine.mjs';

const engine = await loadEngine();

const OPS = ['all-gather', 'reduce-scatter', 'all-reduce', 'all-to-all'];
const WAYS = [
  { wraparound: 'yes', bidirectional: 'yes' },
  { wraparound: 'yes', bidirectional: 'no' },
  { wraparound: 'no', bidirectional: 'yes' },
];

function close(a, b) {
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

test('on one axis the time equals the closed form, which is the collective calculator’s', () => {
  for (const op of OPS) {
    for (const n of [2, 3, 4, 5, 8, 13, 16]) {
      for (const way of WAYS) {
        // No latency keeps every AllToAll step in one regime.
        const request = { op, shape: String(n), bytes: 1e8, ...way, bandwidth: 4.5e10, latency: 0 };
        const name = JSON.stringify(request);
        const sim = engine.simulateCollective(request);
        assert.ok(close(sim.time, sim.closed_form), `${name}: ${sim.time} vs ${sim.closed_form}`);
        const calc = engine.calculate('collective', {
          op, bytes: 1e8, axis_size: n, wraparound: way.wraparound,
          bidirectional: way.bidirectional, latency: 0, ici_link_bandwidth: 4.5e10,
        });
        assert.ok(close(sim.closed_form, calc.time), name);
        const end = sim.steps.at(-1);
        assert.ok(close(end.start + end.duration, sim.time), name);
      }
    }
  }
});

test('an AllGather on a ring of 8 used both ways: 4 steps, and every device ends with all', () => {
  const sim = engine.simulateCollective({ op: 'all-gather', shape: '8', bytes: 8e6, wraparound: 'yes', bidirectional: 'yes', bandwidth: 1e9, latency: 1e-6 });
  assert.equal(sim.op, 'all-gather');
  assert.deepEqual(sim.shape, [8]);
  assert.equal(sim.devices, 8);
  assert.equal(sim.chunks, 8);
  assert.equal(sim.steps.length, 4);
  assert.equal(sim.states.length, 5);
  assert.ok(Array.isArray(sim.states[0]) && Array.isArray(sim.states[0][0]));
  assert.deepEqual(sim.states[0][3], [0, 0, 0, 1, 0, 0, 0, 0]);
  for (const row of sim.states[4]) assert.deepEqual(row, Array(8).fill(1));
  const first = sim.steps[0];
  assert.equal(first.phase, 'all-gather');
  assert.equal(first.axis, 0);
  assert.equal(first.start, 0);
  assert.equal(first.duration, 1e-3); // one 1 MB shard per link at 1 GB/s
  assert.deepEqual(first.moves.filter((m) => m.from === 0), [
    { from: 0, to: 1, chunk: 0, bytes: 1e6 },
    { from: 0, to: 7, chunk: 0, bytes: 1e6 },
  ]);
  assert.equal(sim.sums, undefined);
});

test('a 4x4 AllReduce reduces along X then Y, gathers along X then Y, and sums the values', () => {
  const values = Array.from({ length: 16 }, (_, d) => d + 1);
  const sim = engine.simulateCollective({ op: 'all-reduce', shape: '4x4', bytes: 16e6, wraparound: 'yes', bidirectional: 'yes', bandwidth: 4.5e10, latency: 1e-6, values });
  const phases = [...new Set(sim.steps.map((s) => `${s.phase}:${s.axis}`))];
  assert.deepEqual(phases, ['reduce-scatter:0', 'reduce-scatter:1', 'all-gather:0', 'all-gather:1']);
  assert.equal(sim.sums.length, sim.states.length);
  for (const row of sim.sums.at(-1)) assert.deepEqual(row, Array(16).fill(136));
  assert.ok(sim.time >= sim.closed_form); // phases one after the other
});

test('an AllToAll moves block s -> d from s to d, with a row of values per device', () => {
  const values = [[0, 1, 2], [10, 11, 12], [20, 21, 22]];
  const sim = engine.simulateCollective({ op: 'all-to-all', shape: '3', bytes: 9e3, wraparound: 'no', bidirectional: 'yes', bandwidth: 1e9, latency: 0, values });
  assert.equal(sim.chunks, 9);
  assert.equal(sim.steps[0].phase, 'all-to-all');
  sim.states.at(-1).forEach((row, d) => row.forEach((h, b) => assert.equal(h, b % 3 === d ? 1 : 0)));
  // Device 1 ends with the blocks s -> 1: values[s][1].
  assert.deepEqual(sim.sums.at(-1)[1], [0, 1, 0, 0, 11, 0, 0, 21, 0]);
  assert.ok(close(sim.time, sim.closed_form));
});

function failure(request) {
  try {
    engine.simulateCollective(request);
  } catch (error) {
    assert.ok(error instanceof CalculatorError, String(error));
    return { code: error.code, field: error.field, message: error.message };
  }
  assert.fail(`no error for ${JSON.stringify(request)}`);
}

test('bad requests throw CalculatorErrors that name the field', () => {
  assert.deepEqual(failure({ shape: '4xx4' }), {
    code: 'invalid_argument', field: 'shape', message: 'shape must be sizes joined by x, like 8 or 4x4, got "4xx4"',
  });
  assert.deepEqual(failure({ shape: '32x32' }), {
    code: 'out_of_range', field: 'shape', message: 'shape 32x32 has 1024 devices; the simulation takes at most 256',
  });
  assert.deepEqual(failure({ op: 'broadcast' }), {
    code: 'invalid_argument', field: 'op', message: 'op must be one of all-gather, reduce-scatter, all-reduce, all-to-all, got "broadcast"',
  });
  assert.deepEqual(failure({ bytes: 0 }), { code: 'out_of_range', field: 'bytes', message: 'bytes must be > 0, got 0' });
  assert.deepEqual(failure({ bandwidth: NaN }), {
    code: 'invalid_argument', field: 'bandwidth', message: 'bandwidth must be a finite number, got nan',
  });
  assert.deepEqual(failure({ wraparound: true }), {
    code: 'invalid_argument', field: 'wraparound', message: 'wraparound must be a number or text, got a boolean',
  });
  assert.deepEqual(failure({ shape: '4', values: [1, 2, 'x', 4] }), {
    code: 'invalid_argument', field: 'values', message: 'values must be a list of whole numbers, or a list of rows of them; item 2 is text',
  });
  assert.deepEqual(failure({ wraparound: 'true' }), {
    code: 'invalid_argument', field: 'wraparound', message: 'wraparound must be one of yes, no, got "true"',
  });
  assert.deepEqual(failure({ shape: '4', values: [1, 2, NaN, 4] }), {
    code: 'invalid_argument', field: 'values', message: 'values must be whole numbers from -1e6 to 1e6, got nan at index 2',
  });
  assert.deepEqual(failure({ values: 3 }), {
    code: 'invalid_argument', field: 'values', message: 'values must be a list of whole numbers, or a list of rows of them',
  });
  assert.deepEqual(failure({ chips: 8 }), {
    code: 'invalid_argument', field: 'chips',
    message: 'simulateCollective has no field "chips"; its fields are op, shape, bytes, wraparound, bidirectional, bandwidth, latency, values',
  });
  assert.equal(failure([]).field, '');
});

test('the checked build (assertions on) gives the same simulation', async () => {
  const checked = await loadChecked();
  const request = { op: 'all-reduce', shape: '3x2', bytes: 6e3, wraparound: 'no', bidirectional: 'no', bandwidth: 1e9, latency: 1e-6, values: [1, 2, 3, 4, 5, 6] };
  assert.deepEqual(checked.simulateCollective(request), engine.simulateCollective(request));
  assert.equal(failureIn(checked, { shape: '0' }).message, 'shape must be sizes joined by x, like 8 or 4x4, got "0"');
});

function failureIn(api, request) {
  try {
    api.simulateCollective(request);
  } catch (error) {
    assert.ok(error instanceof CalculatorError, String(error));
    return error;
  }
  assert.fail(`no error for ${JSON.stringify(request)}`);
}
