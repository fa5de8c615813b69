// The configuration search in WASM inside Chromium (Debian's, driven by playwright-core), as a
// reader's page runs it: median of runs for chapter 6's cases, with the count searched and the
// rate against Calculon's ~290 configurations per second, on the whole engine (embeds) and
// on the training module (which chapter 6 and its search worker run). Prints
// figures; asserts nothing.
import { start } from '../tests/browser/harness.mjs';

const CASES = [
  ['llama-3-70b, 8192 v5p, B=4Mi T=4096', { model: 'llama-3-70b', chips: '8192', B: '4194304', T: '4096' }],
  ['llama-3-405b, 65536 v5p, B=16Mi T=8192', { model: 'llama-3-405b', chips: '65536', B: '16777216', T: '8192' }],
  ['deepseek-v3, 4096 v5p, B=16Mi T=4096', { model: 'deepseek-v3', chips: '4096', B: '16777216', T: '4096' }],
];

const site = await start();
const { page } = await site.open('index.html');
const MODULES = ['scalebook-engine', 'scalebook-engine-training'];
const rows = await page.evaluate(async ([cases, modules]) => {
  const { loadEngine } = await import('/assets/scalebook.js');
  const out = [];
  for (const name of modules) {
    const engine = await loadEngine(name);
    for (const [label, inputs] of cases) {
      const ms = [];
      let evaluated = 0;
      for (let i = 0; i < 11; i++) {
        const t0 = performance.now();
        evaluated = engine.calculate('training-search', inputs, { steps: false }).evaluated;
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      out.push({ name, label, evaluated, median: ms[5] });
    }
  }
  return out;
}, [CASES, MODULES]);
for (const { name, label, evaluated, median } of rows) {
  const rate = evaluated / (median / 1000);
  console.log(`chromium ${name.padEnd(25)} ${label.padEnd(40)} ${String(evaluated).padStart(7)} configs  median ${median.toFixed(1).padStart(7)} ms  ` +
    `${(rate / 1e6).toFixed(2)}M configs/s  ${Math.round(rate / 290)}x Calculon`);
}

// Chapter 8's serving search (issue budget: LLaMA 3-405B over every v5e slice up to a full pod
// in under 100 ms), on chapter 8's module and the whole engine; its peers take about 30 s.
const SERVING = [
  ['llama-3-405b, v5e pod, 8k ctx, 15 ms', { model: 'llama-3-405b', chip: 'tpu-v5e', S: '8192', output: '512', dtype_kv: 'int8', target_latency: '15ms' }],
  ['llama-3-70b, v5e pod, 8k ctx, 15 ms', { model: 'llama-3-70b', chip: 'tpu-v5e', S: '8192', output: '512', target_latency: '15ms' }],
  ['llama-3-70b, v5p pod, 32k ctx', { model: 'llama-3-70b', chip: 'tpu-v5p', S: '32768', output: '512' }],
];
const serving = await page.evaluate(async ([cases, modules]) => {
  const { loadEngine } = await import('/assets/scalebook.js');
  const out = [];
  for (const name of modules) {
    const engine = await loadEngine(name);
    for (const [label, inputs] of cases) {
      const ms = [];
      let result = null;
      for (let i = 0; i < 11; i++) {
        const t0 = performance.now();
        result = engine.calculate('serving-search', inputs, { steps: false });
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      out.push({ name, label, evaluated: result.evaluated, pick: result.pick, median: ms[5], worst: ms[10] });
    }
  }
  return out;
}, [SERVING, ['scalebook-engine-inference', 'scalebook-engine']]);
for (const { name, label, evaluated, pick, median, worst } of serving) {
  console.log(`chromium ${name.padEnd(27)} serving-search ${label.padEnd(36)} ${String(evaluated).padStart(5)} configs  median ${median.toFixed(1).padStart(6)} ms  worst ${worst.toFixed(1).padStart(6)} ms  pick ${pick ?? 'none'}`);
}
await site.stop();
