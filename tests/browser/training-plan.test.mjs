// Chapter 6's sharding walkthrough as a reader uses it: the build's verdicts read before any
// script, fewer chips turn FSDP alone compute-bound and change the mesh, and a bad chip count
// shows the engine's message beside its field. Screenshots at two widths in both schemes.
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
