// <sb-gpu-collective-sim> as a reader meets it: 16 H100s in two nodes under a leaf switch, one
// step played (its packets cross both the NVSwitches and the leaf), the last step's clock and
// the check equal the collective calculator's time for the same GPUs (asked of the engine here),
// each step said aloud, a bad GPU count named beside its field; axe clean light and dark, on a
// phone with nothing wider than the screen, and no style attribute anywhere (strict CSP). On the
// same page: chapter 3's bandwidth sweep on 8 H100s with a per-step latency (bus bandwidth rising
// with the message size) and the GPU against TPU overlay, each point the calculator's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { SHOTS, startScratch } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { formatValue, useEngine } from '../../web/runtime/core/format.js';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const HOST = 'sb-gpu-collective-sim';

let site;
let engine;
before(async () => {
  engine = await loadEngine();
  useEngine(engine);
  site = await startScratch('gpu-collective', '# Switched collectives\n\n::gpu-collective-sim gpus=16 latency=1e-6\n\n' +
    '::plot collective-sweep op=all-reduce chip=h100 axis_size=8 latency=5e-5\n\n::plot collective-scaling\n');
});
after(async () => { await site?.stop(); });

const stat = (page, key) => page.evaluate(([h, k]) =>
  document.querySelector(h).shadowRoot.querySelector(`[data-stat="${k}"]`).textContent.trim(), [HOST, key]);
const live = async (page) => {
  await page.waitForFunction((h) => document.querySelector(h).simulation !== null, HOST);
};

