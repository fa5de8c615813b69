// Chapter 6's sharding walkthrough as a reader uses it: the build's verdicts read before any
// script, fewer chips turn FSDP alone compute-bound and change the mesh, and a bad chip count
// shows the engine's message beside its field. Chapter 5's multi-pod planner (the same element):
// a bigger or smaller batch moves the recommended pods, their mesh and the plot's mark, and a
// point reads as its numbers. Screenshots at two widths in both schemes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, SHOTS } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

const HOST = 'sb-training-plan#plan';
const out = (el, key) => el.locator(`[data-output="${key}"]`).textContent();
const settled = (page, key, want) => page.waitForFunction(([h, k, w]) =>
  document.querySelector(h).shadowRoot.querySelector(`[data-output="${k}"]`).textContent.includes(w), [HOST, key, want]);

test('changing the chips changes the verdicts; a bad value shows an error beside the field', async () => {
  const { page, errors } = await site.open('06-applied-training.html');
  const el = page.locator(HOST);
  await el.scrollIntoViewIfNeeded();
  // The verdicts are among the other results, a section the reader opens.
  await el.locator('details[data-fold="outputs"] > summary').click();
  await el.locator('[data-output="whole_sequences"]').waitFor({ state: 'attached' });
  assert.match(await out(el, 'whole_sequences'), /no/);
  assert.match(await out(el, 'fsdp_ok'), /no/);
  assert.match(await out(el, 'mixed_ok'), /yes/);
  assert.match(await out(el, 'mesh'), /2048-way FSDP \(1024 data x 2 sequence\) x 4-way TP on 8192 of 8960 chips/);
  await el.locator('input[name="chips"]').fill('1024');
  await settled(page, 'whole_sequences', 'yes');
  assert.match(await out(el, 'fsdp_ok'), /yes/);
  assert.match(await out(el, 'mesh'), /1024-way FSDP \(1024 data x 1 sequence\) on 1024 chips/);
  await el.locator('input[name="chips"]').fill('0');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-error-for="chips"]').textContent !== '', HOST);
  assert.match(await el.locator('[data-error-for="chips"]').textContent(), /chips must be >= 1, got 0/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the second half of chapter 6 at 1280 and 390 px, light and dark', async () => {
  for (const scheme of ['light', 'dark']) {
    for (const width of [1280, 390]) {
      const page = await site.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
      await page.goto(`${site.base}/06-applied-training.html`);
      const el = page.locator(HOST);
      await el.scrollIntoViewIfNeeded();
      await el.screenshot({ path: path.join(SHOTS, `training-plan-${width}-${scheme}.png`) });
      const search = page.locator('sb-training-search').first();
      await search.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `training-search-06-${width}-${scheme}.png`) });
      await page.close();
    }
  }
});

const PODS = 'sb-training-plan#pods';
const podsSettled = (page, key, want) => page.waitForFunction(([h, k, w]) =>
  document.querySelector(h).shadowRoot.querySelector(`[data-output="${k}"]`).textContent === w, [PODS, key, want]);
const plotted = (el) => el.locator('.pods-plot circle.pt').evaluateAll((cs) => cs.map((c) => Number(c.dataset.pods)));

