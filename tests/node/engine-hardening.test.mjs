// The WASM API never dies: values that cannot become strings, arrays and BigInts where numbers
// belong, over-long strings and lists, and simulations over the work budget are refused as
// CalculatorErrors naming the field, before they reach the module, and the module stays exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';

const engine = await loadEngine();
const fixtures = JSON.parse(fs.readFileSync(new URL('../fixtures/calculations.json', import.meta.url)));
const exercises = fs.readFileSync(new URL('../../exercises/01-roofline.json', import.meta.url), 'utf8');
const exerciseId = JSON.parse(exercises).exercises[0].id;

function refusal(fn) {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof CalculatorError, `not a CalculatorError: ${error}`);
    return { code: error.code, field: error.field, message: error.message };
  }
  return assert.fail('no error');
}

function matchesFixtures() {
  for (const c of fixtures.cases) {
    let got;
    try {
      const outputs = engine.calculate(c.calculator, c.inputs);
      delete outputs.steps;
      got = { outputs };
    } catch (error) {
      const { code, field, message, position } = error;
      got = { error: position === undefined ? { code, field, message } : { code, field, message, position } };
    }
    assert.deepEqual(got, c.expect, c.name);
  }
}

const throwing = { toString() { throw new Error('no'); } };
const poisons = [Object.create(null), [Symbol('s')], throwing, Symbol('t'), 10n, [1], true];

test('a value that cannot become a string is a CalculatorError naming the input', () => {
  const cases = [
    [Object.create(null), 'an object'], [[Symbol('s')], 'an array'], [throwing, 'an object'],
    [Symbol('t'), 'a symbol'], [10n, 'a BigInt'], [[1e9], 'an array'], [false, 'a boolean'],
  ];
  for (const [value, kind] of cases) {
    assert.deepEqual(refusal(() => engine.calculate('roofline', { bytes: value })),
      { code: 'invalid_argument', field: 'bytes', message: `bytes must be a number or text, got ${kind}` });
  }
  const getter = Object.defineProperty({}, 'flops', { enumerable: true, get() { throw new Error('no'); } });
  assert.deepEqual(refusal(() => engine.calculate('roofline', getter)),
    { code: 'invalid_argument', field: 'flops', message: 'flops could not be read' });
  const proxy = new Proxy({}, { ownKeys() { throw new Error('no'); } });
  assert.deepEqual(refusal(() => engine.calculate('roofline', proxy)),
    { code: 'invalid_argument', field: '', message: 'inputs could not be read as an object of name: value' });
  assert.deepEqual(refusal(() => engine.calculate(Symbol('x'))),
    { code: 'invalid_argument', field: 'calculator', message: 'calculator must be text, got a symbol' });
  assert.deepEqual(refusal(() => engine.simulateSystolic({ M: throwing })),
    { code: 'invalid_argument', field: 'M', message: 'M must be a number or text, got an object' });
  assert.deepEqual(refusal(() => engine.shardingLayout({ array: Object.create(null), mesh: 'X=2' })),
    { code: 'invalid_argument', field: 'array', message: 'array must be a number or text, got an object' });
  assert.deepEqual(refusal(() => engine.simulateCollective({ values: [1, [Symbol('v')]] })),
    { code: 'invalid_argument', field: 'values', message: 'values must be a list of whole numbers, or a list of rows of them; item 1, 0 is a symbol' });
  assert.deepEqual(refusal(() => engine.exerciseVariant(exercises, exerciseId, throwing)),
    { code: 'invalid_argument', field: 'seed', message: 'seed must be a whole number from 0 to 4294967295, got an object' });
});

test('arrays and BigInts where numbers belong are errors, not stringified', () => {
  assert.deepEqual(refusal(() => engine.solve('matmul', { over: 'B', output: 'flops', target: [5], lo: 1, hi: 10 })),
    { code: 'invalid_argument', field: 'target', message: 'target must be a number, got an array' });
  assert.deepEqual(refusal(() => engine.format(10n, 's')),
    { code: 'invalid_argument', field: 'value', message: 'value must be a number, got a BigInt' });
  assert.deepEqual(refusal(() => engine.exerciseGrade(exercises, exerciseId, 0, [0], '1')),
    { code: 'invalid_argument', field: 'part', message: 'part must be a number, got an array' });
  assert.deepEqual(refusal(() => engine.sweep('matmul', { over: 'B', values: [1, 2n] })),
    { code: 'invalid_argument', field: 'values', message: 'values must be a list of numbers' });
  assert.deepEqual(refusal(() => engine.simulateSystolic({ M: 4, max_pe_steps: 10n })),
    { code: 'invalid_argument', field: 'max_pe_steps', message: 'max_pe_steps must be a number or text, got a BigInt' });
});

