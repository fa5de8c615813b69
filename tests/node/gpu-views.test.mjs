// Chapter 12's pictures (web/runtime/gpus/*-view.js) from the WASM engine's results, and the
// builder's reading of the measured H200 sweep: the cluster's tree is drawn from the engine's
// counts, the kernel roofline carries every measured matmul of the chosen format, the
// planner's bars say which strategy is bound by what, and a missing reference file fails with
// the path it looked for. Nothing carries a style attribute (the pages' CSP forbids them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { useEngine } from '../../web/runtime/core/format.js';
import { clusterExtrasHTML, treeModel } from '../../web/runtime/gpus/cluster-view.js';
import { kernelExtrasHTML, measuredPoints, memoryLabel } from '../../web/runtime/gpus/kernel-view.js';
import { plannerExtrasHTML } from '../../web/runtime/gpus/planner-view.js';
import { chipExtrasHTML, chipPair } from '../../web/runtime/gpus/chip-view.js';
import { h200Matmuls, REFERENCE_DIR } from '../../web/builder/reference.mjs';

const engine = await loadEngine('scalebook-engine-gpus');
useEngine(engine);
const calc = (name, inputs = {}) => engine.calculate(name, inputs, { steps: false });

test('the SuperPod tree draws 6 spines, 4 SUs of 3 leaves and 3 nodes each, the rest counted, the leaf links marked', () => {
  const r = calc('gpu-cluster', { cluster: 'dgx-h100-superpod' });
  // 32 leaf switches over 4 SUs, 16 spines, 32 nodes a SU.
  assert.deepEqual(treeModel(r), { gpusPerNode: 8, nodes: 128, sus: 4, nodesPerSu: 32, leavesPerSu: 8, spines: 16, cores: 0, binding: 'leaf' });
  const html = clusterExtrasHTML(r);
  assert.doesNotMatch(html, /\sstyle=/);
  assert.equal([...html.matchAll(/<rect class="switch"/g)].length, 6 + 4 * 3);
  assert.equal([...html.matchAll(/<rect class="node"/g)].length, 4 * 3);
  assert.equal([...html.matchAll(/\+29 nodes/g)].length, 4);
  assert.match(html, />\+10 spine</);
  // Only the node-to-leaf links are the binding level's: 4 SUs x 3 leaves x 3 nodes.
  assert.equal([...html.matchAll(/<line class="link binding"/g)].length, 4 * 3 * 3);
  assert.match(html, /<tr class="binding" data-level="leaf"><td>leaf \(binds\)<\/td><td>256 GPUs<\/td><td>32<\/td><td>400 GB\/s<\/td><td>50 GB\/s<\/td><td>413 GB\/s<\/td><td>32 switches<\/td><\/tr>/);
});

test('one node is drawn alone, without leaf or spine', () => {
  const r = calc('gpu-cluster', { cluster: 'h100-node' });
  const html = clusterExtrasHTML(r);
  assert.equal([...html.matchAll(/<rect class="switch"/g)].length, 0);
  assert.equal([...html.matchAll(/<rect class="node"/g)].length, 1);
  assert.equal([...html.matchAll(/<rect class="gpu"/g)].length, 8);
});

