// The model catalog and the transformer calculator through the WASM API and the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';

const CLI = process.env.SCALEBOOK_CLI ??
  fileURLToPath(new URL('../../build/native/bindings/cli/scalebook', import.meta.url));

function run(...args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('models() lists every preset with its parameters and a note on every field', async () => {
  const models = (await loadEngine()).models();
  assert.equal(models[0].id, 'llama-3-70b');
  const llama = models.find((m) => m.id === 'llama-3-70b');
  assert.equal(llama.params, 70553706496);
  assert.equal(llama.fields.find((f) => f.name === 'F').value, 28672);
  assert.equal(llama.fields.find((f) => f.name === 'tied').value, 'no');
  for (const m of models) {
    for (const f of m.fields) assert.ok(f.note.length > 0, `${m.id} ${f.name}`);
  }
  const schema = (await loadEngine()).schema('transformer');
  const choices = schema.inputs.find((i) => i.name === 'model').choices;
  assert.deepEqual(choices, [...models.map((m) => m.id), 'custom']);
});

test('the CLI lists the same models and shows one with its notes', async () => {
  const models = (await loadEngine()).models();
  assert.deepEqual(JSON.parse(run('models').out), models);
  assert.deepEqual(JSON.parse(run('model', 'deepseek-v3').out), models.find((m) => m.id === 'deepseek-v3'));
  const text = run('--text', 'models');
  assert.match(text.out, /^llama-3-70b\s+LLaMA 3 70B\s+7\.06e10 params$/m);
  const one = run('--text', 'model', 'llama-2-13b');
  assert.match(one.out, /^ {2}K\s+40 heads$/m);
  assert.match(one.out, /chapter 5 \(training\), Question 1/);
  const bad = run('model', 'gpt-5', '--json');
  assert.equal(bad.code, 2);
  assert.equal(JSON.parse(bad.out).error.field, 'model');
  assert.match(bad.err, /^scalebook: unknown model "gpt-5"; choose one of llama-3-70b, /);
});

test('a transformer calculation through WASM gives the book numbers and typed errors', async () => {
  const engine = await loadEngine();
  const q8 = engine.calculate('transformer', {
    model: 'deepseek-v3', dtype_weights: 'int8', hbm_bandwidth: 1.97e14 / 240,
  });
  assert.equal(q8.moe_critical_tokens, 3840);
  const own = engine.calculate('transformer', {
    model: 'custom', L: '1', D: 8192, F: 32768, N: 64, H: 128, V: 1,
  });
  assert.equal(own.crossover_matmuls, 65536);
  assert.ok(own.steps.some((s) => s.output === 'crossover_matmuls'));
  const { steps, ...outputs } = engine.calculate('transformer', { model: 'llama-2-13b' });
  assert.ok(steps.length > 40);
  assert.deepEqual(JSON.parse(run('calc', 'transformer', 'model=llama-2-13b').out), outputs);
  assert.throws(() => engine.calculate('transformer', { K: 12 }), (e) =>
    e instanceof CalculatorError && e.field === 'K' && e.message === 'K must divide N (64), got 12');
});