test('100,000 refused calls leave the module alive and exact', () => {
  const calls = [
    (p) => engine.calculate('roofline', { flops: p }),
    (p) => engine.calculate('matmul', { chip: 'h100', B: [p] }),
    (p) => engine.simulateSystolic({ M: p }),
    (p) => engine.simulateCollective({ shape: p }),
    (p) => engine.shardingLayout({ array: p, mesh: 'X=2' }),
    (p) => engine.exerciseGrade(exercises, exerciseId, p, 0, '1'),
    (p) => engine.sweep('matmul', { inputs: { D: p }, over: 'B', values: [1] }),
  ];
  for (let i = 0; i < 100_000; ++i) {
    const call = calls[i % calls.length];
    assert.throws(() => call(poisons[i % poisons.length]), CalculatorError);
  }
  assert.ok(engine.chips().length > 0);
  matchesFixtures();
});

test('a systolic simulation over the work budget is refused before it runs', () => {
  assert.deepEqual(refusal(() => engine.simulateSystolic({ M: 990, N: 990, K: 990, rows: 1, cols: 1 })), {
    code: 'out_of_range', field: 'M',
    message: 'M = 990, N = 990, K = 990 on a 1 x 1 array is 3.20199e10 steps of work (PE-steps plus each cycle\'s bookkeeping, over 9.70299e8 cycles), over the simulator\'s work budget of 2e9; use the closed form (the systolic calculator) instead',
  });
  assert.deepEqual(refusal(() => engine.simulateSystolic({ M: 4, N: 4, K: 4, rows: 4, cols: 4, max_pe_steps: 1e300 })),
    { code: 'out_of_range', field: 'max_pe_steps', message: 'max_pe_steps must be > 0 and at most 1e9, got 1e300' });
  assert.equal(engine.simulateSystolic({ M: 4, N: 4, K: 4, rows: 4, cols: 4, max_pe_steps: 1e9 }).macs, 64);
});

test('long strings and lists are refused before they are copied in', () => {
  const mega = ' '.repeat(1_000_000);
  assert.deepEqual(refusal(() => engine.exerciseGrade(exercises, exerciseId, 0, 0, mega)),
    { code: 'invalid_argument', field: 'answer', message: 'answer must be at most 200 characters, got 1000000' });
  // Counted in characters, as the engine counts them: 150 emoji are 300 UTF-16 units.
  const emoji = refusal(() => engine.parseAnswer('\u{1F600}'.repeat(150)));
  assert.equal(emoji.field, 'answer');
  assert.doesNotMatch(emoji.message, /at most 200/);
  assert.deepEqual(refusal(() => engine.parseAnswer('\u{1F600}'.repeat(201))),
    { code: 'invalid_argument', field: 'answer', message: 'answer must be at most 200 characters, got 201' });
  assert.deepEqual(refusal(() => engine.calculate('roofline', { flops: '9'.repeat(1_000_000) })),
    { code: 'invalid_argument', field: 'flops', message: 'flops must be at most 1000 characters, got 1000000' });
  assert.deepEqual(refusal(() => engine.calculate('x'.repeat(101))),
    { code: 'invalid_argument', field: 'calculator', message: 'calculator must be at most 100 characters, got 101' });
  assert.deepEqual(refusal(() => engine.format(1, mega)),
    { code: 'invalid_argument', field: 'unit', message: 'unit must be at most 100 characters, got 1000000' });
  assert.deepEqual(refusal(() => engine.shardingLayout({ array: mega, mesh: 'X=2' })),
    { code: 'invalid_argument', field: 'array', message: 'array must be at most 1000 characters, got 1000000' });
  const wide = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, 1]));
  assert.deepEqual(refusal(() => engine.calculate('roofline', wide)),
    { code: 'invalid_argument', field: 'inputs', message: 'inputs must be at most 256 names, got 300' });
  assert.deepEqual(refusal(() => engine.simulateCollective({ shape: '4', values: new Array(1_000_000).fill(1) })),
    { code: 'invalid_argument', field: 'values', message: 'values must hold at most 65536 numbers, got 1000000' });
  assert.deepEqual(refusal(() => engine.sweep('matmul', { over: 'B', values: new Float64Array(20000) })),
    { code: 'invalid_argument', field: 'values', message: 'a sweep takes 1 to 10000 values, got 20000' });
  assert.deepEqual(refusal(() => engine.prepare('matmul', { vary: ['B'.repeat(101)] })),
    { code: 'invalid_argument', field: 'vary', message: 'vary must be a list of at most 64 input or output names; item 0 is too long' });
  matchesFixtures();
});
