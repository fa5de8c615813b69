// Chapter 5's pipeline schedule as a reader plays it: the build's grid reads before any script,
// stepping moves the time line, another schedule redraws with the engine's bubble, and a bad
// field shows the engine's message beside it while the last grid stays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, SHOTS } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

const HOST = 'sb-pipeline';
const stat = (page, key) => page.locator(`${HOST} [data-stat="${key}"]`).textContent();

test('the pipeline grid steps, switches schedule and refuses a bad field beside it', async () => {
  const { page, errors } = await site.open('05-training.html');
  const el = page.locator(HOST);
  await el.scrollIntoViewIfNeeded();
  // The build drew every box: 4 stages x 8 microbatches x (F, B).
  assert.equal(await el.locator('[data-item]').count(), 64);
  await page.waitForFunction((h) => !document.querySelector(h).shadowRoot.querySelector('[data-action="step"]').disabled, HOST);
  assert.equal(await stat(page, 'time'), '0 of 33');
  for (let i = 0; i < 3; i++) await el.locator('[data-action="step"]').click();
  assert.equal(await stat(page, 'time'), '3 of 33');
  assert.ok(await el.locator('[data-item].done').count() > 0);
  assert.ok(await el.locator('[data-item].todo').count() > 0);
  await el.locator('select[name="schedule"]').selectOption('gpipe');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-stat="peak"]').textContent === '8', HOST);
  assert.equal(await stat(page, 'bubble'), '27.3%');
  assert.equal(await stat(page, 'closed'), '27.3%');
  await el.locator('input[name="stages"]').fill('0');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-error-for="stages"]').textContent !== '', HOST);
  assert.match(await el.locator('[data-error-for="stages"]').textContent(), /stages/);
  assert.equal(await el.locator('[data-item]').count(), 64);
  await el.screenshot({ path: path.join(SHOTS, 'pipeline.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run too big to draw is refused before the engine simulates it, with the message beside the field', async () => {
  const { page, errors } = await site.open('05-training.html');
  const el = page.locator(HOST);
  await el.scrollIntoViewIfNeeded();
  await page.waitForFunction((h) => !document.querySelector(h).shadowRoot.querySelector('[data-action="step"]').disabled, HOST);
  // 100,000 microbatches on 4 stages are 800,000 items: simulated and handed over, they held
  // the page for 1.5 s; the page's budget (max_items) refuses them at once.
  await el.locator('input[name="microbatches"]').fill('100000');
  const message = (h) => document.querySelector(h).shadowRoot.querySelector('[data-error-for="microbatches"]').textContent;
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-error-for="microbatches"]').textContent !== '', HOST);
  assert.equal(await page.evaluate(message, HOST),
    'microbatches is too many for the simulator: stages = 4, microbatches = 100000, virtual_stages = 1 make 800000 work items, over its budget of 6000, what this page draws; scalebook simulate pipeline takes more');
  assert.equal(await el.locator('[data-item]').count(), 64);  // the last good grid stays
  assert.deepEqual(errors, []);
  await page.close();
});
