// Chapter 12's switched collectives through the WASM engine and the builder: the gpu-collective
// simulation's total is the collective calculator's time (as natively), its errors cross as
// CalculatorErrors naming the field; ::gpu-collective-sim, ::plot collective-scaling and the GPU
// settings of ::plot collective-sweep render at build time and fail the build on a bad setting;
// the native CLI's `simulate gpu-collective` gives the same steps.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { useEngine } from '../../web/runtime/core/format.js';
import { extractDirectives } from '../../web/builder/directives.mjs';

let engine;
before(async () => {
  engine = await loadEngine();
  useEngine(engine);
});

const directive = (line) => extractDirectives({ engine, calculators: new Map() }, `# T\n\n${line}\n`, 'x.md').blocks[0];

test('the simulation adds up to the collective calculator\'s time for every op on 8, 16 and 32 H100s', () => {
  for (const op of ['all-gather', 'reduce-scatter', 'all-reduce', 'all-to-all']) {
    for (const gpus of [8, 16, 32]) {
      const sim = engine.simulate('gpu-collective', { op, gpus, bytes: 5e8, latency: 2e-5 });
      const cost = engine.calculate('collective', { op, chip: 'h100', axis_size: gpus, bytes: 5e8, latency: 2e-5 });
      assert.ok(Math.abs(sim.time / cost.time - 1) < 1e-12, `${op} on ${gpus}: ${sim.time} vs ${cost.time}`);
      assert.equal(sim.steps.length, cost.hops);
    }
  }
  // 8 x H100, bf16[4096, 65536]: 7/8 of 512 MiB at 450 GB/s, 1.04 ms.
  const book = engine.simulate('gpu-collective', { bytes: 2 * 4096 * 65536 });
  assert.equal(book.time.toPrecision(3), '0.00104');
  assert.deepEqual(Array.from(book.steps[0].moves.to), [1, 2, 3, 4, 5, 6, 7, 0]);
});

test('bad input crosses as a CalculatorError naming the field', () => {
  const refusal = (request) => {
    try {
      engine.simulate('gpu-collective', request);
    } catch (e) {
      return { name: e.name, field: e.field, message: e.message };
    }
    return assert.fail('no error');
  };
  assert.deepEqual(refusal({ gpus: 65 }), {
    name: 'CalculatorError', field: 'gpus',
    message: 'gpus must be <= 64: the simulation draws every GPU (the collective calculator costs larger groups), got 65',
  });
  assert.equal(refusal({ gpus: 'many' }).message, 'gpus must be a number, got "many"');
  assert.equal(refusal({ latency: 'NaN' }).field, 'latency');
  assert.equal(refusal({ op: 'all-to-all', algorithm: 'in-network' }).field, 'algorithm');
});

test('::gpu-collective-sim draws its first step at build time and names a bad setting', () => {
  const html = directive('::gpu-collective-sim gpus=16 latency=1e-6');
  assert.match(html, /^<sb-gpu-collective-sim gpus="16" latency="1e-6"><template shadowrootmode="open">/);
  assert.equal((html.match(/<g class="gpu" /g) ?? []).length, 16);
  assert.match(html, /data-stat="step">0 of 8</);
  assert.match(html, /simulation total 65\.2 µs = the collective calculator&#39;s 65\.2 µs/);
  assert.throws(() => directive('::gpu-collective-sim gpus=12'),
    /x\.md:3: ::gpu-collective-sim: gpus must be at most 8 \(one h100 node\) or a multiple of 8, got 12$/);
  assert.throws(() => directive('::gpu-collective-sim shape=8'), /::gpu-collective-sim has no setting "shape"/);
});

test('::plot collective-scaling and a GPU\'s ::plot collective-sweep render; chapter 3\'s sweep keeps its form', () => {
  const scaling = directive('::plot collective-scaling');
  assert.match(scaling, /^<sb-collective-scaling><template shadowrootmode="open">/);
  assert.equal((scaling.match(/<circle class="dot gpu"/g) ?? []).length, 10);
  assert.throws(() => directive('::plot collective-scaling tpu=h100'), /tpu must be a TPU \(a chip with a torus\), got "h100"$/);
  const gpu = directive('::plot collective-sweep op=all-reduce chip=h100 axis_size=8 latency=5e-5');
  assert.match(gpu, /<sb-collective-sweep op="all-reduce" chip="h100" axis_size="8" latency="5e-5">/);
  assert.deepEqual(gpu.match(/<(?:select|input) id="bw-(\w+)"/g).map((m) => m.split('bw-')[1].slice(0, -1)),
    ['op', 'chip', 'shape', 'latency', 'cluster', 'in_network']);
  const tpu = directive('::plot collective-sweep chip=tpu-v5e axis_size=16');
  assert.deepEqual(tpu.match(/<(?:select|input) id="bw-(\w+)"/g).map((m) => m.split('bw-')[1].slice(0, -1)),
    ['op', 'chip', 'shape', 'wraparound']);
  assert.throws(() => directive('::plot collective-sweep chip=h100 axis_size=8 cluster=gb200-nvl72'), /cluster gb200-nvl72 is built of gb200 GPUs, not h100/);
});

const CLI = process.env.SCALEBOOK_CLI ?? fileURLToPath(new URL('../../build/native/bindings/cli/scalebook', import.meta.url));

test('the CLI simulates the same steps, a line each, and refuses a bad count with exit 2', () => {
  const run = (...args) => spawnSync(CLI, args, { encoding: 'utf8' });
  const json = JSON.parse(run('simulate', 'gpu-collective', 'gpus=16', 'latency=1e-6').stdout);
  const wasm = engine.simulate('gpu-collective', { gpus: 16, latency: 1e-6 });
  assert.equal(json.time, wasm.time);
  assert.deepEqual(json.steps[3].moves.to, Array.from(wasm.steps[3].moves.to));
  const text = run('--text', 'simulate', 'gpu-collective', 'op=all-reduce', 'algorithm=in-network', 'gpus=16').stdout.split('\n');
  assert.equal(text[0], 'all-reduce (in-network) over 16 h100 GPUs on a full-bisection fat tree of SUs of 32 nodes');
  assert.match(text[2], /^step 1 {2}all-reduce {2}41\.9 µs {2}set by leaf {2}node 16\.8 MB {2}leaf 2\.1 MB$/);
  const bad = run('simulate', 'gpu-collective', 'gpus=12');
  assert.equal(bad.status, 2);
  assert.equal(JSON.parse(bad.stdout).error.field, 'gpus');
});