test('a step of 16 H100s moves packets through both switches, and the total is the collective calculator\'s time', async () => {
  const { page, errors } = await site.open('gpu-collective.html');
  await live(page);
  const el = page.locator(HOST);
  // 7 ring sends in a node and 1 across the two: 8 steps.
  const calculator = engine.calculate('collective', { op: 'all-gather', chip: 'h100', axis_size: 16, latency: 1e-6 }).time;
  const total = formatValue(calculator, 's');
  assert.equal(await stat(page, 'step'), '0 of 8');
  assert.equal(await stat(page, 'check'), `simulation total ${total} = the collective calculator's ${total}`);
  const levels = await el.locator('svg.gpu-coll g.move').evaluateAll((gs) => [...new Set(gs.map((g) => g.getAttribute('class')))]);
  assert.deepEqual(levels.sort(), ['move level-0', 'move level-1']);

  await el.locator('button[data-action="step"]').click();
  assert.equal(await stat(page, 'step'), '1 of 8');
  const sim = await page.evaluate((h) => document.querySelector(h).simulation, HOST);
  assert.equal(await stat(page, 'clock'), `${formatValue(sim.steps[0].duration, 's')} of ${total}`);
  assert.equal(await stat(page, 'binding'), 'the node level');
  const said = page.locator(`${HOST} [data-announce]`);
  assert.match(await said.textContent(), /^Step 2 of 8: all-gather, .* set by the node level\. node: .* a GPU in .*; leaf: .* a GPU in .*\.$/);

  // End: the clock has run the whole collective, which is the calculator's time.
  await el.locator('[data-picture]').focus();
  await page.keyboard.press('End');
  assert.equal(await stat(page, 'step'), '8 of 8');
  assert.equal(await stat(page, 'clock'), `${total} of ${total}`);
  assert.equal(await said.textContent(), `Done after 8 steps: ${total}.`);
  assert.ok(Math.abs(sim.time - calculator) <= 1e-12 * calculator);
  await page.keyboard.press('Home');
  assert.equal(await stat(page, 'step'), '0 of 8');

  // Play runs on by itself; Pause stops it.
  await el.locator('button[data-action="play"]').click();
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-stat="step"]').textContent !== '0 of 8', HOST);
  await el.locator('button[data-action="play"]').click();
  assert.equal(await el.locator('button[data-action="play"]').getAttribute('aria-pressed'), 'false');

  // In-network AllReduce: one step per level, through the switches.
  await el.locator('select[name="op"]').selectOption('all-reduce');
  await el.locator('select[name="algorithm"]').selectOption('in-network');
  await page.waitForFunction((h) => document.querySelector(h).simulation?.algorithm === 'in-network', HOST);
  assert.equal(await stat(page, 'step'), '0 of 2');
  assert.ok(await el.locator('svg.gpu-coll g.move.in-network').count() > 0);

  await el.locator('input[name="gpus"]').fill('12');
  const message = el.locator('[data-error-for="gpus"]');
  await message.waitFor({ state: 'visible' });
  assert.equal((await message.textContent()).trim(), 'gpus must be at most 8 (one h100 node) or a multiple of 8, got 12');
  await el.screenshot({ path: path.join(SHOTS, 'gpu-collective-sim.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the bandwidth sweep on 8 H100s takes the latency, the cluster and in-network reduction', async () => {
  const { page, errors } = await site.open('gpu-collective.html');
  const el = page.locator('sb-collective-sweep');
  await page.waitForFunction(() => document.querySelector('sb-collective-sweep').sweep !== null);
  const names = await el.locator('form [name]').evaluateAll((fs) => fs.map((f) => f.name));
  assert.deepEqual(names, ['op', 'chip', 'shape', 'latency', 'cluster', 'in_network']);
  // With 50 us a step, 58 MB is far from the 450 GB/s NVLink peak; 10 GB is at it.
  const request = { op: 'all-reduce', chip: 'h100', axis_size: '8', latency: '5e-5' };
  const at = (bytes) => engine.calculate('collective', { ...request, bytes }).achieved_bandwidth;
  const sweep = await page.evaluate(() => document.querySelector('sb-collective-sweep').sweep);
  assert.equal(sweep.peak, 450e9);
  for (const [bytes, bandwidth] of sweep.points) assert.equal(bandwidth, at(bytes));
  assert.ok(at(58e6) < 0.4 * 450e9 && at(1e10) === 450e9);
  const readout = el.locator('[data-readout]');
  assert.match(await readout.textContent(), /Latency-bound below .*, bandwidth-bound above\. At 10 GB each chip sends 450 GB\/s/);
  await el.locator('input[name="latency"]').fill('0');
  await page.waitForFunction(() => document.querySelector('sb-collective-sweep').sweep.crossover === null);
  assert.match(await readout.textContent(), /no per-hop latency/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the overlay draws H100s on a SuperPod against TPU v5p slices, every point the calculator\'s', async () => {
  const { page, errors } = await site.open('gpu-collective.html');
  const el = page.locator('sb-collective-scaling');
  await page.waitForFunction(() => document.querySelector('sb-collective-scaling').scaling !== null);
  const run = await page.evaluate(() => document.querySelector('sb-collective-scaling').scaling);
  // 2 to 1,024 GPUs, 2 to 4,096 TPU chips, doubling.
  assert.deepEqual(run.gpu.map(([n]) => n), [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
  assert.equal(run.tpu.at(-1)[0], 4096);
  for (const [n, bandwidth] of run.gpu) {
    assert.equal(bandwidth, engine.calculate('collective', { op: 'all-gather', chip: 'h100', cluster: 'dgx-h100-superpod', axis_size: n, bytes: 1e9 }).achieved_bandwidth);
  }
  for (const [, bandwidth, axes] of run.tpu) {
    assert.equal(bandwidth, engine.calculate('collective', { op: 'all-gather', chip: 'tpu-v5p', axes, bytes: 1e9 }).achieved_bandwidth);
  }
  assert.equal(await el.locator('circle.dot.gpu').count(), 10);
  await el.locator('select[name="tpu"]').selectOption('tpu-v5e');
  await page.waitForFunction(() => document.querySelector('sb-collective-scaling').scaling.tpuName.includes('v5e'));
  await el.locator('input[name="bytes"]').fill('-1');
  const message = el.locator('[data-error-for="bytes"]');
  await message.waitFor({ state: 'visible' });
  assert.equal((await message.textContent()).trim(), 'bytes must be > 0, got -1');
  await el.screenshot({ path: path.join(SHOTS, 'collective-scaling.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [scheme, viewport] of [['light', { width: 1280, height: 800 }], ['dark', { width: 390, height: 844 }]]) {
  test(`axe finds nothing, no style attribute, and nothing wider than the page: ${scheme}, ${viewport.width} px`, async () => {
    const page = await site.browser.newPage({ viewport, colorScheme: scheme });
    await page.goto(`${site.base}/gpu-collective.html`);
    await page.waitForLoadState('networkidle');
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => (await window.axe.run(document)).violations.map((v) => v.id));
    assert.deepEqual(violations, []);
    // The build's markup has no style attribute (sizes reach the page through the CSSOM).
    const html = await (await fetch(`${site.base}/gpu-collective.html`)).text();
    assert.ok(html.includes('<sb-gpu-collective-sim') && !/\sstyle=/.test(html));
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(scroll <= client, `page is ${scroll} px wide in a ${client} px viewport`);
    if (viewport.width < 500) await page.locator(HOST).screenshot({ path: path.join(SHOTS, `gpu-collective-sim-${scheme}-phone.png`) });
    await page.close();
  });
}
