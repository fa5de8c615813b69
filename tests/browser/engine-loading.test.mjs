// The engine ships as its own .wasm: a page with a calculator fetches it once (served as
// application/wasm, so the browser compiles it while it streams); a page without one, like
// the index, never downloads it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

// The page's .wasm responses, recorded from its first request on.
async function wasmResponses(url) {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  const seen = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => { if (r.url().endsWith('.wasm')) seen.push(r); });
  await page.goto(`${site.base}/${url}`);
  await page.waitForLoadState('networkidle');
  return { page, errors, seen };
}

test('the index page never downloads the engine', async () => {
  const { page, errors, seen } = await wasmResponses('index.html');
  assert.equal(await page.locator('ol.sections > li').count(), 13);
  assert.deepEqual(seen.map((r) => r.url()), []);
  assert.ok(!(await page.content()).includes('data:application/octet-stream;base64'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chapter fetches the engine once, as application/wasm, and its calculators go live', async () => {
  const { page, errors, seen } = await wasmResponses('01-roofline.html');
  assert.equal(seen.length, 1);
  assert.match(seen[0].url(), /\/assets\/scalebook-engine\.wasm$/);
  assert.equal(seen[0].status(), 200);
  assert.equal(seen[0].headers()['content-type'], 'application/wasm');
  const host = page.locator('sb-roofline#roof');
  const before = await host.locator('[data-output="t_compute"]').textContent();
  await host.locator('select[name="chip"]').selectOption('h100');
  await assert.doesNotReject(page.waitForFunction(
    (old) => document.querySelector('sb-roofline#roof').shadowRoot.querySelector('[data-output="t_compute"]').textContent !== old,
    before, { timeout: 10000 }));
  assert.deepEqual(errors, []);
  await page.close();
});
