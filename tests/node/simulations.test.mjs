// engine.simulate(name, request): every simulation through one entry, the named functions of
// old as thin calls of it, and the registry's refusals (an unknown name, an unknown field, a
// request over the work budget) as CalculatorErrors naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';

const engine = await loadEngine();

const refusal = (fn) => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof CalculatorError, String(e));
    return { code: e.code, field: e.field, message: e.message };
  }
  assert.fail('no error');
};

test('the whole engine lists its simulations, and each small module only its domains\'', async () => {
  assert.deepEqual(engine.simulations(), ['collective', 'gpu-collective', 'pipeline', 'serving', 'systolic']);
  assert.deepEqual((await loadEngine('scalebook-engine-systolic')).simulations(), ['systolic']);
  assert.deepEqual((await loadEngine('scalebook-engine-roofline')).simulations(), []);
});

test('simulate(name) is what the named function returns', () => {
  const systolic = { M: 3, N: 2, K: 4, rows: 2, cols: 2, max_frames: 4 };
  assert.deepEqual(engine.simulate('systolic', systolic), engine.simulateSystolic(systolic));
  assert.ok(engine.simulate('systolic', systolic).frames[0].pes.flags instanceof Uint8Array);
  const collective = { op: 'all-reduce', shape: '4', values: [1, 2, 3, 4] };
  assert.deepEqual(engine.simulate('collective', collective), engine.simulateCollective(collective));
  const pipeline = { stages: 2, microbatches: 4, max_frames: 3 };
  assert.deepEqual(engine.simulate('pipeline', pipeline), engine.simulatePipeline(pipeline));
  assert.equal(engine.simulate('pipeline', pipeline).items[0].kind, 'F');
});

test('an unknown simulation is not_found, naming the field and the module\'s simulations', async () => {
  assert.deepEqual(refusal(() => engine.simulate('queueing', {})), {
    code: 'not_found', field: 'simulation',
    message: 'unknown simulation "queueing"; choose one of collective, gpu-collective, pipeline, serving, systolic',
  });
  assert.equal(refusal(() => engine.simulate(42)).field, 'simulation');
  const small = await loadEngine('scalebook-engine-roofline');
  assert.match(refusal(() => small.simulate('pipeline')).message, /^simulate\('pipeline'\) is not in this engine module/);
});

test('a request over a simulation\'s work budget is refused naming the budget field', () => {
  assert.deepEqual(refusal(() => engine.simulate('systolic', { M: 4, max_pe_steps: 2e9 })), {
    code: 'out_of_range', field: 'max_pe_steps', message: 'max_pe_steps must be > 0 and at most 1e9, got 2e9',
  });
  const items = refusal(() => engine.simulate('pipeline', { max_items: 131072 }));
  assert.equal(items.code, 'out_of_range');
  assert.equal(items.field, 'max_items');
  assert.equal(refusal(() => engine.simulate('collective', { shape: '4', speed: 2 })).field, 'speed');
});
