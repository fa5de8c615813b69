// The smaller engine modules (bindings/wasm/CMakeLists.txt): each holds only its domains'
// calculators, computes exactly what the whole engine does, and says so when asked for a
// function it was built without; the builder gives each page the smallest one that fits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CalculatorError, engineModules, explainerModule, graderModule, loadEngine, loadExplainer, loadGrader, moduleFor, WHOLE_ENGINE } from '../../bindings/wasm/engine.mjs';
import { enginePicker } from '../../web/builder/engine-pick.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const names = (engine) => engine.list().map((c) => c.name);

test('the whole engine, the smaller modules of the chapters and the graders are listed, each with core and hardware; only the whole engine and the graders grade', () => {
  assert.deepEqual(engineModules.map((m) => m.name), [WHOLE_ENGINE, 'scalebook-engine-roofline',
    'scalebook-engine-systolic', 'scalebook-engine-sharding', 'scalebook-engine-transformer', 'scalebook-engine-training',
    'scalebook-engine-training-sharding', 'scalebook-engine-inference', 'scalebook-engine-gpus', 'scalebook-grader-roofline',
    'scalebook-grader-sharding', 'scalebook-grader-transformer', 'scalebook-grader-training', 'scalebook-grader-inference',
    'scalebook-grader-gpus']);
  for (const m of engineModules) {
    assert.deepEqual(m.domains.slice(0, 2), ['core', 'hardware'], m.name);
    // Graders explain: a variant's worked solution is computed in the browser.
    assert.equal(m.domains.includes('exercises'), m.name === WHOLE_ENGINE || m.name.startsWith('scalebook-grader-'), m.name);
    if (m.domains.includes('exercises')) assert.equal(m.steps, true, m.name);
  }
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
    assert.ok(listed.length >= 3, m.name);
    for (const name of listed) {
      assert.ok(names(whole).includes(name), `${m.name}: ${name}`);
      assert.deepEqual(engine.schema(name), whole.schema(name), `${m.name}: ${name}`);
      const steps = m.steps;
      assert.deepEqual(engine.calculate(name, {}, { steps }), whole.calculate(name, {}, { steps }), `${m.name}: ${name}`);
    }
  }
});

test('a numbers-only module refuses a request for worked steps, by name; the others explain', async () => {
  const listed = Object.fromEntries(engineModules.map((m) => [m.name, m.steps]));
  // Chapter 3 shows steps live (the planner, the collective's closed form); chapter 5's planners
  // keep theirs in a closed section that fetches an explainer when opened.
  assert.deepEqual(listed, {
    [WHOLE_ENGINE]: true, 'scalebook-engine-roofline': false, 'scalebook-engine-systolic': false,
    'scalebook-engine-sharding': true, 'scalebook-engine-transformer': false, 'scalebook-engine-training': false,
    'scalebook-engine-training-sharding': false, 'scalebook-engine-inference': false, 'scalebook-engine-gpus': false,
    'scalebook-grader-roofline': true, 'scalebook-grader-sharding': true, 'scalebook-grader-transformer': true,
    'scalebook-grader-training': true, 'scalebook-grader-inference': true, 'scalebook-grader-gpus': true,
  });
  const inference = await loadEngine('scalebook-engine-inference');
  assert.equal(inference.explains, false);
  assert.throws(() => inference.calculate('inference', { batch: 8 }), (e) => e instanceof CalculatorError && e.code === 'not_found' &&
    e.field === 'steps' && e.message === "worked steps are not in this engine module, which computes numbers only; loadEngine('scalebook-engine') explains");
  const numbers = inference.calculate('inference', { batch: 8 }, { steps: false });
  const whole = await loadEngine(WHOLE_ENGINE);
  assert.deepEqual(numbers, whole.calculate('inference', { batch: 8 }, { steps: false }));
  assert.ok(whole.calculate('inference', { batch: 8 }).steps.length > 10);
  const sharding = await loadEngine('scalebook-engine-sharding');
  assert.ok(sharding.calculate('sharded-matmul').steps.length > 0);
  // Without a page, the explainer is the page's module, the whole engine, which explains.
  assert.equal(explainerModule(), WHOLE_ENGINE);
  assert.equal(await loadExplainer(), whole);
});

