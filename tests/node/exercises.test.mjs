// Exercises through the WASM API: the same variants and grades as the native CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';

const CLI = process.env.SCALEBOOK_CLI ??
  fileURLToPath(new URL('../../build/native/bindings/cli/scalebook', import.meta.url));
const FILE = fileURLToPath(new URL('../../exercises/01-roofline.json', import.meta.url));
const text = fs.readFileSync(FILE, 'utf8');
const ids = JSON.parse(text).exercises.map((e) => e.id);

function cli(...args) {
  const r = spawnSync(CLI, [...args, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('a seed gives the same variant natively and in WebAssembly', async () => {
  const engine = await loadEngine();
  for (const id of ids) {
    for (const seed of [0, 1, 2, 77, 4294967295]) {
      const wasm = engine.exerciseVariant(text, id, seed);
      const native = cli('exercise', 'show', id, '--seed', String(seed), '--explain');
      assert.equal(wasm.prompt, native.prompt, `${id} seed ${seed}`);
      assert.deepEqual(wasm.params, native.params, `${id} seed ${seed}`);
      assert.deepEqual(wasm.parts.map((p) => p.expected), native.parts.map((p) => p.expected));
      assert.deepEqual(wasm.parts.map((p) => p.steps.map((s) => s.latex)),
        native.parts.map((p) => p.steps.map((s) => s.latex)));
      // One marshaller: the whole variant is the same object on both faces.
      assert.deepEqual(wasm, native, `${id} seed ${seed}`);
    }
  }
});

test('the same seed twice gives the same variant, and variants differ from the book', async () => {
  const engine = await loadEngine();
  const id = 'roofline-q1d-int8-times';
  assert.deepEqual(engine.exerciseVariant(text, id, 99), engine.exerciseVariant(text, id, 99));
  const book = engine.exerciseVariant(text, id, 0);
  const seeds = [1, 2, 3, 4, 5].map((seed) => engine.exerciseVariant(text, id, seed).prompt);
  assert.ok(seeds.some((p) => p !== book.prompt));
  assert.match(book.prompt, /\$B = 256\$, \$D = 8192\$, \$F = 16384\$/);
});

test('answers are graded the same natively and in WebAssembly', async () => {
  const engine = await loadEngine();
  const answers = ['240', '240 tokens', '0.24k', '2.4e2', '120', '5 ms', '240000', '', 'abc',
    '1,5', '−240', '1e400', '2^8', '\u{1F600}'];
  for (const answer of answers) {
    const wasm = engine.exerciseGrade(text, 'roofline-ex3-critical-batch', 0, 0, answer);
    const native = cli('exercise', 'grade', 'roofline-ex3-critical-batch', '--answer', answer);
    assert.deepEqual(wasm, native, JSON.stringify(answer));
  }
});

test('grading reports units, slips and garbage in words', async () => {
  const engine = await loadEngine();
  const grade = (id, answer, part = 0, seed = 0) => engine.exerciseGrade(text, id, seed, part, answer);
  assert.equal(grade('roofline-ex3-critical-batch', '240').correct, true);
  assert.deepEqual(grade('roofline-ex3-critical-batch', '5 ms'), {
    correct: false, expected: 240.2439024390244, parsed: null, unit: 'tokens',
    feedback: 'tokens is a count, but this answer is a time (ms)', slip: 'wrong-unit',
  });
  assert.equal(grade('roofline-ex1-h100-time', '1011 us').correct, true);
  assert.equal(grade('roofline-ex1-h100-time', '1.01 s').slip, 'prefix-1000');
  assert.equal(grade('roofline-ex1-h100-time', '2.02').slip, 'factor-2');
  assert.equal(grade('roofline-ex1-h100-time', 'soon').feedback, '"soon" is not a number');
  assert.equal(grade('roofline-bound-choice', 'memory').correct, true);
  assert.throws(() => grade('roofline-ex3-critical-batch', '240', 5),
    { name: 'CalculatorError', field: 'part', message: 'roofline-ex3-critical-batch has 1 part(s), got part 6' });
  assert.throws(() => engine.exerciseVariant(text, 'roofline-ex3-critical-batch', -1),
    (e) => e instanceof CalculatorError && e.field === 'seed');
  assert.throws(() => engine.exerciseVariant('{"chapter": 1}', 'x', 0), { message: 'exercise file: chapter must be text' });
  assert.throws(() => engine.exerciseVariant('nonsense', 'x', 0), { message: 'the exercise file is not valid JSON' });
});

test('exerciseCheck finds the book disagreeing with the engine', async () => {
  const engine = await loadEngine();
  assert.deepEqual(engine.exerciseCheck(text, 10).problems, []);
  const data = JSON.parse(text);
  data.exercises[2].parts[0].book.value = 300;
  const { problems } = engine.exerciseCheck(JSON.stringify(data), 0);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].exercise, 'roofline-ex3-critical-batch');
  assert.match(problems[0].message, /the engine gives 240\.244 tokens but the book 300/);
});

test('exerciseCheck counts its calculations first and refuses past its budget of 5000', async () => {
  const engine = await loadEngine();
  // 13 exercises with 28 values and parts: 1001 variants of them are 28,028 calculations.
  assert.throws(() => engine.exerciseCheck(text, 1000), (e) => e instanceof CalculatorError &&
    e.code === 'out_of_range' && e.field === 'seeds' &&
    e.message === 'checking 13 exercise(s) at 1000 seeds runs 28028 calculations (28 a variant), more than the budget of 5000; check fewer seeds');
  // The builder's 20 seeds on the largest files, chapter 6's (85 a variant) and chapter 3's.
  for (const name of ['06-applied-training', '03-sharding']) {
    const file = fs.readFileSync(fileURLToPath(new URL(`../../exercises/${name}.json`, import.meta.url)), 'utf8');
    assert.deepEqual(engine.exerciseCheck(file, 20).problems, [], name);
  }
});

test('the seed range of the page is the engine one: MAX_SEED is the largest seed the engine takes', async () => {
  const engine = await loadEngine();
  const { MAX_SEED } = await import('../../web/runtime/exercises/variant-hash.js');
  const id = 'roofline-ex3-critical-batch';
  assert.equal(engine.exerciseVariant(text, id, MAX_SEED).seed, MAX_SEED);
  assert.throws(() => engine.exerciseVariant(text, id, MAX_SEED + 1),
    { message: `seed must be a whole number from 0 to ${MAX_SEED}, got ${MAX_SEED + 1}` });
});
