// Per-call latency of the calculators through the WASM module and its JS wrapper.
import { loadEngine } from '../bindings/wasm/engine.mjs';

const engine = await loadEngine();
const cases = {
  roofline: { flops: 1e12, bytes: 1e9, chip: 'tpu-v5e' },
  matmul: { B: 256, D: 8192, F: 8192, chip: 'tpu-v5e' },
};
for (const [name, inputs] of Object.entries(cases)) {
  const calls = 50000;
  let sink = 0;
  for (let i = 0; i < 2000; i++) sink += engine.calculate(name, inputs).t_compute;  // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink += engine.calculate(name, inputs).t_compute;
  const us = Number(process.hrtime.bigint() - start) / 1e3 / calls;
  console.log(`wasm   ${name.padEnd(9)} ${us.toFixed(3).padStart(8)} us/call  (${calls} calls, checksum ${sink.toPrecision(6)})`);
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
