// A first visit fetches what the page shows and no more: compressed, the engine asked for from
// the page's head on pages with calculators, and KaTeX's browser chunk only once a reader edits
// a formula the build typeset.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

// Every response of a first visit until the network is idle.
async function visit(url) {
  const { page, errors } = await site.open(url);
  const seen = [];
  page.on('response', (r) => seen.push(r));
  await page.waitForLoadState('networkidle');
  const first = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  return { page, errors, seen, first };
}

test('chapter 3 shows its typeset formulas without fetching KaTeX, and fetches it once a planner field is edited', async () => {
  const { page, errors, first } = await visit('03-sharding.html');
  // The bundle's statically imported chunks, the code of the page's elements and its engine
  // module's glue are preloaded from the head; no other script may come.
  const preloaded = await page.locator('link[rel="modulepreload"]').evaluateAll((links) => links.map((l) => l.href));
  assert.ok(preloaded.some((href) => /\/assets\/sb-sharded-matmul-\w+\.js$/.test(href)), 'the planner element preloaded');
  const scripts = first.filter((name) => name.endsWith('.js') && !/\/assets\/(scalebook|file-notice)\.js$/.test(name));
  assert.deepEqual(scripts.filter((name) => !preloaded.includes(name)), []);
  // Chapter 3 has no training, transformer or roofline element: none of their code comes.
  assert.deepEqual(scripts.filter((name) => /\/assets\/sb-(training|transformer|roofline|pipeline)/.test(name)), []);
  const planner = page.locator('sb-sharded-matmul').first();
  await planner.locator('.plan-body math').first().waitFor({ state: 'attached' });
  const mathBefore = await planner.locator('.plan-body math').count();
  assert.ok(mathBefore > 0);

  await planner.locator('input[name="I"]').fill('8192');
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/assets\/mathml-/.test(e.name)));
  await page.waitForFunction(() => {
    const host = document.querySelector('sb-sharded-matmul');
    return host.shadowRoot.querySelectorAll('.plan-body math').length > 0 &&
      host.shadowRoot.querySelector('.plan-body').textContent.includes('8192');
  }, null, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chapter asks for the engine from its head, before its HTML has parsed, and fetches it once', async () => {
  const { page, errors, seen } = await visit('03-sharding.html');
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const wasm = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm'));
    return { parsed: nav.domInteractive, wasm: wasm.map((e) => e.startTime) };
  });
  assert.equal(timing.wasm.length, 1);
  assert.ok(timing.wasm[0] < timing.parsed, `the .wasm was asked for at ${timing.wasm[0]} ms, the HTML parsed at ${timing.parsed} ms`);
  assert.equal(seen.filter((r) => r.url().endsWith('.wasm')).length, 0, 'no second fetch after the page loaded');
  await page.locator('sb-sharded-matmul').first().locator('[data-body]').waitFor({ state: 'attached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the index preloads no engine and loads no math stylesheet', async () => {
  const { page, first } = await visit('index.html');
  assert.equal(await page.locator('link[rel="preload"][href$=".wasm"]').count(), 0);
  assert.deepEqual(first.filter((name) => /\.wasm$|katex/.test(name)), []);
  await page.close();
});

test('pages, scripts and the engine arrive brotli-compressed', async () => {
  const page = await site.browser.newPage();
  const encodings = new Map();
  page.on('response', (r) => encodings.set(new URL(r.url()).pathname, r.headers()['content-encoding']));
  await page.goto(`${site.base}/01-roofline.html`);
  await page.waitForLoadState('networkidle');
  for (const file of ['/01-roofline.html', '/assets/scalebook.js', '/assets/scalebook-engine-roofline.wasm', '/assets/site.css']) {
    assert.equal(encodings.get(file), 'br', file);
  }
  await page.close();
});
