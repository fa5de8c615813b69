// A long calculation's hop to its worker and back (core/long-runner.js and long-worker.js): the
// page gets the engine's answer, its progress, and an error as the same CalculatorError it would
// catch on its own thread, field and position included. The worker here runs in this process;
// every message is structured-cloned both ways, as postMessage does between threads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
import { LongRunner } from '../../web/runtime/core/long-runner.js';
import { serveCalculations } from '../../web/runtime/core/long-worker.js';

const ORIGIN = 'http://book.test';
// The whole engine: the search, and sharded-matmul, whose errors inside a text carry a
// position, which no training calculator's do (the hop is what is tested, not the module).
const MODULE = 'scalebook-engine';
const WORKER_URL = `${ORIGIN}/assets/training-worker.js`;
const started = [];

class FakeWorker {
  constructor(url, options) {
    assert.equal(String(url), WORKER_URL);
    assert.deepEqual(options, { type: 'module' });
    this.terminated = false;
    this.scope = { postMessage: (data) => { const copy = structuredClone(data); setImmediate(() => { if (!this.terminated) this.onmessage?.({ data: copy }); }); } };
    serveCalculations(() => loadEngine(MODULE), this.scope);
    started.push(this);
  }

  postMessage(data) {
    const copy = structuredClone(data);
    setImmediate(() => this.scope.onmessage({ data: copy }));
  }

  terminate() {
    this.terminated = true;
  }
}

let engine;
const saved = {};
before(async () => {
  engine = await loadEngine(MODULE);
  for (const name of ['Worker', 'location']) saved[name] = Object.getOwnPropertyDescriptor(globalThis, name);
  globalThis.Worker = FakeWorker;
  Object.defineProperty(globalThis, 'location', { value: new URL(`${ORIGIN}/06-applied-training.html`), configurable: true });
});
after(() => {
  for (const [name, descriptor] of Object.entries(saved)) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete globalThis[name];
  }
});

// What the page would have caught calling the engine itself.
function caught(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected an error');
}

const fields = (e) => ({ name: e.name, code: e.code, field: e.field, position: e.position, message: e.message });

test('an error inside a text input crosses back as a CalculatorError with its field and position', async () => {
  const inputs = { spec: 'A[I,J', I: '1024' };
  const local = caught(() => engine.calculate('sharded-matmul', inputs, { steps: false }));
  assert.equal(local.position, 1);
  const runner = new LongRunner(engine, WORKER_URL);
  assert.ok(runner.usesWorker);
  const remote = await runner.run('sharded-matmul', inputs).then(() => assert.fail('expected a rejection'), (e) => e);
  assert.ok(remote instanceof CalculatorError, `got ${remote}`);
  assert.deepEqual(fields(remote), fields(local));
  assert.deepEqual(fields(remote), { name: 'CalculatorError', code: 'invalid_argument', field: 'spec', position: 1, message: local.message });
});

test('an error without a position crosses back without one', async () => {
  const inputs = { model: 'llama-3-70b', chips: 'abc' };
  const local = caught(() => engine.calculate('training-search', inputs, { steps: false }));
  const remote = await new LongRunner(engine, WORKER_URL).run('training-search', inputs).catch((e) => e);
  assert.ok(remote instanceof CalculatorError);
  assert.equal('position' in remote, false);
  assert.deepEqual(fields(remote), fields(local));
  assert.equal(remote.field, 'chips');
});

test('the worker\'s answer is the engine\'s, and its progress reaches the page on the way', async () => {
  const inputs = { model: 'llama-3-70b', chip: 'tpu-v5p', chips: '512', B: '1048576', T: '4096' };
  const heard = [];
  const result = await new LongRunner(engine, WORKER_URL).run('training-search', inputs, { onProgress: (f) => heard.push(f) });
  assert.deepEqual(result, engine.calculate('training-search', inputs, { steps: false }));
  assert.ok(heard.length > 0, 'some progress was heard');
  assert.ok(heard.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= heard[i - 1])), `progress in order: ${heard}`);
});

test('a newer request cancels the older one and ends its worker', async () => {
  const runner = new LongRunner(engine, WORKER_URL);
  const before = started.length;
  const first = runner.run('training-search', { model: 'llama-3-70b', chips: '512' });
  const second = runner.run('sharded-matmul', { I: '1024' });
  const cancelled = await first.catch((e) => e);
  assert.equal(cancelled.cancelled, true);
  assert.equal(started[before].terminated, true);
  assert.equal(started.length, before + 2, 'the second request started a new worker');
  assert.deepEqual(await second, engine.calculate('sharded-matmul', { I: '1024' }, { steps: false }));
});

test('on another origin (an embed) or without a worker the page\'s thread calculates', () => {
  const inputs = { I: '2048' };
  const expected = engine.calculate('sharded-matmul', inputs, { steps: false });
  const embedded = new LongRunner(engine, 'https://elsewhere.test/assets/training-worker.js');
  assert.equal(embedded.usesWorker, false);
  assert.deepEqual(embedded.run('sharded-matmul', inputs), expected);
  const none = new LongRunner(engine, null);
  assert.equal(none.usesWorker, false);
  assert.deepEqual(none.run('sharded-matmul', inputs), expected);
  // The error is thrown as it is, not posted.
  const error = caught(() => embedded.run('sharded-matmul', { spec: 'A[I,J' }));
  assert.ok(error instanceof CalculatorError);
  assert.equal(error.position, 1);
});
