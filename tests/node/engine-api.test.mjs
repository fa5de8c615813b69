// The WASM API: shared fixtures (exact parity with native), typed errors, robustness.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
import { loadChecked } from './checked-engine.mjs';

const fixtures = JSON.parse(fs.readFileSync(new URL('../fixtures/calculations.json', import.meta.url)));

function outcome(engine, c) {
  try {
    const { steps, ...outputs } = engine.calculate(c.calculator, c.inputs);
    assert.ok(Array.isArray(steps) && steps.length > 0);
    return { outputs };
  } catch (error) {
    assert.ok(error instanceof CalculatorError, `${c.name}: ${error}`);
    const { code, field, message, position } = error;
    return { error: position === undefined ? { code, field, message } : { code, field, message, position } };
  }
}

test('loadEngine instantiates once and caches the engine', async () => {
  const [a, b] = await Promise.all([loadEngine(), loadEngine()]);
  assert.equal(a, b);
  assert.equal(await loadEngine(), a);
});

for (const [build, load] of [['release', loadEngine], ['checked', loadChecked]]) {
  test(`the ${build} WASM build matches every shared fixture exactly`, async () => {
    const engine = await load();
    for (const c of fixtures.cases) {
      assert.deepEqual(outcome(engine, c), c.expect, c.name);
    }
  });
}

test('list names every calculator with its description', async () => {
  const engine = await loadEngine();
  // Every calculator of the book's chapters so far, each once, chapter 1's first; the whole list
  // is the registry's and not pinned here (a new calculator touches no test of the API).
  const names = engine.list().map((c) => c.name);
  assert.equal(names[0], 'roofline');
  assert.equal(new Set(names).size, names.length);
  for (const name of ['matmul', 'systolic', 'chip', 'collective', 'sharded-matmul', 'transformer', 'training', 'training-search']) assert.ok(names.includes(name), name);
  for (const c of engine.list()) assert.ok(c.description.length > 20, c.name);
  assert.match(engine.list()[1].description, /X\[B,D\]/);
});

test('schema describes inputs with unit, default and range, and outputs with unit', async () => {
  const schema = (await loadEngine()).schema('roofline');
  const bytes = schema.inputs.find((i) => i.name === 'bytes');
  assert.deepEqual(bytes, {
    name: 'bytes', type: 'number', unit: 'B', description: 'bytes moved between HBM and the cores',
    default: 1e9, label: 'HBM bytes', group: 'main', min: 0, min_exclusive: true, max: 1e30,
  });
  assert.equal(schema.inputs.find((i) => i.name === 'hbm_bandwidth').group, 'override');
  assert.equal(schema.inputs.find((i) => i.name === 'chip').preset, 'chip');
  const chip = schema.inputs.find((i) => i.name === 'chip');
  assert.deepEqual(chip.choices, ['tpu-v5e', 'tpu-v5p', 'tpu-v6e', 'tpu-v4p', 'h100', 'tpu-v3', 'tpu7x', 'v100', 'a100', 'h200', 'h800', 'b200', 'gb200']);
  assert.equal(schema.inputs.find((i) => i.name === 'peak_flops').default, null);
  assert.deepEqual(schema.outputs.find((o) => o.name === 'bound'),
    { name: 'bound', type: 'text', unit: '', description: 'which time is largest: compute, memory or communication', label: 'Bound' });
});

test('chips lists the catalog with source notes', async () => {
  const chips = (await loadEngine()).chips();
  const v5e = chips.find((c) => c.id === 'tpu-v5e');
  assert.deepEqual(v5e.peak_flops, { bf16: 1.97e14, int8: 3.94e14 });
  assert.equal(v5e.hbm_bandwidth, 8.2e11);
  assert.match(chips.find((c) => c.id === 'tpu-v6e').notes.peak_flops, /9\.1e14/);
  const fields = chips.find((c) => c.id === 'tpu7x').fields;
  assert.deepEqual(Object.keys(fields[0]), ['name', 'value', 'unit', 'description', 'note']);
  assert.deepEqual(fields.find((f) => f.name === 'pod_topology').value, '4x4x576');
  assert.equal(fields.find((f) => f.name === 'peak_flops_bf16').value, 2.3e15);
  assert.equal(fields.find((f) => f.name === 'sms_per_chip').value, null);
  assert.ok(chips.every((c) => c.fields.length === fields.length));
});

