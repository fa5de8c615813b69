// A prepared calculation through the WASM API: inputs checked once, then numbers in and out
// across the boundary, the same numbers as calculate().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
import { loadChecked as loadCheckedEngine } from './checked-engine.mjs';

test('every calculator prepared over its first number input gives calculate()\'s numbers bit for bit', async () => {
  const engine = await loadEngine();
  const checked = [];
  for (const { name } of engine.list()) {
    const schema = engine.schema(name);
    const input = schema.inputs.find((i) => (i.type === 'number' || i.type === 'count') && typeof i.default === 'number' && i.group === 'main');
    if (!input) continue;
    const p = engine.prepare(name, { vary: [input.name] });
    for (const x of [input.default, input.default * 2 + 1]) {
      let want;
      try {
        want = engine.calculate(name, { [input.name]: x }, { steps: false });
      } catch (e) {
        // A value the calculator refuses (training's B must be whole sequences): so does the
        // prepared calculation, with the same error.
        assert.throws(() => p.evaluate([x]), (err) => err.code === e.code && err.message === e.message, `${name} ${input.name}=${x}`);
        continue;
      }
      const got = p.evaluate([x]);
      p.outputs.forEach((output, k) => {
        const w = typeof want[output] === 'number' ? want[output] : NaN;
        assert.ok(Object.is(got[k], w), `${name} ${input.name}=${x} ${output}: ${got[k]} vs ${w}`);
      });
    }
    p.release();
    checked.push(name);
  }
  assert.ok(['roofline', 'matmul', 'systolic', 'collective', 'transformer'].every((n) => checked.includes(n)), checked.join());
});

test('matmul prepared over B: FLOPs are 2BDF, into a caller\'s array, 20,000 times over the same memory', async () => {
  const engine = await loadEngine();
  const p = engine.prepare('matmul', { inputs: { D: 8192, F: 8192, chip: 'h100' }, vary: ['B'], outputs: ['flops', 'critical_batch_exact'] });
  assert.deepEqual(p.outputs, ['flops', 'critical_batch_exact']);
  const y = new Float64Array(2);
  const x = new Float64Array(1);
  for (let i = 1; i <= 20000; i++) {
    x[0] = i;
    p.evaluate(x, y);
    assert.equal(y[0], 2 * i * 8192 * 8192);
  }
  p.release();
});

test('bad values are CalculatorErrors naming the input; released handles refuse to run', async () => {
  const engine = await loadEngine();
  const p = engine.prepare('matmul', { vary: ['B'] });
  assert.throws(() => p.evaluate([0]), (e) => e instanceof CalculatorError && e.field === 'B' && /B must be/.test(e.message));
  assert.throws(() => p.evaluate([NaN]), (e) => e instanceof CalculatorError && e.field === 'B');
  assert.throws(() => p.evaluate([1.5]), (e) => e instanceof CalculatorError && e.field === 'B');
  assert.throws(() => p.evaluate(['256']), { name: 'CalculatorError', field: 'x', message: 'x must be 1 number(s), one per varying input (B)' });
  assert.throws(() => p.evaluate([1, 2]), { name: 'CalculatorError', field: 'x' });
  assert.throws(() => p.evaluate([256n]), { name: 'CalculatorError', field: 'x' });
  assert.throws(() => p.evaluate([256], new Float64Array(1)), { name: 'CalculatorError', field: 'into' });
  assert.equal(p.evaluate([256])[0], 2 * 256 * 8192 * 8192);  // still works after errors
  p.release();
  assert.throws(() => p.evaluate([256]), { name: 'CalculatorError', message: 'this prepared calculation was released' });
});

test('preparing refuses what cannot vary, unknown names and bad lists', async () => {
  const engine = await loadEngine();
  assert.throws(() => engine.prepare('matmul', { vary: ['chip'] }), { name: 'CalculatorError', field: 'chip', message: 'chip is a choice input; only numbers vary' });
  assert.throws(() => engine.prepare('matmul', { vary: ['Q'] }), { name: 'CalculatorError', field: 'Q', message: 'matmul has no number input "Q"' });
  assert.throws(() => engine.prepare('nope', { vary: [] }), { name: 'CalculatorError', field: 'calculator' });
  assert.throws(() => engine.prepare('matmul', { vary: 'B' }), { name: 'CalculatorError', field: 'vary' });
  assert.throws(() => engine.prepare('matmul', { vary: [{}] }), { name: 'CalculatorError', field: 'vary' });
  assert.throws(() => engine.prepare('matmul', { vary: ['B'], outputs: ['nothing'] }), { name: 'CalculatorError', field: 'outputs' });
  assert.throws(() => engine.prepare('matmul', { inputs: { chip: 'nope' }, vary: ['B'] }), { name: 'CalculatorError', field: 'chip' });
});

test('the checked build agrees with the release build on a prepared slice and collective', async () => {
  const [release, checked] = [await loadEngine(), await loadCheckedEngine()];
  for (const [name, inputs, vary, x] of [['collective', { axes: '4x4', op: 'all-reduce' }, ['bytes'], [1e9]], ['slice', { chip: 'tpu-v5p', shape: '4x4x8' }, [], []]]) {
    const a = release.prepare(name, { inputs, vary }).evaluate(x);
    const b = checked.prepare(name, { inputs, vary }).evaluate(x);
    assert.deepEqual([...a], [...b], name);
  }
});