test('a function of a domain the module lacks is a CalculatorError that says so', async () => {
  const small = await loadEngine('scalebook-engine-roofline');
  assert.throws(() => small.simulatePipeline({ stages: 4 }), (e) => e instanceof CalculatorError && e.code === 'not_found' &&
    e.message === "simulatePipeline is not in this engine module, which was built without its domain; loadEngine('scalebook-engine') loads the whole engine");
  assert.throws(() => small.models(), CalculatorError);
  // A chapter's module holds no grader: its exercises load one (engine.mjs's loadGrader).
  assert.throws(() => small.exerciseGrade('{}', 'x', 0, 0, '1'), (e) => e instanceof CalculatorError && e.code === 'not_found' &&
    e.message.startsWith('exerciseGrade is not in this engine module'));
  assert.throws(() => small.parseAnswer('3 ms'), CalculatorError);
  assert.equal(graderModule(), WHOLE_ENGINE);
  assert.equal((await loadGrader()).parseAnswer('3 ms').unit, 'ms');
  assert.throws(() => small.calculate('training'), (e) => e instanceof CalculatorError && /training/.test(e.message));
  const transformer = await loadEngine('scalebook-engine-transformer');
  assert.ok(transformer.models().length > 3);
  assert.throws(() => transformer.shardingLayout({ array: 'A[I_X]', mesh: 'X=2' }), CalculatorError);
});

test('an unknown module name loads the whole engine', async () => {
  assert.equal(await loadEngine('no-such-module'), await loadEngine(WHOLE_ENGINE));
});

