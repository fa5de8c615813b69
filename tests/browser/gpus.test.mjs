// Chapter 12's own elements as a reader meets them on the built page: the cluster builder's
// SuperPod and the GB200 one it switches to, the kernel roofline with the H200's measured
// matmuls and its roof from SMEM and L2, the GPU against TPU explorer zoomed from the keyboard, and the parallelism
// planner's verdicts; a bad value is named beside its field, and nothing logs an error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { SHOTS, start } from './harness.mjs';
import { h200Matmuls } from '../../web/builder/reference.mjs';

const PAGE = '12-gpus.html';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

const text = async (locator) => (await locator.textContent()).trim().replace(/\s+/g, ' ');
const output = (el, name) => text(el.locator(`[data-output="${name}"]`).first());
const waitOutput = (page, host, name, expected) => page.waitForFunction(([h, n, want]) =>
  document.querySelector(h).shadowRoot.querySelector(`[data-output="${n}"]`)?.textContent.trim() === want, [host, name, expected]);

test('the cluster builder shows the H100 SuperPod, then the GB200 one moves the bottleneck into the node', async () => {
  const { page, errors } = await site.open(PAGE);
  const host = 'sb-gpu-cluster';
  const el = page.locator(host);
  await el.scrollIntoViewIfNeeded();
  // 128 nodes of 8 under 32 leaf switches (8 a SU) and 16 spines: 512 NVSwitches + 32 + 16 =
  // 560. Collective bandwidths D W / (D - 1): node 8 x 450 / 7 = 514 GB/s, leaf 32 x 400 / 31
  // = 413 GB/s, spine 4 x 12.8 / 3 = 17.1 TB/s; the leaf binds.
  assert.equal(await output(el, 'switches'), '560 switches');
  assert.equal(await output(el, 'collective_bandwidth'), '413 GB/s');
  assert.equal(await output(el, 'binding_level'), 'leaf');
  const rows = () => el.locator('table.levels tbody tr').evaluateAll((trs) => trs.map((tr) =>
    [...tr.cells].map((c) => c.textContent.trim())));
  assert.deepEqual((await rows()).map((r) => [r[0], r[5]]),
    [['node', '514 GB/s'], ['leaf (binds)', '413 GB/s'], ['spine', '17.1 TB/s']]);
  assert.match(await el.locator('svg.tree').getAttribute('aria-label'), /128 nodes of 8 GPUs, 4 SUs under 16 spine switches; the leaf level binds/);
  assert.ok(await el.locator('svg.tree .link.binding').count() > 0);

  // GB200: 8 racks of 72 GPUs; a rack's 72 NICs send 3.6 TB/s, and its NVLink ring gives
  // 72 x 900 / 71 = 913 GB/s, below the leaf's 8 x 3.6 / 7 = 4.11 TB/s: the node binds.
  await el.locator('select[name="cluster"]').selectOption('gb200-nvl72-superpod');
  await waitOutput(page, host, 'binding_level', 'node');
  assert.equal(await output(el, 'collective_bandwidth'), '913 GB/s');
  assert.equal(await output(el, 'node_egress'), '3.6 TB/s');
  assert.deepEqual((await rows()).map((r) => [r[0], r[5]]), [['node (binds)', '913 GB/s'], ['leaf', '4.11 TB/s']]);
  assert.match(await el.locator('svg.tree').getAttribute('aria-label'), /8 nodes of 72 GPUs.*the node level binds/);
  await el.screenshot({ path: path.join(SHOTS, 'gpus-cluster-gb200.png') });

  // 2,000 nodes fill no whole number of 32-node SUs.
  await el.locator('select[name="cluster"]').selectOption('dgx-h100-superpod');
  await el.locator('input[name="nodes"]').fill('2000');
  const message = el.locator('[data-error-for="nodes"]');
  await message.waitFor({ state: 'visible' });
  assert.equal(await text(message), 'nodes must be at most 32 (one scalable unit) or a multiple of 32, got 2000');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the kernel roofline draws every measured H200 matmul of its format over the model, and says how far below the roof they sit', async () => {
  const { page, errors } = await site.open(PAGE);
  const host = 'sb-gpu-kernel';
  const el = page.locator(host);
  await el.scrollIntoViewIfNeeded();
  const measured = h200Matmuls().matmul;
  const count = (dtype) => measured.filter((m) => m.dtype === dtype).length;
  // The page carries the reference file's measurements as data, not code.
  const island = JSON.parse(await page.locator(`${host} > script[type="application/json"][data-measured]`).textContent());
  assert.deepEqual(island.matmul, measured);
  const dots = el.locator('.plot circle.measured');
  assert.equal(await dots.count(), count('bf16'));
  // [4096, 8192] x [8192, 8192] in bf16: 2 x 4096 x 8192^2 = 5.50e11 FLOPs in 690 µs, 797
  // TFLOP/s, 81% of the H200's 989; [256]^3 takes 18 µs where its roofline says 81.9 ns.
  const summary = () => text(el.locator('[data-measured-summary]'));
  assert.match(await summary(), /the best matmul, \[4096, 8192\] x \[8192, 8192\], reaches 797 TFLOP\/s, 81% of the datasheet's 989 TFLOP\/s/);
  assert.match(await summary(), /\[256, 256\] x \[256, 256\], takes 18 µs where the roofline says 81\.9 ns/);

  // Operands in SMEM: 132 SMs x 128 B a cycle x 1.98 GHz = 33.5 TB/s, so the critical intensity
  // falls from 989 / 4.8 = 206 to 29.6, with HBM's roof kept beside the SMEM one; the L2's
  // measured 5.5 TB/s gives 180. A B200 has no measured L2 bandwidth: said beside the field.
  assert.equal(await output(el, 'critical_intensity'), '206 FLOP/B');
  assert.equal(await el.locator('.plot path.roof.hbm').count(), 0);
  await el.locator('select[name="memory"]').selectOption('smem');
  await waitOutput(page, host, 'critical_intensity', '29.6 FLOP/B');
  assert.equal(await output(el, 'memory_bandwidth'), '33.5 TB/s');
  assert.equal(await el.locator('.plot path.roof.hbm').count(), 1);
  assert.match(await el.locator('.plot svg').getAttribute('aria-label'), /from SMEM, peak 989 TFLOP\/s, critical intensity 29\.6 FLOP\/B \(from HBM 206 FLOP\/B\)/);
  assert.match(await text(el.locator('ul.legend')), /the model's roof, operands in SMEM\s*the same from HBM/);
  await el.screenshot({ path: path.join(SHOTS, 'gpus-kernel-smem.png') });
  await el.locator('select[name="memory"]').selectOption('l2');
  await waitOutput(page, host, 'critical_intensity', '180 FLOP/B');
  await el.locator('select[name="chip"]').selectOption('b200');
  const memoryError = el.locator('[data-error-for="memory"]');
  await memoryError.waitFor({ state: 'visible' });
  assert.match(await text(memoryError), /^memory=l2 needs the GPU's L2 bandwidth, which NVIDIA does not publish/);
  await el.locator('select[name="chip"]').selectOption('h200');
  await el.locator('select[name="memory"]').selectOption('hbm');
  await waitOutput(page, host, 'critical_intensity', '206 FLOP/B');

  // In fp8 the best, [16384, 8192] x [8192, 8192], runs 1.10e12 FLOPs in 776 µs: 1.42 PFLOP/s,
  // 72% of 1.98.
  await el.locator('select[name="dtype"]').selectOption('fp8');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-measured-summary]')?.textContent.includes('fp8'), host);
  assert.match(await summary(), /reaches 1\.42 PFLOP\/s, 72% of the datasheet's 1\.98 PFLOP\/s/);
  assert.equal(await dots.count(), count('fp8'));
  // int8 was not measured: the roof alone.
  await el.locator('select[name="dtype"]').selectOption('int8');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-measured-summary]')?.textContent.startsWith('No H200'), host);
  assert.equal(await dots.count(), 0);
  // The catalog gives the H200 no fp32 peak: said beside the chip.
  await el.locator('select[name="dtype"]').selectOption('fp32');
  const message = el.locator('[data-error-for="chip"]');
  await message.waitFor({ state: 'visible' });
  assert.equal(await text(message), 'h200 has no dense fp32 peak in the catalog; give peak_flops_fp32');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the chip explorer sets the H100 beside a TPU and zooms both from the keyboard', async () => {
  const { page, errors } = await site.open(PAGE);
  const host = 'sb-gpu-chip';
  const el = page.locator(host);
  await el.scrollIntoViewIfNeeded();
  const card = (side) => el.locator(`.chip-card[data-side="${side}"]`);
  assert.equal(await text(card('gpu').locator('h5')), 'NVIDIA H100 SXM');
  assert.equal(await text(card('other').locator('h5')), 'TPU v5p');
  // 132 SMs x 128 fp32 lanes = 16,896 CUDA cores; a v5p's 2 cores x 8 x 128 slots x 4 ALUs = 8,192.
  const row = async (side, label) => {
    const dts = await card(side).locator('dt').allTextContents();
    return (await card(side).locator('dd').allTextContents())[dts.indexOf(label)];
  };
  assert.equal(await row('gpu', 'CUDA cores (fp32 lanes)'), '16,896 ALUs');
  assert.equal(await row('other', 'VPU ALUs'), '8,192 ALUs');
  assert.equal(await el.locator('details[data-level][open]').count(), 0);
  // Zoom both to one unit: each chip opens its core and its unit.
  const unit = el.locator('button[data-depth="3"]');
  await unit.focus();
  await page.keyboard.press('Enter');
  assert.equal(await unit.getAttribute('aria-pressed'), 'true');
  assert.equal(await el.locator('details[data-level][open]').count(), 4);
  // 989e12 / (528 Tensor Cores x 1.76e9 Hz) = 1,064 bf16 FLOPs a cycle, to three digits.
  assert.match(await text(card('gpu').locator('details[data-level="3"]')), /Tensor Core ?1060 FLOP\/cycle/);
  await el.locator('select[data-compare]').selectOption('tpu-v5e');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('.chip-card[data-side="other"] h5')?.textContent === 'TPU v5e', host);
  // The zoom holds through the redraw, and the select keeps the focus.
  assert.equal(await el.locator('details[data-level][open]').count(), 4);
  assert.equal(await page.evaluate((h) => document.querySelector(h).shadowRoot.activeElement?.matches('select[data-compare]'), host), true);
  await page.setViewportSize({ width: 390, height: 844 });
  await el.screenshot({ path: path.join(SHOTS, 'gpus-chip-phone.png') });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the planner marks data parallelism comms-bound at a thousand tokens a GPU and compute-bound at four thousand', async () => {
  const { page, errors } = await site.open(PAGE);
  const host = 'sb-gpu-planner';
  const el = page.locator(host);
  await el.scrollIntoViewIfNeeded();
  const verdict = (s) => text(el.locator(`.strategy[data-strategy="${s}"] .verdict`));
  // 4e6 tokens over 4,096 H100s: 977 a GPU, under the 989e12 / 400e9 = 2,472 DP needs across
  // nodes; 8-way TP in a node is compute-bound below F W_gpu / C = 28,672 x 450e9 / 989e12 = 13.
  assert.equal(await output(el, 'tokens_per_gpu'), '977 tokens');
  assert.equal(await verdict('DP'), 'comms-bound');
  assert.equal(await verdict('TP'), 'compute-bound');
  assert.equal(await verdict('PP'), 'not used');
  await el.locator('input[name="B"]').fill('16e6');
  await waitOutput(page, host, 'tokens_per_gpu', '3910 tokens');
  assert.equal(await verdict('DP'), 'compute-bound');
  await el.locator('input[name="tp"]').fill('16');
  const message = el.locator('[data-error-for="tp"]');
  await message.waitFor({ state: 'visible' });
  assert.equal(await text(message), "tp = 16 is wider than the h100's NVLink domain of 8 GPUs; keep tp within a node, or set tp_span = nodes to cross nodes");
  assert.deepEqual(errors, []);
  await page.close();
});

test('the chapter quotes the SuperPod from the engine: 560 switches, 413 GB/s at the leaf', async () => {
  const { page, errors } = await site.open(PAGE, undefined, { reached: false });
  // The text a reader sees: each value without its source's tooltip.
  const prose = await page.locator('main').evaluate((m) => {
    const copy = m.cloneNode(true);
    for (const tip of copy.querySelectorAll('.sb-source')) tip.remove();
    return [...copy.querySelectorAll('p, li')].map((p) => p.textContent.replace(/\s+/g, ' ')).join('\n');
  });
  assert.match(prose, /that is 560 switches for 1,?024 GPUs/);
  assert.match(prose, /the node level gives 514 GB\/s, the leaf level 413 GB\/s and the spine 17\.1 TB\/s, so the leaf binds, at 413 GB\/s/);
  assert.deepEqual(errors, []);
  await page.close();
});