test('chapter 5\'s planner: 2M tokens take two pods; 4M take four and 1M one, and the plot follows', async () => {
  const { page, errors } = await site.open('05-training.html');
  const el = page.locator(PODS);
  await el.scrollIntoViewIfNeeded();
  // The other results, the plot and the table by pods are sections the reader opens; opened,
  // they follow each new batch.
  for (const fold of ['outputs', 'pods-plot', 'by_pods']) await el.locator(`details[data-fold="${fold}"] > summary`).click();
  await el.locator('table[data-table="by_pods"] tbody tr').first().waitFor({ state: 'attached' });
  await el.locator('.pods-plot circle.pt').first().waitFor({ state: 'attached' });
  // 2,097,152 / (8960 x 2550^2 / (2 x 30000)) = 2,097,152 / 971,040 = 2.16 pods.
  assert.equal(await out(el, 'pods_at_mixed'), '2.16 pods');
  assert.equal(await out(el, 'pods_recommended'), '2 pods');
  assert.match(await out(el, 'pods_mesh'), /^2-way DP over DCN x 1024-way FSDP \(256 data x 4 sequence\) x 8-way TP on 16384 of 17920 chips$/);
  assert.equal(await el.locator('.pods-plot .recommended').getAttribute('data-pods'), '2');
  assert.deepEqual(await plotted(el), [1, 2, 4, 8]);
  assert.equal(await el.locator('.pods-plot circle.chosen').getAttribute('data-pods'), '2');
  assert.equal(await el.locator('.pods-plot .threshold').count(), 3);
  assert.equal(await el.locator('table[data-table="by_pods"] tbody tr').count(), 4);
  // Twice the batch: 4,194,304 / 971,040 = 4.32, four pods of 1,048,576 tokens each, the same
  // 1024 x 8 in each; the table runs to 16.
  await el.locator('input[name="B"]').fill('4194304');
  await podsSettled(page, 'pods_recommended', '4 pods');
  assert.equal(await out(el, 'pods_at_mixed'), '4.32 pods');
  assert.match(await out(el, 'pods_mesh'), /^4-way DP over DCN x 1024-way FSDP \(256 data x 4 sequence\) x 8-way TP on 32768 of 35840 chips$/);
  assert.equal(await el.locator('.pods-plot .recommended').getAttribute('data-pods'), '4');
  assert.deepEqual(await plotted(el), [1, 2, 4, 8, 16]);
  // Half the batch: 1.08 pods, so one; 1,048,576 tokens over 8960 chips is 117 each.
  await el.locator('input[name="B"]').fill('1048576');
  await podsSettled(page, 'pods_recommended', '1 pods');
  assert.equal(await el.locator('.pods-plot .recommended').getAttribute('data-pods'), '1');
  assert.deepEqual(await plotted(el), [1, 2, 4]);
  // A point takes the focus and reads as its row.
  const chosen = el.locator('.pods-plot circle.chosen');
  await chosen.focus();
  assert.equal(await chosen.evaluate((c) => c.getRootNode().activeElement === c), true);
  assert.equal(await chosen.getAttribute('aria-label'),
    '1 pods: 117 tokens per chip, 1.05e6 tokens per pod, compute with FSDP+TP, 1024 × 8 in each pod, the recommended count');
  assert.equal(await chosen.locator('title').textContent(), await chosen.getAttribute('aria-label'));
  // A batch that is not whole sequences: the message beside B, the last plot stays.
  await el.locator('input[name="B"]').fill('1000');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-error-for="B"]').textContent !== '', PODS);
  assert.equal(await el.locator('[data-error-for="B"]').textContent(), 'B = 1000 tokens must be whole sequences of T = 4096 tokens');
  assert.deepEqual(await plotted(el), [1, 2, 4]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('chapter 5\'s planner at 1280 and 390 px, light and dark', async () => {
  for (const scheme of ['light', 'dark']) {
    for (const width of [1280, 390]) {
      const page = await site.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
      await page.goto(`${site.base}/05-training.html`);
      const el = page.locator(PODS);
      await el.scrollIntoViewIfNeeded();
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
      await el.locator('.plan-extras').screenshot({ path: path.join(SHOTS, `training-pods-${width}-${scheme}.png`) });
      await el.screenshot({ path: path.join(SHOTS, `training-pods-whole-${width}-${scheme}.png`) });
      await page.close();
    }
  }
});

test('the three questions are taken one step at a time, and a redraw keeps the step', async () => {
  const { page, errors } = await site.open('06-applied-training.html');
  const el = page.locator('sb-training-plan#plan');
  await el.scrollIntoViewIfNeeded();
  const shown = () => el.locator('.walkthrough > li.step:visible');
  assert.equal(await shown().count(), 1);
  assert.match(await shown().locator('h5').textContent(), /^Step 1 of 4: Does pure FSDP suffice\?$/);
  // 4,194,304 tokens over 8960 chips: 468 a chip, short of FSDP's 850.
  assert.equal(await shown().locator('[data-verdict]').getAttribute('data-verdict'), 'no');
  await shown().locator('button').click();
  assert.match(await shown().locator('h5').textContent(), /^Step 2 of 4: /);
  assert.equal(await page.evaluate(() => document.querySelector('sb-training-plan#plan').shadowRoot.activeElement?.textContent),
    'Step 2 of 4: Can each chip take whole sequences?');
  await shown().locator('button', { hasText: '→' }).click();
  await shown().locator('button', { hasText: '→' }).click();
  assert.match(await shown().locator('h5').textContent(), /^Step 4 of 4: The mesh$/);
  assert.equal(await shown().locator('[data-mesh]').textContent(), await el.locator('[data-output="mesh"]').textContent());
  // A bigger batch redraws the numbers and stays on the mesh step.
  await el.locator('input[name="B"]').fill('16777216');
  await page.waitForFunction(() => !/2048-way FSDP/.test(document.querySelector('sb-training-plan#plan').shadowRoot.querySelector('[data-mesh]').textContent));
  assert.match(await shown().locator('h5').textContent(), /^Step 4 of 4: The mesh$/);
  assert.equal(await shown().locator('[data-mesh]').textContent(), await el.locator('[data-output="mesh"]').textContent());
  assert.deepEqual(errors, []);
  await page.close();
});