test('calculate returns a plain object of outputs with explanation steps', async () => {
  const r = (await loadEngine()).calculate('matmul', { chip: 'tpu-v5e' });
  assert.equal(Object.getPrototypeOf(r), Object.prototype);
  assert.equal(Math.round(r.critical_batch), 240);
  assert.deepEqual(Object.keys(r.steps[0]), ['label', 'latex', 'value', 'unit', 'output', 'depends']);
  assert.deepEqual(r.steps.find((s) => s.output === 'critical_batch').depends, ['critical_intensity']);
  assert.equal(r.steps[0].label, 'FLOPs');
});

test('bad input throws a CalculatorError naming the field', async () => {
  const engine = await loadEngine();
  const cases = [
    [{ bytes: -5 }, 'out_of_range', 'bytes', 'bytes must be > 0, got -5'],
    [{ flops: NaN }, 'invalid_argument', 'flops', 'flops must be a finite number, got nan'],
    [{ flops: Infinity }, 'invalid_argument', 'flops', 'flops must be a finite number, got inf'],
    [{ flops: '1,5' }, 'invalid_argument', 'flops', 'flops must be a number, got "1,5"'],
    [{ flops: '−5' }, 'invalid_argument', 'flops', 'flops must be a number, got "−5"'],
    [{ flops: { n: 1 } }, 'invalid_argument', 'flops', 'flops must be a number or text, got an object'],
    [{ chip: 'TPU v5e' }, 'invalid_argument', 'chip', 'chip must be one of tpu-v5e, tpu-v5p, tpu-v6e, tpu-v4p, h100, tpu-v3, tpu7x, v100, a100, h200, h800, b200, gb200, got "TPU v5e"'],
    [{ chip: 'h100', dtype: 'int4' }, 'unsupported', 'dtype', 'h100 has no int4 peak in the catalog; give peak_flops to set one'],
  ];
  for (const [inputs, code, field, message] of cases) {
    assert.throws(() => engine.calculate('roofline', inputs), (e) => {
      assert.ok(e instanceof CalculatorError);
      assert.deepEqual({ code: e.code, field: e.field, message: e.message }, { code, field, message });
      return true;
    });
  }
  assert.throws(() => engine.calculate('roofline', 'flops=1'), { name: 'CalculatorError', message: 'inputs must be an object of name: value, got text' });
  assert.throws(() => engine.schema('nope'), { name: 'CalculatorError', code: 'not_found', field: 'calculator' });
});

test('huge and odd input never aborts the module', async () => {
  const engine = await loadEngine();
  const huge = '9'.repeat(1_000_000);
  assert.throws(() => engine.calculate('roofline', { flops: huge }), /flops must be at most 1000 characters, got 1000000/);
  assert.throws(() => engine.calculate('roofline', { flops: '9'.repeat(400) }), /flops is too large: numbers stop near 1.8e308/);
  assert.throws(() => engine.calculate('matmul', { B: 1e300 }), /B must be <= 1e9, got 1e300/);
  assert.throws(() => engine.calculate('matmul', { ['x'.repeat(10000)]: 1 }), CalculatorError);
  assert.throws(() => engine.calculate('matmul', { chip: '\u{1F600}' }), /got "\u{1F600}"/u);
  assert.equal(engine.calculate('matmul', { B: null, D: undefined }).flops, 2 * 256 * 8192 * 8192);
  // still alive and exact afterwards
  assert.equal(engine.calculate('roofline', { flops: 1.97e14 }).t_compute, 1);
});

test('a calculator with a chip takes any number field of the catalog as an override', async () => {
  const engine = await loadEngine();
  assert.equal(engine.schema('roofline').chip_overrides, true);
  assert.equal(engine.schema('systolic').chip_overrides, false);
  const r = engine.calculate('matmul', { chip: 'h100', peak_flops_bf16: 1.978e15 });
  assert.equal(r.peak_flops, 1.978e15);
  assert.throws(() => engine.calculate('roofline', { hbm_capacity: -1 }),
    { name: 'CalculatorError', field: 'hbm_capacity', message: 'hbm_capacity must be > 0, got -1' });
});
