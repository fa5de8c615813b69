// Chapter 6's configuration search as a reader uses it: the build's tables read before any
// script, an edit searches again in a worker (the page keeps its thread), headers sort, a bad
// field shows its message beside it, and a row's link opens chapter 5's explorer with the
// layout loaded. Expected values come from the engine, run here in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, startScratch, SHOTS, reach } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { explorerQuery } from '../../web/runtime/training/search-view.js';

const INPUTS = { model: 'llama-3-70b', chip: 'tpu-v5p', chips: '8192', B: '4194304', T: '4096' };
const MD = `# Scratch\n\nThe search.\n\n::training-search ${Object.entries(INPUTS).map(([k, v]) => `${k}=${v}`).join(' ')}\n`;
const HOST = 'sb-training-search';

let engine;
let scratch;
let site;
before(async () => {
  engine = await loadEngine();
  scratch = await startScratch('06-applied-training', MD);
  site = await start();
});
after(async () => {
  await scratch?.stop();
  await site?.stop();
});

const output = (page, name) => page.locator(`${HOST} [data-output="${name}"]`).textContent();

test('the search shows the engine\'s tables, searches again in a worker, sorts and refuses a bad field', async () => {
  const expected = engine.calculate('training-search', INPUTS, { steps: false });
  const { page, errors } = await scratch.open('06-applied-training.html');
  const el = page.locator(HOST);
  // The build drew the tables and the plot.
  const top = el.locator('[data-search-table="top"] tbody tr');
  assert.equal(await top.count(), expected.top.length);
  assert.equal(await top.first().locator('a').textContent(), expected.best);
  // The plot and the other results are sections a reader opens (their bodies come when first opened).
  for (const fold of ['search-plot', 'outputs']) await el.locator(`details[data-fold="${fold}"] > summary`).click();
  await el.locator('.pareto .point').first().waitFor({ state: 'attached' });
  assert.equal(await el.locator('.pareto .point').count(), expected.pareto.length);
  // An edit: the worker searches 4096 chips and the tables follow.
  const smaller = engine.calculate('training-search', { ...INPUTS, chips: '4096' }, { steps: false });
  await el.locator('input[name="chips"]').fill('4096');
  await el.locator('input[name="chips"]').dispatchEvent('change');
  await page.waitForFunction(([h, best]) => document.querySelector(h).shadowRoot
    .querySelector('[data-search-table="top"] tbody tr a')?.textContent === best, [HOST, smaller.best]);
  assert.equal((await output(page, 'evaluated')).trim(), engine.format(smaller.evaluated, 'configurations', 'si'));
  assert.ok(page.workers().length >= 1, 'the search ran in a worker');
  // Sorting by memory per chip puts the smallest first.
  await el.locator('[data-search-table="top"] th button', { hasText: 'Memory per chip' }).click();
  const values = await el.locator('[data-search-table="top"] tbody td.num:nth-last-child(1)').evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
  assert.deepEqual(values, [...values].sort((a, b) => a - b));
  assert.equal(await el.locator('[data-search-table="top"] th[aria-sort="ascending"]').count(), 1);
  // Each layout links to the explorer with its inputs.
  const href = await top.first().locator('a').getAttribute('href');
  const url = new URL(href);
  assert.equal(url.pathname, '/05-training.html');
  assert.equal(url.searchParams.get('load'), 'explorer');
  assert.equal(url.searchParams.get('model'), 'llama-3-70b');
  assert.ok(url.searchParams.get('shape'));
  // A bad field: the message beside it, the last tables kept.
  await el.locator('input[name="chips"]').fill('abc');
  await el.locator('input[name="chips"]').dispatchEvent('change');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-error-for="chips"]').textContent !== '', HOST);
  assert.equal(await el.locator('[data-error-for="chips"]').textContent(), 'chips must be a number, got "abc"');
  assert.equal(await top.count(), smaller.top.length);
  await el.screenshot({ path: path.join(SHOTS, 'training-search.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a search row\'s link loads its layout into chapter 5\'s explorer', async () => {
  const result = engine.calculate('training-search', INPUTS, { steps: false });
  const family = result.families.find((f) => f.family === 'FSDP + TP');
  // The row's words hold fsdp_axes="X'YZ", quoted for a shell: the link takes what is inside.
  assert.match(family.inputs, / split=X2 .*fsdp_axes="X'YZ"/);
  const query = new URLSearchParams(explorerQuery(INPUTS, family.inputs));
  assert.equal(query.get('fsdp_axes'), "X'YZ");
  const { page, errors } = await site.open(`05-training.html?${query}#explorer`);
  const explorer = page.locator('sb-training#explorer');
  const expected = engine.calculate('training', Object.fromEntries([...query].filter(([k]) => k !== 'load')), { steps: false });
  // The layout is among the results a reader opens.
  await explorer.locator('details[data-fold="outputs"] > summary').click();
  await page.waitForFunction(([layout]) => document.querySelector('sb-training#explorer').shadowRoot
    .querySelector('[data-output="layout"]')?.textContent.includes(layout), [expected.layout]);
  assert.match(await explorer.locator('[data-output="layout"]').textContent(), /tp 2 \(X\)/);
  assert.equal(await explorer.locator('input[name="shape"]').inputValue(), query.get('shape'));
  assert.equal(await explorer.locator('input[name="split"]').inputValue(), 'X2');
  // The step-by-step list names X' as one axis.
  assert.match(await explorer.locator('li.comm[data-critical="no"]:not([data-kind])').first().textContent(), /over X', Y, Z \(FSDP\)/);
  // A link with a bad value shows the engine's message beside that field.
  const bad = await site.open('05-training.html?load=explorer&shape=%3Cscript%3E#explorer');
  await bad.page.waitForFunction(() => document.querySelector('sb-training#explorer').shadowRoot.querySelector('[data-error-for="shape"]').textContent !== '');
  assert.match(await bad.page.locator('sb-training#explorer [data-error-for="shape"]').textContent(), /^shape must be sizes joined by x/);
  assert.deepEqual(errors, []);
  assert.deepEqual(bad.errors, []);
  await page.close();
  await bad.page.close();
});

test('a search that runs past 100 ms shows how far it has got, in percent, then its tables', async () => {
  // Opened as a first visit: the page's first search (and its worker) starts only once the
  // reader reaches it, after the slow worker is in place.
  const { page, errors } = await scratch.open('06-applied-training.html', undefined, { reached: false });
  // The real worker behind a slow one: it reports a quarter, a half and three quarters, 150 ms
  // apart, before handing the message on, as a search that takes half a second would.
  const real = await (await page.request.get(`${scratch.base}/assets/training-worker.js`)).text();
  await page.route('**/assets/training-worker.js', (route) => route.fulfill({ contentType: 'text/javascript', body:
    "import './search-worker-real.js';\nconst real = self.onmessage;\n" +
    'self.onmessage = (event) => { let f = 0; const tick = setInterval(() => { f += 0.25; ' +
    'postMessage({ id: event.data.id, progress: f }); if (f >= 0.75) { clearInterval(tick); real(event); } }, 150); };' }));
  await page.route('**/assets/search-worker-real.js', (route) => route.fulfill({ contentType: 'text/javascript', body: real }));
  await reach(page);
  const el = page.locator(HOST);
  const smaller = engine.calculate('training-search', { ...INPUTS, chips: '4096' }, { steps: false });
  await el.locator('input[name="chips"]').fill('4096');
  await el.locator('input[name="chips"]').dispatchEvent('change');
  const status = el.locator('[data-search-status]');
  await page.waitForFunction((h) => /^(50|75)% · \d+\.\d s$/.test(document.querySelector(h).shadowRoot
    .querySelector('[data-search-status] [data-elapsed]')?.textContent ?? ''), HOST);
  assert.ok(await status.locator('progress').evaluate((p) => p.value) >= 0.5);
  assert.equal(await status.locator('button[data-stop]').count(), 1);
  await page.waitForFunction(([h, best]) => document.querySelector(h).shadowRoot
    .querySelector('[data-search-table="top"] tbody tr a')?.textContent === best, [HOST, smaller.best]);
  assert.equal((await status.textContent()).trim(), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Stop ends a running search: the line says so, no error shows, and the last tables stay', async () => {
  const { page, errors } = await scratch.open('06-applied-training.html', undefined, { reached: false });
  // A worker that only ever reports a quarter done, as a search too long to wait for.
  await page.route('**/assets/training-worker.js', (route) => route.fulfill({ contentType: 'text/javascript', body:
    'self.onmessage = (event) => { postMessage({ id: event.data.id, progress: 0.25 }); };' }));
  await reach(page);
  const el = page.locator(HOST);
  const expected = engine.calculate('training-search', INPUTS, { steps: false });
  await el.locator('input[name="chips"]').fill('4096');
  await el.locator('input[name="chips"]').dispatchEvent('change');
  const status = el.locator('[data-search-status]');
  await status.locator('button[data-stop]').click();
  assert.equal((await status.textContent()).trim(), 'Stopped: the tables show the last search that finished.');
  // Still so once the cancelled search's promise has settled.
  await page.waitForTimeout(300);
  assert.equal((await status.textContent()).trim(), 'Stopped: the tables show the last search that finished.');
  assert.equal((await el.locator('[data-error-for=""]').textContent()).trim(), '');
  assert.equal(await el.locator('[data-search-table="top"] tbody tr a').first().textContent(), expected.best);
  assert.deepEqual(errors, []);
  await page.close();
});
