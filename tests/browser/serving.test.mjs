// <sb-serving> as a reader uses it, from the keyboard: the run draws once the engine comes,
// arrow keys on the pictures step through time, another batching mode redraws its
// percentiles, and a bad field shows the engine's message beside it; no CSP complaint.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { SHOTS, startScratch } from './harness.mjs';

const PAGE = '# Serving\n\n<sb-serving requests="300"></sb-serving>\n';
const HOST = 'sb-serving';

let site;
before(async () => { site = await startScratch('07-inference', PAGE); });
after(async () => { await site?.stop(); });

const shadow = (page, fn, arg) => page.waitForFunction(
  ([h, body, a]) => new Function('root', 'arg', body)(document.querySelector(h).shadowRoot, a), [HOST, fn, arg]);

test('the serving run plays from the keyboard, switches batching and refuses a bad rate', async () => {
  const { page, errors } = await site.open('07-inference.html');
  const el = page.locator(HOST);
  await el.scrollIntoViewIfNeeded();
  await shadow(page, "const b = root?.querySelector('[data-action=\"step\"]'); return b && !b.disabled;");
  const stat = (key) => el.locator(`[data-stat="${key}"]`).textContent();
  const start = await stat('time');
  assert.match(start, /^0 s of /);
  await el.locator('[data-picture]').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await stat('time'), start);
  assert.match(await el.locator('[data-action="scrub"]').getAttribute('aria-valuetext'), /waiting, .* slots busy$/);
  await page.keyboard.press('Home');
  assert.equal(await stat('time'), start);
  const ttft = () => el.locator('table.percentiles tbody tr').first().textContent();
  const continuous = await ttft();
  await el.locator('select[name="mode"]').selectOption('static');
  await shadow(page, "return root.querySelector('table.percentiles tbody tr').textContent !== arg;", continuous);
  await el.locator('input[name="rate"]').fill('0');
  await shadow(page, "return root.querySelector('[data-error-for=\"rate\"]').textContent !== '';");
  assert.match(await el.locator('[data-error-for="rate"]').textContent(), /rate must be a positive number of requests\/s, got 0/);
  assert.equal(await el.locator('polyline.series').count(), 3);
  await el.screenshot({ path: path.join(SHOTS, 'serving.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
