// The engine ships as its own .wasm: a page with a calculator fetches it once (served as
// application/wasm, so the browser compiles it while it streams), the smallest module that
// holds its elements' domains; a page without one, like the index, never downloads it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, reach } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

// The page's .wasm responses, recorded from its first request on. `engine`: the page is
// expected to fetch one once reached, so that fetch is awaited: the page may be network-idle
// before the reader's pointer wakes the engine, and networkidle alone would not wait for it.
async function wasmResponses(url, { engine = true } = {}) {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  const seen = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => { if (r.url().endsWith('.wasm')) seen.push(r); });
  await page.goto(`${site.base}/${url}`);
  const fetched = engine ? page.waitForResponse((r) => r.url().endsWith('.wasm'), { timeout: 15000 }) : null;
  await reach(page); // a reader gets to the first element: the engine comes then
  await fetched;
  await page.waitForLoadState('networkidle');
  return { page, errors, seen };
}

test('the index page never downloads the engine', async () => {
  const { page, errors, seen } = await wasmResponses('index.html', { engine: false });
  assert.equal(await page.locator('ol.sections > li').count(), 13);
  assert.deepEqual(seen.map((r) => r.url()), []);
  assert.ok(!(await page.content()).includes('data:application/octet-stream;base64'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chapter fetches its engine module once, as application/wasm, and its calculators go live', async () => {
  const { page, errors, seen } = await wasmResponses('01-roofline.html');
  assert.equal(seen.length, 1);
  // Chapter 1 uses the roofline and hardware domains only: the module without training,
  // transformer, sharding, collectives and systolic code.
  assert.match(seen[0].url(), /\/assets\/scalebook-engine-roofline\.wasm$/);
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

test('each chapter fetches only the module its elements need; chapter 6 and the search worker share one', async () => {
  const expected = {
    '02-tpus.html': 'scalebook-engine-systolic',
    '03-sharding.html': 'scalebook-engine-sharding',
    '04-transformers.html': 'scalebook-engine-transformer',
    '05-training.html': 'scalebook-engine-training-sharding',
    '06-applied-training.html': 'scalebook-engine-training',
    '07-inference.html': 'scalebook-engine-inference',
    '08-applied-inference.html': 'scalebook-engine-inference',
    '12-gpus.html': 'scalebook-engine-gpus',
  };
  for (const [url, module] of Object.entries(expected)) {
    const { page, errors, seen } = await wasmResponses(url);
    // Chapter 6's search workers ask for the same file, which the HTTP cache serves.
    assert.deepEqual([...new Set(seen.map((r) => new URL(r.url()).pathname))], [`/assets/${module}.wasm`], url);
    assert.deepEqual(errors, [], url);
    await page.close();
  }
});

test("a chapter's module holds no grader: reaching for an exercise fetches the chapter's grader once, and it grades", async () => {
  const { page, errors, seen } = await wasmResponses('07-inference.html');
  assert.deepEqual(seen.map((r) => new URL(r.url()).pathname), ['/assets/scalebook-engine-inference.wasm']);
  assert.equal(await page.locator('meta[name="scalebook-grader"]').getAttribute('content'), 'scalebook-grader-inference');
  const ex = page.locator('sb-exercise#inference-we-bcrit-bf16');
  await ex.locator('[data-variant-bar]').waitFor({ state: 'visible' });
  // Scrolling past, or a pointer crossing it, fetches nothing more.
  await ex.scrollIntoViewIfNeeded();
  await ex.dispatchEvent('pointerover');
  await page.waitForTimeout(300);
  assert.equal(seen.length, 1);
  const grader = page.waitForResponse((r) => r.url().endsWith('/assets/scalebook-grader-inference.wasm'));
  await ex.locator('[data-answer]').first().focus();
  await grader;
  await ex.locator('[data-answer]').first().fill('240');
  await ex.locator('[data-check]').first().click();
  const feedback = ex.locator('[data-feedback]').first();
  await page.waitForFunction((el) => el.dataset.result, await feedback.elementHandle());
  assert.equal(await feedback.getAttribute('data-result'), 'correct');
  await ex.locator('[data-answer]').first().fill('100');
  await ex.locator('[data-check]').first().click();
  await page.waitForFunction((el) => el.dataset.result === 'incorrect', await feedback.elementHandle());
  assert.equal(seen.filter((r) => r.url().endsWith('/assets/scalebook-grader-inference.wasm')).length, 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test("chapter 6's search worker runs the page's own module", async () => {
  const { page, errors, seen } = await wasmResponses('06-applied-training.html');
  const el = page.locator('sb-training-search').first();
  // The count is among the other results, a section the reader opens.
  await el.locator('details[data-fold="outputs"] > summary').click();
  await el.locator('input[name="chips"]').fill('2048');
  await el.locator('input[name="chips"]').dispatchEvent('change');
  // What the page's first search (chapter 6's LLaMA 3 70B) counts on 2048 chips, as shown.
  const engine = await loadEngine();
  const inputs = { model: 'llama-3-70b', chip: 'tpu-v5p', chips: '2048', B: '4194304', T: '4096' };
  const count = engine.calculate('training-search', inputs, { steps: false }).evaluated;
  const shown = engine.format(count, 'configurations', 'si');
  await page.waitForFunction((text) => document.querySelector('sb-training-search').shadowRoot
    .querySelector('[data-output="evaluated"]')?.textContent.trim() === text, shown);
  assert.ok(page.workers().length >= 1, 'the search ran in a worker');
  const worker = page.workers()[0];
  assert.equal(await worker.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
    .filter((p) => p.endsWith('.wasm')).join()), '/assets/scalebook-engine-training.wasm');
  assert.ok(seen.every((r) => r.url().endsWith('/scalebook-engine-training.wasm')));
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embed on a page without the meta tag gets the smallest module that holds its elements', async () => {
  // embed.html holds a matmul and a roofline plot: the roofline module, not the whole engine.
  const { page, errors, seen } = await wasmResponses('embed.html');
  assert.deepEqual(seen.map((r) => new URL(r.url()).pathname), ['/assets/scalebook-engine-roofline.wasm']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an element added by script after load gets its code and computes; a page fetches only its elements\' code', async () => {
  const { page, errors } = await wasmResponses('embed.html');
  const scripts = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.js')));
  assert.deepEqual((await scripts()).filter((p) => /\/sb-(transformer|training)-/.test(p)), []);
  assert.equal(await page.evaluate(() => customElements.get('sb-transformer')), undefined);
  await page.evaluate(() => {
    const box = document.createElement('div');
    box.innerHTML = '<sb-transformer model="llama-3-8b"></sb-transformer>';
    document.body.append(box);
  });
  await page.waitForFunction(() => {
    const out = document.querySelector('sb-transformer')?.shadowRoot?.querySelector('[data-output="params"]');
    return out && /8\.0\d* ?B|8\.03/.test(out.textContent);
  }, null, { timeout: 10000 });
  assert.ok((await scripts()).some((p) => /\/assets\/sb-transformer-\w+\.js$/.test(p)));
  assert.deepEqual(errors, []);
  await page.close();
});
