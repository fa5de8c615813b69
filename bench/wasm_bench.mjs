// Per-call latency of the calculators through the WASM module and its JS wrapper.
import { loadEngine } from '../bindings/wasm/engine.mjs';

const engine = await loadEngine();
// [calculator, inputs, output summed as a checksum, calls]
const cases = [
  ['roofline', { flops: 1e12, bytes: 1e9, chip: 'tpu-v5e' }, 't_compute', 50000],
  ['matmul', { B: 256, D: 8192, F: 8192, chip: 'tpu-v5e' }, 't_compute', 50000],
  ['collective', { op: 'all-gather', axes: '4x4' }, 'time', 20000],
  ['sharded-matmul', {}, 't_total', 2000],
  ['transformer', { model: 'deepseek-v3' }, 'params', 5000],
];
for (const [name, inputs, output, calls] of cases) {
  let sink = 0;
  for (let i = 0; i < calls / 20; i++) sink += engine.calculate(name, inputs)[output];  // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink += engine.calculate(name, inputs)[output];
  const us = Number(process.hrtime.bigint() - start) / 1e3 / calls;
  console.log(`wasm   ${name.padEnd(14)} ${us.toFixed(3).padStart(9)} us/call  (${calls} calls, checksum ${sink.toPrecision(6)})`);
}

// The stepped systolic simulator through WebAssembly: PE-steps per second.
for (const [dataflow, size] of [['ws', 256], ['os', 256], ['is', 256]]) {
  const request = { M: size, N: size, K: size, rows: 128, cols: 128, dataflow, max_frames: 0 };
  const start = process.hrtime.bigint();
  const r = engine.simulateSystolic(request);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`wasm   systolic ${dataflow} ${size}^3 on 128x128: ${r.cycles} cycles, ` +
    `${(r.pe_steps / seconds / 1e6).toFixed(0)}M PE-steps/s (${seconds.toFixed(2)} s)`);
}
