// A first visit fetches what the page shows and no more: compressed, and the build has drawn
// every element, so the engine comes once the reader gets to one (on screen, pointed at,
// touched or focused), and KaTeX's browser chunk once a reader edits a formula the build typeset.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

// Every response of a first visit until the network is idle.
async function visit(url) {
  const { page, errors } = await site.open(url, undefined, { reached: false });
  const seen = [];
  page.on('response', (r) => seen.push(r));
  await page.waitForLoadState('networkidle');
  const first = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  return { page, errors, seen, first };
}

test('chapter 3 shows its typeset formulas without fetching KaTeX, and fetches it once a planner field is edited', async () => {
  const { page, errors, first } = await visit('03-sharding.html');
  // The bundle's statically imported chunks and the code of the page's elements are preloaded
  // from the head; no other script comes, and no engine: no element is on the first screen.
  const preloaded = await page.locator('link[rel="modulepreload"]').evaluateAll((links) => links.map((l) => l.href));
  assert.ok(preloaded.some((href) => /\/assets\/sb-sharded-matmul-\w+\.js$/.test(href)), 'the planner element preloaded');
  const scripts = first.filter((name) => name.endsWith('.js') && !/\/assets\/(scalebook|file-notice)\.js$/.test(name));
  assert.deepEqual(scripts.filter((name) => !preloaded.includes(name)), []);
  // Chapter 3 has no training, transformer or roofline element: none of their code comes.
  assert.deepEqual(scripts.filter((name) => /\/assets\/sb-(training|transformer|roofline|pipeline)/.test(name)), []);
  assert.deepEqual(first.filter((name) => name.endsWith('.wasm')), []);
  const planner = page.locator('sb-sharded-matmul').first();
  // The worked steps come from the folds page, typeset by the build.
  await planner.locator('details.worked > summary').click();
  await planner.locator('.plan-body math').first().waitFor({ state: 'attached' });
  assert.ok(!(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/assets\/mathml-/.test(e.name)))));
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

test('a chapter fetches its engine once the reader scrolls to a calculator, and only once', async () => {
  const { page, errors, seen } = await visit('03-sharding.html');
  const wasm = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).map((e) => e.name));
  assert.deepEqual(await wasm(), []);
  assert.equal(await page.locator('link[rel="preload"][href$=".wasm"]').count(), 0);
  await page.locator('sb-sharding').first().scrollIntoViewIfNeeded();
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/scalebook-engine-sharding.wasm')));
  // Scrolling on to the planners reuses the engine the page has.
  await page.locator('sb-sharded-matmul').first().scrollIntoViewIfNeeded();
  await page.locator('sb-sharded-matmul').first().locator('[data-body]').waitFor({ state: 'attached' });
  await page.waitForLoadState('networkidle');
  assert.equal((await wasm()).length, 1);
  assert.equal(seen.filter((r) => r.url().endsWith('.wasm')).length, 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a field focused from the keyboard loads its calculator off screen, and what is typed is computed', async () => {
  const { page, errors } = await visit('05-training.html');
  assert.deepEqual(await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).map((e) => e.name)), []);
  const host = page.locator('sb-training#explorer');
  const before = await host.locator('[data-output="step_time"]').textContent();
  // A keyboard or screen-reader user moves focus into the form without the page scrolling to it.
  await page.evaluate(() => document.querySelector('sb-training#explorer').shadowRoot.querySelector('[name="B"]').focus({ preventScroll: true }));
  assert.equal(await page.evaluate(() => document.querySelector('sb-training#explorer').getBoundingClientRect().top > innerHeight), true);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2097152');
  await page.waitForFunction((old) => {
    const cell = document.querySelector('sb-training#explorer').shadowRoot.querySelector('[data-output="step_time"]');
    return cell.textContent !== old;
  }, before, { timeout: 20000 });
  assert.notEqual(await host.locator('[data-output="step_time"]').textContent(), before);
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
  await page.locator('sb-roofline').first().scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  for (const file of ['/01-roofline.html', '/assets/scalebook.js', '/assets/scalebook-engine-roofline.wasm', '/assets/site.css']) {
    assert.equal(encodings.get(file), 'br', file);
  }
  await page.close();
});