test('the builder picks the smallest module holding the page elements, and a grader for its exercises', async () => {
  const pick = await enginePicker({ runtimeDir: path.join(ROOT, 'web/runtime'), wasmDir: path.join(ROOT, 'bindings/wasm/generated') });
  const engine = (html, specs) => pick(html, specs).engine;
  assert.deepEqual(pick('<sb-roofline></sb-roofline><sb-chip-table></sb-chip-table>'), { engine: 'scalebook-engine-roofline', grader: null, explainer: null });
  assert.equal(engine('<sb-systolic-sim>'), 'scalebook-engine-systolic');
  // The simulator shows the closed form's steps: not the smaller numbers-only chapter 12 module,
  // which the collective calculator alone gets.
  assert.equal(engine('<sb-collective-sim chip="tpu-v5e">'), 'scalebook-engine-sharding');
  assert.equal(engine('<sb-collective>'), 'scalebook-engine-gpus');
  // Chapter 6 searches: the training module, without sharding, holds the search.
  assert.equal(engine('<sb-training></sb-training><sb-training-search>'), 'scalebook-engine-training');
  // Chapter 5's module (numbers only, no search) is the smaller of the two for a page that
  // does not search, sharding and all.
  assert.equal(engine('<sb-training></sb-training>'), 'scalebook-engine-training-sharding');
  assert.equal(engine('<sb-training></sb-training><sb-sharding>'), 'scalebook-engine-training-sharding');
  assert.ok(!names(await loadEngine('scalebook-engine-training')).includes('sharded-matmul'));
  assert.equal(engine('<sb-training></sb-training><sb-systolic-sim>'), WHOLE_ENGINE);
  // Chapter 5's module is built without the training search, the collective simulator and the
  // slice and price calculators: its page declares no use of them. A page that searches, or
  // holds an element that says nothing of what it calls, gets a module with them.
  const chapter5 = '<sb-training></sb-training><sb-sharding><sb-sharded-matmul><sb-pipeline><sb-collective-sweep>';
  assert.equal(engine(chapter5), 'scalebook-engine-training-sharding');
  // It computes numbers only: the planner's steps, asked for when a reader opens them, come from
  // the smallest module that explains it. Chapter 3's module explains, so it names none.
  assert.equal(pick(chapter5).explainer, 'scalebook-engine-sharding');
  assert.equal(pick('<sb-sharded-matmul><sb-collective-sim>').engine, 'scalebook-engine-sharding');
  assert.equal(pick('<sb-sharded-matmul><sb-collective-sim>').explainer, null);
  const partial = names(await loadEngine('scalebook-engine-training-sharding'));
  for (const left of ['training-search', 'slice', 'flops-per-dollar']) assert.ok(!partial.includes(left), left);
  assert.ok(!(await loadEngine('scalebook-engine-training-sharding')).simulations().includes('collective'));
  // No book element prepares a calculation: a partial module leaves prepare() out.
  for (const m of engineModules) {
    const engine = await loadEngine(m.name);
    assert.equal(engine.prepares, !m.partial, m.name);
    if (m.partial) {
      assert.throws(() => engine.prepare('training'), (e) => e instanceof CalculatorError && e.code === 'not_found' &&
        e.message === "prepare is not in this engine module, which holds only what its book page's elements call; loadEngine('scalebook-engine') prepares");
    }
  }
  assert.equal(engine(`${chapter5}<sb-training-search>`), WHOLE_ENGINE);
  assert.equal(engine(`${chapter5}<sb-slice>`), WHOLE_ENGINE);
  // An embed is known at run time only by its elements' domains: never a partial module.
  assert.equal(moduleFor(['roofline']), 'scalebook-engine-roofline');
  assert.ok(!engineModules.find((m) => m.name === moduleFor(['collectives', 'gpus'])).partial);
  assert.ok(!engineModules.find((m) => m.name === moduleFor(['training', 'sharding'])).partial);
  assert.equal(engine('<sb-inference-frontier><sb-serving>'), 'scalebook-engine-inference');
  // Chapter 12: its calculators beside chapter 3's collective; chapter 1's matmul is not in it.
  assert.equal(engine('<sb-gpu-cluster><sb-gpu-kernel><sb-collective><sb-collective-sweep>'), 'scalebook-engine-gpus');
  assert.notEqual(engine('<sb-gpu-kernel><sb-matmul>'), 'scalebook-engine-gpus');
  // An exercise's calculators, nested anywhere in its spec, choose the grader, not the page's
  // module: a page of exercises alone fetches no calculators module.
  assert.deepEqual(pick('<sb-exercise id="x">', [{ parts: [{ answer: { calculator: 'transformer' } }] }]),
    { engine: 'scalebook-engine-roofline', grader: 'scalebook-grader-transformer', explainer: null });
  assert.deepEqual(pick('<sb-roofline>', [{ values: { v: { calculator: 'training-budget' } } }]),
    { engine: 'scalebook-engine-roofline', grader: 'scalebook-grader-training', explainer: null });
  assert.equal(pick('<sb-roofline>', [{ values: { v: { calculator: 'matmul' } } }]).grader, 'scalebook-grader-roofline');
  // Exercises over calculators no grader holds together: the whole engine grades them.
  assert.equal(pick('<sb-roofline>', [{ parts: [{ calculator: 'systolic' }, { calculator: 'training' }] }]).grader, WHOLE_ENGINE);
  // Each chapter's own exercises: one grader each, none the whole engine.
  for (const [file, grader] of Object.entries({ '01-roofline': 'roofline', '02-tpus': 'roofline', '03-sharding': 'sharding',
    '04-transformers': 'transformer', '05-training': 'training', '06-applied-training': 'training', '07-inference': 'inference', '08-applied-inference': 'inference',
    '12-gpus': 'gpus' })) {
    const specs = JSON.parse(fs.readFileSync(path.join(ROOT, `exercises/${file}.json`), 'utf8')).exercises;
    assert.equal(pick('', specs).grader, `scalebook-grader-${grader}`, file);
  }
  // The search box's folder is no engine domain.
  assert.equal(engine('<sb-matmul><sb-search-panel>'), 'scalebook-engine-roofline');
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
