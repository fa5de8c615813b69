// The smaller engine modules (bindings/wasm/CMakeLists.txt): each holds only its domains'
// calculators, computes exactly what the whole engine does, and says so when asked for a
// function it was built without; the builder gives each page the smallest one that fits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CalculatorError, engineModules, loadEngine, WHOLE_ENGINE } from '../../bindings/wasm/engine.mjs';
import { enginePicker } from '../../web/builder/engine-pick.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const names = (engine) => engine.list().map((c) => c.name);

test('the whole engine and seven smaller modules are listed, each with core, hardware and exercises', () => {
  assert.deepEqual(engineModules.map((m) => m.name), [WHOLE_ENGINE, 'scalebook-engine-roofline',
    'scalebook-engine-systolic', 'scalebook-engine-sharding', 'scalebook-engine-transformer', 'scalebook-engine-training',
    'scalebook-engine-training-sharding', 'scalebook-engine-inference']);
  for (const m of engineModules) assert.deepEqual(m.domains.slice(0, 3), ['core', 'hardware', 'exercises'], m.name);
});

test('the roofline module has the roofline and hardware calculators and nothing of training', async () => {
  const small = names(await loadEngine('scalebook-engine-roofline'));
  for (const name of ['roofline', 'matmul', 'intensity', 'chip', 'slice']) assert.ok(small.includes(name), name);
  for (const name of ['training', 'training-search', 'pipeline', 'transformer', 'sharded-matmul', 'collective', 'systolic']) {
    assert.ok(!small.includes(name), name);
  }
});

test('every smaller module computes bit for bit what the whole engine computes', async () => {
  const whole = await loadEngine(WHOLE_ENGINE);
  for (const m of engineModules.filter((e) => e.name !== WHOLE_ENGINE)) {
    const engine = await loadEngine(m.name);
    const listed = names(engine);
    assert.ok(listed.length >= 4, m.name);
    for (const name of listed) {
      assert.ok(names(whole).includes(name), `${m.name}: ${name}`);
      assert.deepEqual(engine.schema(name), whole.schema(name), `${m.name}: ${name}`);
      assert.deepEqual(engine.calculate(name), whole.calculate(name), `${m.name}: ${name}`);
    }
  }
});

test('a function of a domain the module lacks is a CalculatorError that says so', async () => {
  const small = await loadEngine('scalebook-engine-roofline');
  assert.throws(() => small.simulatePipeline({ stages: 4 }), (e) => e instanceof CalculatorError && e.code === 'not_found' &&
    e.message === "simulatePipeline is not in this engine module, which was built without its domain; loadEngine('scalebook-engine') loads the whole engine");
  assert.throws(() => small.models(), CalculatorError);
  assert.throws(() => small.calculate('training'), (e) => e instanceof CalculatorError && /training/.test(e.message));
  const transformer = await loadEngine('scalebook-engine-transformer');
  assert.ok(transformer.models().length > 3);
  assert.throws(() => transformer.shardingLayout({ array: 'A[I_X]', mesh: 'X=2' }), CalculatorError);
});

test('an unknown module name loads the whole engine', async () => {
  assert.equal(await loadEngine('no-such-module'), await loadEngine(WHOLE_ENGINE));
});

test('the builder picks the smallest module holding the page elements and exercise calculators', async () => {
  const pick = await enginePicker({ runtimeDir: path.join(ROOT, 'web/runtime'), wasmDir: path.join(ROOT, 'bindings/wasm/generated') });
  assert.equal(pick('<sb-roofline></sb-roofline><sb-chip-table></sb-chip-table>'), 'scalebook-engine-roofline');
  assert.equal(pick('<sb-systolic-sim>'), 'scalebook-engine-systolic');
  assert.equal(pick('<sb-collective-sim chip="tpu-v5e">'), 'scalebook-engine-sharding');
  assert.equal(pick('<sb-training></sb-training>'), 'scalebook-engine-training');
  // Training needs no sharding: only a page that also draws chapter 3's elements pays for it.
  assert.equal(pick('<sb-training-search></sb-training-search><sb-sharding>'), 'scalebook-engine-training-sharding');
  assert.ok(!names(await loadEngine('scalebook-engine-training')).includes('sharded-matmul'));
  assert.equal(pick('<sb-training></sb-training><sb-systolic-sim>'), WHOLE_ENGINE);
  // An exercise's calculator counts as much as an element: nested anywhere in its spec.
  assert.equal(pick('<sb-exercise id="x">', [{ parts: [{ answer: { calculator: 'transformer' } }] }]), 'scalebook-engine-transformer');
  assert.equal(pick('<sb-roofline>', [{ values: { v: { calculator: 'training-budget' } } }]), WHOLE_ENGINE);
  // Collectives with the transformer calculator (chapter 7's mix, before its own elements):
  // the inference module, not the training one, which also holds sharding and training.
  assert.equal(pick('<sb-collective-sweep>', [{ parts: [{ calculator: 'transformer' }] }]), 'scalebook-engine-inference');
  // The search box's folder is no engine domain.
  assert.equal(pick('<sb-matmul><sb-search-panel>'), 'scalebook-engine-roofline');
});

test('a search tells a listener its progress, up to 1, and a listener that throws changes nothing', async () => {
  const engine = await loadEngine(WHOLE_ENGINE);
  const inputs = { model: 'llama-3-70b', chip: 'tpu-v5p', chips: 8192, B: 4194304, T: 4096 };
  const seen = [];
  const heard = engine.calculate('training-search', inputs, { steps: false, progress: (f) => seen.push(f) });
  assert.ok(seen.length >= 10 && seen.length <= 101, `${seen.length} reports`);
  assert.ok(seen.every((f, i) => f > 0 && f <= 1 && (i === 0 || f > seen[i - 1])));
  assert.equal(seen.at(-1), 1);
  const quiet = engine.calculate('training-search', inputs, { steps: false });
  assert.deepEqual(heard, quiet);
  // The search worker's module (the training one) finds the same configurations.
  assert.deepEqual((await loadEngine('scalebook-engine-training')).calculate('training-search', inputs, { steps: false }), quiet);
  const thrown = engine.calculate('training-search', inputs, { steps: false, progress: () => { throw new Error('no'); } });
  assert.deepEqual(thrown, quiet);
  assert.deepEqual(engine.calculate('roofline', {}, { steps: false }), engine.calculate('roofline', {}, { steps: false, progress: () => seen.push('x') }));
  assert.ok(!seen.includes('x'));
});