test('chapter 5 computes numbers only; a planner fetches the module that explains when a reader opens its steps', async () => {
  const { page, errors } = await visit('05-training.html');
  const wasm = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm'))
    .map((e) => new URL(e.name).pathname));
  const planner = page.locator('sb-sharded-matmul').first();
  await planner.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/scalebook-engine-training-sharding.wasm')));
  // An edit redraws the plan from the page's numbers-only module; its steps wait, closed.
  await planner.locator('input[name="B"]').fill('32768');
  await planner.locator('[data-output="local_a"]', { hasText: '2048x8192' }).waitFor();
  const worked = planner.locator('details.worked');
  assert.equal(await worked.getAttribute('data-explain'), '');
  assert.equal(await worked.locator('.steps').count(), 0);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(await wasm(), ['/assets/scalebook-engine-training-sharding.wasm']);
  // Opened from the keyboard: the sharding module comes, the steps are the edited plan's, and
  // the focus stays on the summary.
  await worked.locator('summary').focus();
  await page.keyboard.press('Enter');
  await worked.locator('.steps li', { hasText: 'In[B_X, D] on each device' }).waitFor({ timeout: 20000 });
  assert.match(await worked.locator('.steps').textContent(), /32768/);
  assert.equal(await page.evaluate(() => document.querySelector('sb-sharded-matmul').shadowRoot.activeElement?.localName), 'summary');
  assert.deepEqual(await wasm(), ['/assets/scalebook-engine-training-sharding.wasm', '/assets/scalebook-engine-sharding.wasm']);
  // Typing on redraws the steps, the section still open.
  await planner.locator('input[name="B"]').fill('16384');
  await page.waitForFunction(() => /16384/.test(document.querySelector('sb-sharded-matmul').shadowRoot.querySelector('details.worked[open] .steps')?.textContent ?? ''));
  assert.deepEqual(errors, []);
  await page.close();
});

test('steps whose module cannot be fetched say so in their section; opening it again tries again', async () => {
  const { page, errors } = await visit('05-training.html');
  let refuse = true;
  await page.route('**/scalebook-engine-sharding.wasm', (route) => (refuse ? route.fulfill({ status: 503, body: 'down' }) : route.fallback()));
  const planner = page.locator('sb-sharded-matmul').first();
  await planner.scrollIntoViewIfNeeded();
  await planner.locator('input[name="B"]').fill('32768');
  await planner.locator('[data-output="local_a"]', { hasText: '2048x8192' }).waitFor();
  const worked = planner.locator('details.worked');
  await worked.locator('summary').click();
  await worked.locator('[data-explain-status]', { hasText: 'The worked steps could not load' }).waitFor({ timeout: 20000 });
  assert.equal(await worked.locator('[data-explain-status]').textContent(), 'The worked steps could not load: the engine module ' +
    'that explains them did not arrive. Close this section and open it again to try again.');
  refuse = false;
  await worked.locator('summary').click();
  await worked.locator('summary').click();
  await worked.locator('.steps li', { hasText: 'In[B_X, D] on each device' }).waitFor({ timeout: 20000 });
  assert.deepEqual(errors.filter((e) => !/503|sharding\.wasm/.test(e)), []);
  await page.close();
});

test('a planner\'s worked steps as the build drew them come from the folds page, with no module that explains', async () => {
  const { page, errors } = await visit('05-training.html');
  const planner = page.locator('sb-sharded-matmul').first();
  await planner.scrollIntoViewIfNeeded();
  const worked = planner.locator('details.worked');
  assert.equal(await worked.getAttribute('data-lazy') !== null, true);
  await worked.locator('summary').click();
  await worked.locator('.steps li', { hasText: 'In[B_X, D] on each device' }).waitFor({ timeout: 20000 });
  assert.match(await worked.locator('.steps').textContent(), /65536/);
  await page.waitForLoadState('networkidle');
  const wasm = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).map((e) => new URL(e.name).pathname));
  assert.ok(!wasm.includes('/assets/scalebook-engine-sharding.wasm'), wasm.join());
  assert.deepEqual(errors, []);
  await page.close();
});
