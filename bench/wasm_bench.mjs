// Per-call latency of the calculators through the WASM module and its JS wrapper: median and
// p99 of single calls, explained and numbers-only; a 200-point sweep; the module's size.
// Prints figures; asserts nothing. --module NAME measures one of the smaller modules the
// chapters load (bindings/wasm/generated/modules.mjs), on the calculators it holds.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { loadEngine, WHOLE_ENGINE } from '../bindings/wasm/engine.mjs';

const at = process.argv.indexOf('--module');
const moduleName = at > 0 ? process.argv[at + 1] : WHOLE_ENGINE;
const engine = await loadEngine(moduleName);
const held = new Set(engine.list().map((c) => c.name ?? c));
console.log(`wasm   module ${moduleName}`);

function measure(calls, fn) {
  for (let i = 0; i < calls / 10; i++) fn();  // warm-up
  const us = new Float64Array(calls);
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    fn();
    us[i] = Number(process.hrtime.bigint() - start) / 1e3;
  }
  us.sort();
  return { median: us[calls >> 1], p99: us[Math.floor(calls * 0.99)] };
}

const row = (label, { median, p99 }, note = '') =>
  console.log(`wasm   ${label.padEnd(34)} median ${median.toFixed(3).padStart(8)} us  p99 ${p99.toFixed(3).padStart(8)} us  ${note}`);

// [calculator, inputs, calls]
const cases = [
  ['roofline', { flops: 1e12, bytes: 1e9, chip: 'tpu-v5e' }, 20000],
  ['matmul', { B: 256, D: 8192, F: 8192, chip: 'tpu-v5e' }, 20000],
  ['intensity', {}, 20000],
  ['systolic', {}, 20000],
  ['mxu', {}, 20000],
  ['chip', {}, 10000],
  ['slice', {}, 20000],
  ['collective', { op: 'all-gather', axes: '4x4' }, 10000],
  // Chapter 12's budget: an AllGather over a DGX H100 SuperPod's 1,024 GPUs.
  ['collective', { op: 'all-gather', chip: 'h100', axis_size: 1024, cluster: 'dgx-h100-superpod' }, 10000, 'superpod'],
  ['array-memory', {}, 10000],
  ['sharded-matmul', {}, 2000],
  ['transformer', { model: 'deepseek-v3' }, 2000],
  ['training', { tp_axes: 'Z' }, 10000],
  ['training-budget', {}, 20000],
  ['inference', {}, 20000],
  ['inference-frontier', {}, 100], // 64 batches x 8 slices: the issue's budget is 10 ms
];
let sink = 0;
for (const [name, inputs, calls, tag] of cases) {
  const label = tag ? `${name} ${tag}` : name;
  if (!held.has(name)) continue;
  // A numbers-only module (a chapter's own) has no explained path.
  if (engine.explains) row(`${label} explained`, measure(calls, () => { sink += engine.calculate(name, inputs).steps.length; }));
  row(`${label} numbers-only`, measure(calls, () => { sink += Object.keys(engine.calculate(name, inputs, { steps: false })).length; }));
}

// The prepared path: inputs checked once, then one typed array in and one out per call.
for (const [name, inputs, , tag] of cases) {
  if (!held.has(name) || !engine.prepares) continue; // a partial module has no prepare()
  const schema = engine.schema(name);
  const input = schema.inputs.find((i) => (i.type === 'number' || i.type === 'count') && typeof i.default === 'number' && i.group === 'main');
  const vary = input ? [input.name] : [];
  const p = engine.prepare(name, { inputs, vary });
  const x = new Float64Array(input ? [input.default] : []);
  const y = new Float64Array(p.outputs.length);
  const calls = name === 'sharded-matmul' || name === 'transformer' ? 2000 : 20000;
  row(`${tag ? `${name} ${tag}` : name} prepared (${vary[0] ?? '-'})`, measure(calls, () => { p.evaluate(x, y); sink += y[0]; }));
  p.release();
}

const batches = Float64Array.from({ length: 200 }, (_, i) => 1 + 4 * i);
if (held.has('matmul')) {
  row('sweep matmul over B, 200 points', measure(500, () => {
    sink += engine.sweep('matmul', { inputs: { chip: 'h100' }, over: 'B', values: batches, outputs: ['t_lower'] }).series.t_lower[0];
  }));
}
if (held.has('collective')) {
  row('sweep collective over bytes, 200 points', measure(200, () => {
    sink += engine.sweep('collective', { inputs: { axes: '4x4' }, over: 'bytes', values: batches, outputs: ['time'] }).series.time[0];
  }));
}

// The stepped systolic simulator through WebAssembly: PE-steps per second.
for (const [dataflow, size] of held.has('systolic') ? [['ws', 256], ['os', 256], ['is', 256]] : []) {
  const request = { M: size, N: size, K: size, rows: 128, cols: 128, dataflow, max_frames: 0 };
  const start = process.hrtime.bigint();
  const r = engine.simulateSystolic(request);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`wasm   systolic ${dataflow} ${size}^3 on 128x128: ${r.cycles} cycles, ` +
    `${(r.pe_steps / seconds / 1e6).toFixed(0)}M PE-steps/s (${seconds.toFixed(2)} s)`);
}

const dir = new URL('../bindings/wasm/generated/', import.meta.url);
for (const file of fs.readdirSync(dir).filter((f) => f === `${moduleName}.mjs` || f === `${moduleName}.wasm`)) {
  const bytes = fs.readFileSync(new URL(file, dir));
  console.log(`wasm   size ${file.padEnd(24)} ${(bytes.length / 1024).toFixed(0)} kB, ${(zlib.gzipSync(bytes, { level: 9 }).length / 1024).toFixed(0)} kB gzipped`);
}
if (sink === 0.5) console.log(sink);
