// engine.simulate('serving') over WASM against the native CLI: one seed draws the same run on
// both, bit for bit; the terminal gets a percentiles table; bad input is exit 2 (CLI) or a
// CalculatorError (WASM) naming the field; a page's request budget is refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';

const engine = await loadEngine();
const CLI = process.env.SCALEBOOK_CLI ??
  fileURLToPath(new URL('../../build/native/bindings/cli/scalebook', import.meta.url));
const cli = (...args) => {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

const refusal = (fn) => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof CalculatorError, String(e));
    return { code: e.code, field: e.field, message: e.message };
  }
  assert.fail('no error');
};

// Typed arrays as plain arrays, to compare with the CLI's JSON.
const plain = (x) => {
  if (ArrayBuffer.isView(x)) return Array.from(x);
  if (Array.isArray(x)) return x.map(plain);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  return x;
};

test('one seed draws the same run natively and in WASM, to the bit', () => {
  for (const mode of ['continuous', 'static']) {
    const sim = engine.simulate('serving', { requests: 300, mode, seed: 7 });
    const r = cli('simulate', 'serving', 'requests=300', `mode=${mode}`, '--seed', '7');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), plain(sim), mode);
    assert.ok(sim.series.queue instanceof Float64Array);
  }
  // The draws of seed 1 the Catch2 suite pins.
  const first = engine.simulate('serving', { requests: 3 }).timeline;
  assert.equal(first.arrival[0], 0.06504173274661997);
  assert.deepEqual(Array.from(first.prompt), [1002, 724, 771]);
  assert.deepEqual(Array.from(first.output), [328, 730, 32]);
});

test('scalebook simulate serving prints a percentiles table on a terminal', () => {
  const text = cli('--text', 'simulate', 'serving', 'requests=200', '--seed', '3');
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /^mode {20}continuous$/m);
  assert.match(text.out, /^seconds {3}p50 +p90 +p99 +mean +$/m);
  for (const row of ['ttft', 'tpot', 'latency']) assert.match(text.out, new RegExp(`^${row} +[0-9.e-]+ +`, 'm'));
  assert.equal(cli('--text', 'simulate', 'serving', 'seed=3', '--seed', '3').err, 'scalebook: seed is given twice\n');
});

test('bad input: exit 2 naming the field on the command line, a CalculatorError in WASM', () => {
  const bad = cli('simulate', 'serving', 'slots=2.5');
  assert.equal(bad.code, 2);
  assert.equal(bad.err, 'scalebook: slots must be a whole number of sequences from 1 to 4096, got 2.5\n');
  assert.equal(cli('simulate', 'serving', 'rate=0').err, 'scalebook: rate must be a positive number of requests/s, got 0\n');
  assert.deepEqual(refusal(() => engine.simulate('serving', { rate: NaN })), {
    code: 'invalid_argument', field: 'rate', message: 'rate must be a finite number, got nan',
  });
  assert.deepEqual(refusal(() => engine.simulate('serving', { mode: 'eager' })), {
    code: 'invalid_argument', field: 'mode', message: 'mode must be one of static, continuous, disaggregated, got "eager"',
  });
  assert.equal(refusal(() => engine.simulate('serving', { arrival: 3 })).field, 'arrival');
});

test('a page runs at most 400000 requests; the command line more', () => {
  assert.deepEqual(refusal(() => engine.simulate('serving', { requests: 400001 })), {
    code: 'out_of_range', field: 'requests', message: 'requests must be at most 400000 (the work budget here), got 400001',
  });
  const shell = cli('--text', 'simulate', 'serving', 'requests=400001', 'prompt_dist=fixed', 'output_dist=fixed', 'prompt=16', 'output=4');
  assert.equal(shell.code, 0, shell.err);
  assert.match(shell.out, /^requests {16}400001$/m);
});

test('a request that cannot fit in HBM is a result that says so', () => {
  const sim = engine.simulate('serving', { prompt_dist: 'fixed', prompt: 1e6 });
  assert.equal(sim.fits, false);
  assert.match(sim.reason, /^a request of up to 1002048 tokens needs /);
  assert.equal(sim.ttft, undefined);
});