test('the kernel roofline carries every measured matmul of its format, and the best at 81% of the H200\'s bf16 peak', () => {
  const measured = h200Matmuls();
  const bf16 = measured.matmul.filter((m) => m.dtype === 'bf16');
  const sweep = measuredPoints(engine, measured, 'bf16');
  assert.equal(sweep.points.length, bf16.length);
  // [4096, 8192] x [8192, 8192]: 2 x 4096 x 8192^2 = 5.50e11 FLOPs in 689.8 µs = 797 TFLOP/s.
  const best = sweep.points.find((p) => p.M === 4096 && p.K === 8192);
  assert.equal(best.flops, 2 * 4096 * 8192 * 8192);
  assert.ok(Math.abs(best.achieved / 7.97e14 - 1) < 1e-3);
  const r = calc('gpu-kernel', { chip: 'h200', B: 512, D: 8192, F: 8192 });
  const html = kernelExtrasHTML(r, sweep);
  assert.doesNotMatch(html, /\sstyle=/);
  const plot = html.slice(0, html.indexOf('<ul class="legend">'));
  assert.equal([...plot.matchAll(/<circle class="measured[^"]*" cx/g)].length, bf16.length);
  assert.match(html, /reaches 797 TFLOP\/s, 81% of the datasheet&#39;s 989 TFLOP\/s/);
  // No int8 sweep: the roof alone.
  assert.equal(measuredPoints(engine, measured, 'int8'), null);
  assert.match(kernelExtrasHTML(r, null), /No H200 measurement in this format/);
});

test('a missing or malformed reference file fails with the path it looked for', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-reference-'));
  assert.throws(() => h200Matmuls(dir), (e) => e.message.startsWith(`the GPU kernel roofline draws the measured H200 matmuls of ${path.join(dir, 'h200-matmul.json')}, which could not be read (ENOENT)`));
  fs.writeFileSync(path.join(dir, 'h200-matmul.json'), JSON.stringify({ matmul: [{ dtype: 'bf16', M: 1, K: 2, N: 3, seconds: -1 }] }));
  assert.throws(() => h200Matmuls(dir), /h200-matmul\.json: expected "matmul": \[\{ "dtype", "M", "K", "N", "seconds" \}\] with positive numbers/);
  assert.equal(REFERENCE_DIR, path.resolve(import.meta.dirname, '../../reference'));
});

test('the planner\'s bars: DP comms-bound at 977 tokens a GPU, TP compute-bound, the unused strategies said so', () => {
  const html = plannerExtrasHTML(calc('gpu-planner'));
  assert.doesNotMatch(html, /\sstyle=/);
  const verdicts = [...html.matchAll(/data-strategy="(\w+)".*?<span class="verdict (\w+)">([^<]*)</g)].map((m) => [m[1], m[2], m[3]]);
  assert.deepEqual(verdicts, [['DP', 'no', 'comms-bound'], ['TP', 'yes', 'compute-bound'], ['EP', 'none', 'not used'], ['PP', 'none', 'not used']]);
  // DP's comms are the longest bar: full width.
  assert.match(html, /data-strategy="DP".*?<rect class="comms" x="0" y="18" width="600.0"/);
});

test('the chip explorer sets the H100 beside the v5p, every level drawn, counts from the engine', () => {
  const pair = chipPair(engine, calc('gpu-chip', { chip: 'h100' }), { chip: 'h100', dtype: 'bf16', compare: 'tpu-v5p' });
  const html = chipExtrasHTML(pair);
  assert.doesNotMatch(html, /\sstyle=/);
  assert.match(html, /<h5>NVIDIA H100 SXM<\/h5>.*<dt>CUDA cores \(fp32 lanes\)<\/dt><dd>16,896 ALUs<\/dd>/);
  assert.match(html, /<h5>TPU v5p<\/h5>.*<dt>VPU ALUs<\/dt><dd>8,192 ALUs<\/dd>.*<dt>VMEM<\/dt><dd>128 MB<\/dd>/);
  assert.equal([...html.matchAll(/<details class="level"/g)].length, 4);
  assert.match(html, /<option value="tpu-v5p" selected>/);
  assert.throws(() => chipPair(engine, null, { chip: 'h100', dtype: 'bf16', compare: 'nope' }), /chip/);
});

test('the kernel roofline from SMEM draws HBM\'s roof beside it and names both in its label and key', () => {
  // An H200 in bf16: 989e12 / (132 x 128 B x 1.98 GHz = 33.45e12 B/s) = 29.6 FLOP/B from
  // SMEM, against 989e12 / 4.8e12 = 206 from HBM.
  const smem = calc('gpu-kernel', { chip: 'h200', B: 512, D: 8192, F: 8192, memory: 'smem' });
  const html = kernelExtrasHTML(smem, null, memoryLabel(engine.schema('gpu-kernel'), 'smem'));
  const plot = html.slice(0, html.indexOf('<ul class="legend">'));
  assert.equal([...plot.matchAll(/<path class="roof hbm"/g)].length, 1);
  assert.match(html, /aria-label="Roofline of the chosen GPU from SMEM, peak 989 TFLOP\/s, critical intensity 29\.6 FLOP\/B \(from HBM 206 FLOP\/B\)"/);
  assert.match(html, /operands in SMEM<\/li><li>.*the same from HBM<\/li>/);
  const hbm = calc('gpu-kernel', { chip: 'h200', B: 512, D: 8192, F: 8192 });
  const plain = kernelExtrasHTML(hbm, null);
  assert.doesNotMatch(plain, /roof hbm/);
  assert.match(plain, /from HBM, peak 989 TFLOP\/s, critical intensity 206 FLOP\/B"/);
});
