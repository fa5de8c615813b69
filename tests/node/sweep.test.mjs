// Sweeps, solving and the numbers-only path through the WASM API and the CLI: the same
// numbers as calculate(), one call across the boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';

const CLI = process.env.SCALEBOOK_CLI ??
  fileURLToPath(new URL('../../build/native/bindings/cli/scalebook', import.meta.url));
const cli = (...args) => {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

test('calculate with { steps: false } gives the explained outputs bit for bit, without steps', async () => {
  const engine = await loadEngine();
  for (const { name } of engine.list()) {
    const { steps, ...explained } = engine.calculate(name);
    assert.ok(steps.length > 0, name);
    const bare = engine.calculate(name, {}, { steps: false });
    assert.equal(bare.steps, undefined, name);
    assert.deepEqual(bare, explained, name);
  }
});

test('a sweep is calculate() at each point: matmul FLOPs are 2BDF', async () => {
  const engine = await loadEngine();
  const values = [1, 64, 256, 1024];
  const { series } = engine.sweep('matmul', { inputs: { chip: 'h100' }, over: 'B', values, outputs: ['flops', 'achieved_flops'] });
  assert.deepEqual(Array.from(series.flops), values.map((B) => 2 * B * 8192 * 8192));
  values.forEach((B, i) => {
    assert.equal(series.achieved_flops[i], engine.calculate('matmul', { chip: 'h100', B }, { steps: false }).achieved_flops);
  });
});

test('solve finds the first whole batch at which a v5e matmul is compute-bound: 256', async () => {
  const engine = await loadEngine();
  const inputs = { chip: 'tpu-v5e', D: 8192, F: 8192 };
  const ridge = engine.calculate('matmul', inputs, { steps: false }).critical_intensity;
  const r = engine.solve('matmul', { inputs, over: 'B', output: 'intensity', target: ridge, lo: 1, hi: 1e6 });
  assert.equal(r.at, 256);
  assert.equal(r.at_lo, false);
  assert.ok(engine.calculate('matmul', { ...inputs, B: 255 }, { steps: false }).intensity < ridge);
});

test('sweep and solve errors are CalculatorErrors naming the field', async () => {
  const engine = await loadEngine();
  const expect = (fn, field, message) => assert.throws(fn, (e) => e instanceof CalculatorError && e.field === field && e.message === message);
  expect(() => engine.sweep('matmul', { over: 'B', values: [64, 2.5] }), 'B', 'at B=2.5: B must be a whole number, got 2.5');
  expect(() => engine.sweep('matmul', { over: 'chip', values: [1] }), 'over', 'over must name a number input of matmul, and chip is a choice');
  expect(() => engine.sweep('matmul', { over: 'B', values: 'lots' }), 'values', 'values must be a list of numbers');
  expect(() => engine.sweep('matmul', { over: 'B', values: ['64'] }), 'values', 'values must be a list of numbers');
  expect(() => engine.sweep('matmul', { over: 'B', values: [NaN] }), 'B', 'at B=nan: B must be a finite number, got nan');
  assert.deepEqual(Array.from(engine.sweep('matmul', { over: 'B', values: Float64Array.of(2), outputs: ['flops'] }).series.flops), [2 * 2 * 8192 * 8192]);
  expect(() => engine.sweep('matmul', { over: 'B', values: new Array(10001).fill(1) }), 'values', 'a sweep takes 1 to 10000 values, got 10001');
  expect(() => engine.solve('roofline', { over: 'flops', output: 't_compute', target: 1, lo: 5, hi: 5 }), 'lo', 'lo must be a finite number below hi, got lo=5 hi=5');
  expect(() => engine.solve('nope', {}), 'calculator', 'unknown calculator "nope"; choose one of ' + engine.list().map((c) => c.name).join(', '));
});

test('the CLI sweeps and solves with the same numbers', async () => {
  const engine = await loadEngine();
  const sweep = cli('sweep', 'matmul', '--over', 'B', '--values', '1,256', '--outputs', 't_lower', 'chip=h100');
  assert.equal(sweep.code, 0, sweep.err);
  const { series } = engine.sweep('matmul', { inputs: { chip: 'h100' }, over: 'B', values: [1, 256], outputs: ['t_lower'] });
  assert.deepEqual(JSON.parse(sweep.out).series.t_lower, Array.from(series.t_lower));
  const solve = cli('solve', 'matmul', '--over', 'B', '--output', 'intensity', '--target', '240.2439024390244', '--from', '1', '--to', '1e6');
  assert.equal(solve.code, 0, solve.err);
  assert.equal(JSON.parse(solve.out).at, 256);
  const text = cli('solve', 'matmul', '--text', '--over', 'B', '--output', 'intensity', '--target', '240.2439024390244', '--from', '1', '--to', '1e6');
  assert.match(text.out, /^B = 256 tokens: the smallest at which intensity reaches 240 FLOP\/B/);
  const log = cli('sweep', 'roofline', '--text', '--over', 'flops', '--from', '1e9', '--to', '1e12', '--points', '4', '--log', '--outputs', 't_compute');
  assert.equal(log.out, 'flops\tt_compute\n1 GFLOP\t5.08 µs\n10 GFLOP\t50.8 µs\n100 GFLOP\t508 µs\n1 TFLOP\t5.08 ms\n');
  const whole = cli('sweep', 'matmul', '--over', 'B', '--from', '1', '--to', '1e9', '--points', '3', '--log', '--outputs', 'flops');
  assert.equal(whole.code, 0, whole.err);
  assert.deepEqual(JSON.parse(whole.out).values, [1, 31623, 1e9]); // a count input takes whole numbers
  const bad = cli('sweep', 'matmul', '--over', 'B', '--values', '1,x');
  assert.equal(bad.code, 2);
  assert.equal(bad.err, 'scalebook: --values must be numbers, got "x"\n');
  const missing = cli('solve', 'matmul', '--over', 'B', '--output', 'intensity', '--from', '1', '--to', '9');
  assert.equal(missing.code, 2);
  assert.equal(missing.err, 'scalebook: --target is needed\n');
});
