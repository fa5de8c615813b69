// A blogger's page on another origin embeds a calculator with one script tag: the bundle and
// the engine load across origins and the element computes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { start } from './harness.mjs';

let site;
let blog;
before(async () => {
  site = await start();
  // The blog sends a strict policy of its own that allows only what README.md says it needs.
  blog = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('content-security-policy', `default-src 'self'; script-src ${site.base} 'wasm-unsafe-eval'; ` +
      `connect-src ${site.base}; style-src 'self'; object-src 'none'`);
    if (req.url === '/split') {
      res.end(`<!doctype html><html lang="en"><title>A blog</title><p>My FSDP x TP post.</p>
<script type="module" src="${site.base}/assets/scalebook.js"></script>
<sb-training-split shape="4x4x4" b="48000" f="30000"></sb-training-split>`);
      return;
    }
    if (req.url === '/gpus') {
      res.end(`<!doctype html><html lang="en"><title>A blog</title><p>My GPU post.</p>
<script type="module" src="${site.base}/assets/scalebook.js"></script>
<sb-gpu-cluster cluster="dgx-h100-superpod"></sb-gpu-cluster>
<sb-gpu-collective-sim gpus="16"></sb-gpu-collective-sim>`);
      return;
    }
    if (req.url === '/search') {
      res.end(`<!doctype html><html lang="en"><title>A blog</title><p>My sizing post.</p>
<script type="module" src="${site.base}/assets/scalebook.js"></script>
<sb-training-search model="llama-3-8b" chips="256" b="1048576" t="4096"></sb-training-search>`);
      return;
    }
    res.end(`<!doctype html><html lang="en"><title>A blog</title><p>My post.</p>
<script type="module" src="${site.base}/assets/scalebook.js"></script>
<sb-matmul id="m" chip="h100" b="512"></sb-matmul>
<sb-roofline-plot for="m"></sb-roofline-plot>
<sb-systolic-sim rows="4" cols="4" m="4" n="4" k="4"></sb-systolic-sim>`);
  });
  await new Promise((resolve) => blog.listen(0, 'localhost', resolve));
});
after(async () => {
  await site?.stop();
  await new Promise((resolve) => blog?.close(resolve));
});

test('three elements embedded on another origin under its own strict policy load the engine and work', async () => {
  const page = await site.browser.newPage();
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://localhost:${blog.address().port}/`);
  const out = page.locator('sb-matmul [data-output="critical_batch"]');
  await out.waitFor();
  assert.equal((await out.textContent()).trim(), '295 tokens');
  // The plot follows the calculator: its point is drawn once the calculator computed.
  await page.locator('sb-roofline-plot .point').first().waitFor();
  // The simulator ran in the engine and reports its cycle count.
  const cycles = page.locator('sb-systolic-sim [data-stat="sim-cycles"]');
  await page.waitForFunction((el) => /\d/.test(el.textContent), await cycles.elementHandle());
  // Styled by constructed sheets, which the host's style-src 'self' allows: the box's border and
  // the fields' grid apply.
  const look = await page.locator('sb-matmul form.sb-calc').first().evaluate((f) => ({
    border: getComputedStyle(f).borderTopWidth, grid: getComputedStyle(f.querySelector('.fields')).display,
  }));
  assert.deepEqual(look, { border: '1px', grid: 'grid' });
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embed fetches the smallest engine module that holds its elements', async () => {
  const page = await site.browser.newPage();
  const wasm = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r.url().replace(/.*\//, '')); });
  await page.goto(`http://localhost:${blog.address().port}/`);
  // A matmul, its roofline plot and the systolic simulator: the roofline and systolic domains.
  const cycles = page.locator('sb-systolic-sim [data-stat="sim-cycles"]');
  await cycles.waitFor();
  await page.waitForFunction((el) => /\d/.test(el.textContent), await cycles.elementHandle());
  assert.equal((await page.locator('sb-matmul [data-output="critical_batch"]').textContent()).trim(), '295 tokens');
  assert.deepEqual(wasm, ['scalebook-engine-systolic.wasm']);
  await page.close();
});

test('the configuration search embedded on another origin searches on the page\'s thread', async () => {
  const page = await site.browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://localhost:${blog.address().port}/search`);
  // A worker from our origin is refused on the blog's, so the element computes without one.
  const first = page.locator('sb-training-search [data-search-table="top"] tbody tr a').first();
  await first.waitFor();
  assert.match(await first.textContent(), /on \d+x\d+x\d+/);
  assert.match(await first.getAttribute('href'), new RegExp(`^${site.base}/05-training\\.html\\?load=explorer&`));
  assert.equal(page.workers().length, 0);
  assert.ok(await page.locator('sb-training-search .pareto .point').count() > 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the FSDP x TP optimizer embedded on another origin draws its strip, plots and styles', async () => {
  const page = await site.browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://localhost:${blog.address().port}/split`);
  const el = page.locator('sb-training-split');
  // sqrt(48000 / 30000 * 2 * 64) = 14.3: between 8 x 8 and 16 x 4, the best.
  await el.locator('.strip .xopt').waitFor();
  assert.equal(await el.locator('.strip .xopt').textContent(), 'X_opt = 14.3');
  assert.equal(await el.locator('.strip .cell.best').getAttribute('data-x'), '16');
  assert.equal(await el.locator('.ratio-plot path.curve').count(), 3);
  // The split sheet reaches the shadow root from our origin: the strip is a grid.
  assert.equal(await el.locator('.strip').evaluate((ul) => getComputedStyle(ul).display), 'grid');
  assert.deepEqual(errors, []);
  await page.close();
});

test('chapter 12\'s cluster builder and switched-collective simulator embedded on another origin work', async () => {
  const page = await site.browser.newPage();
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://localhost:${blog.address().port}/gpus`);
  const cluster = page.locator('sb-gpu-cluster [data-output="collective_bandwidth"]').first();
  await page.waitForFunction((el) => el.textContent.trim() === '413 GB/s', await cluster.elementHandle());
  const check = page.locator('sb-gpu-collective-sim [data-stat="check"]');
  await page.waitForFunction((el) => /= the collective calculator/.test(el.textContent), await check.elementHandle());
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(errors, []);
  await page.close();
});
