// Chapter 5's FSDP x TP optimizer as a reader uses it: the build's strip and plots read before
// any script, a smaller batch moves X_opt and the best split, a cell reads as its numbers,
// and a bad split shows the engine's message beside its field. Screenshots at two widths in
// both schemes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, SHOTS } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

const HOST = 'sb-training-split#optimizer';
const out = (el, key) => el.locator(`[data-output="${key}"]`).textContent();

test('the 4x4x4 example: seven splits, 16 x 4 the best, X_opt = 14.3 marked, three ratio curves', async () => {
  const { page, errors } = await site.open('05-training.html');
  const el = page.locator(HOST);
  await el.scrollIntoViewIfNeeded();
  // X = 1, 2, ..., 64 over 64 chips; sqrt(48000 / 30000 * 2 * 64) = 14.3 lies between 8 and 16.
  assert.equal(await el.locator('.strip .cell').count(), 7);
  assert.equal(await el.locator('.strip .cell.best').getAttribute('data-x'), '16');
  assert.match(await el.locator('.strip .xopt').textContent(), /X_opt = 14\.3/);
  // The plots are sections a reader opens (their bodies come when first opened).
  for (const fold of ['ratio-plot', 'time-plot']) await el.locator(`details[data-fold="${fold}"] > summary`).click();
  await el.locator('.time-plot path.curve').first().waitFor({ state: 'attached' });
  assert.equal(await el.locator('.ratio-plot path.curve').count(), 3);
  // The named splits of the default: pure FSDP, pure TP and the powers of two beside 14.3.
  assert.deepEqual(await el.locator('.time-plot path.curve').evaluateAll((ps) => ps.map((p) => p.dataset.label)),
    ['64 x 1 comms', '1 x 64 comms', '8 x 8 comms', '16 x 4 comms', 'math']);
  assert.match(await out(el, 'bound'), /compute/);
  // A cell reads as its split, its ratio and its bound; X_opt's mark sits between 8 x 8 and 16 x 4.
  assert.equal(await el.locator('.strip .cell.best').textContent(), '16 × 4: math over comms 2.35, compute-bound, the best split');
  assert.deepEqual(await el.locator('.strip li').evaluateAll((lis) => lis.slice(3, 6).map((li) => li.className.split(' ')[0])), ['cell', 'xopt', 'cell']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a tenth of the batch moves X_opt to 4.53 and the best split to 4 x 16, ICI-bound', async () => {
  const { page, errors } = await site.open('05-training.html');
  const el = page.locator(HOST);
  await el.scrollIntoViewIfNeeded();
  await el.locator('input[name="B"]').fill('4800');
  await page.waitForFunction((h) => /4\.53/.test(document.querySelector(h).shadowRoot.querySelector('.strip .xopt')?.textContent ?? ''), HOST);
  // At 4 x 16, TP's 4 * 4800 * 8192 / (4 * 1.8e11) = 218 us outlasts FSDP's 171 us; the math is
  // 4 * 4800 * 8192 * 30000 / (64 * 4.59e14) = 160.6 us, so 160.6 / 218.5 = 0.735, ICI-bound.
  assert.equal(await el.locator('.strip .cell.best').getAttribute('data-x'), '4');
  assert.equal(await el.locator('.strip .cell.best').textContent(), '4 × 16: math over comms 0.735, ici-bound, the best split');
  assert.match(await out(el, 'bound'), /ici/);
  assert.match(await out(el, 'best_x'), /^4 chips$/);
  // The folded table of the named splits fills in with the new batch's rows when it opens: its
  // splits are now those beside X_opt = 4.53, 4 x 16 and 8 x 8, after pure FSDP and pure TP.
  const fold = el.locator('details[data-fold="times"]', { hasText: 'Communication of the named splits' });
  await fold.locator('summary').click();
  const splits = await fold.locator('td[data-column="split"]').evaluateAll((tds) => [...new Set(tds.map((td) => td.textContent))]);
  assert.deepEqual(splits, ['64 x 1', '1 x 64', '4 x 16', '8 x 8']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a split that is not the slice shows the engine message beside the field, the plots stay', async () => {
  const { page, errors } = await site.open('05-training.html');
  const el = page.locator(HOST);
  await el.scrollIntoViewIfNeeded();
  await el.locator('summary', { hasText: 'Advanced' }).click();
  await el.locator('input[name="splits"]').fill('3x5');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-error-for="splits"]').textContent !== '', HOST);
  assert.equal(await el.locator('[data-error-for="splits"]').textContent(), 'splits: 3x5 is 15 chips, the slice has 64');
  assert.equal(await el.locator('.strip .cell').count(), 7);
  // The plot of the named splits is a section: opened, it follows the splits typed.
  await el.locator('details[data-fold="time-plot"] > summary').click();
  await el.locator('input[name="splits"]').fill('32x2, 2x32');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelectorAll('.time-plot path.curve').length === 3, HOST);
  assert.equal(await el.locator('[data-error-for="splits"]').textContent(), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the optimizer at 1280 and 390 px, light and dark', async () => {
  for (const scheme of ['light', 'dark']) {
    for (const width of [1280, 390]) {
      const page = await site.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
      await page.goto(`${site.base}/05-training.html`);
      const el = page.locator('sb-training-split#optimizer-pod');
      await el.scrollIntoViewIfNeeded();
      // The page is no wider than the phone: the plots scale down rather than overflow.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
      await el.screenshot({ path: path.join(SHOTS, `training-split-${width}-${scheme}.png`) });
      await page.close();
    }
  }
});

test('a plot point reads by pointer and by arrow keys, from one layer rather than a node per point', async () => {
  const { page, errors } = await site.open('05-training.html');
  const el = page.locator(HOST);
  // Once the engine's first result has redrawn the element (the build's nodes replaced).
  await page.waitForFunction((h) => document.querySelector(h)?.result, HOST);
  const plot = el.locator('.plot').filter({ has: page.locator('svg.ratio-plot') });
  await el.locator('details[data-fold="ratio-plot"] > summary').click();
  await plot.scrollIntoViewIfNeeded();
  // Three curves' points are listed on the layer; no circle or title per point.
  const points = JSON.parse(await plot.locator('[data-readout]').getAttribute('data-readout'));
  assert.ok(points.length >= 60, `${points.length} points`);
  assert.equal(await plot.locator('svg circle:not(.readout-mark)').count(), 0);
  // Keyboard: Home reads the first FSDP point, Right the next, End the last of TP or the mix.
  await plot.locator('[data-readout]').focus();
  await page.keyboard.press('Home');
  const words = plot.locator('[data-readout-text]');
  assert.equal(await words.textContent(), points[0][2]);
  assert.match(points[0][2], /^FSDP alone: .+ at .+ tokens$/);
  await page.keyboard.press('ArrowRight');
  assert.equal(await words.textContent(), points[1][2]);
  await page.keyboard.press('End');
  assert.equal(await words.textContent(), points[points.length - 1][2]);
  assert.equal(await plot.locator('.readout-mark.on').count(), 1);
  // Pointer: over a point's position, that point (or one as near) is read.
  const [px, py, text] = points[Math.floor(points.length / 2)];
  const box = await plot.locator('svg.ratio-plot').boundingBox();
  await page.mouse.move(box.x + (px / 640) * box.width, box.y + (py / 360) * box.height);
  await page.waitForFunction((t) => document.querySelector('sb-training-split#optimizer').shadowRoot
    .querySelector('.plot [data-readout-text]').textContent === t, text);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an open table off screen is filled in with the latest numbers when it scrolls into view', async () => {
  const { page, errors } = await site.open('05-training.html', { width: 1280, height: 500 });
  const el = page.locator(HOST);
  await el.scrollIntoViewIfNeeded();
  await el.locator('details').evaluateAll((folds) => { for (const f of folds) f.open = true; });
  const body = el.locator('[data-table] tbody').last();
  await body.scrollIntoViewIfNeeded();
  const before = await body.textContent();
  // Back to the form, with the table far below the fold, and a tenth of the batch.
  await el.locator('input[name="B"]').scrollIntoViewIfNeeded();
  await page.evaluate((h) => window.scrollTo(0, document.querySelector(h).getBoundingClientRect().top + window.scrollY), HOST);
  await page.waitForTimeout(200); // the page sees what is on screen a frame later
  const bound = await out(el, 'bound');
  await el.locator('input[name="B"]').fill('4800');
  await page.waitForFunction(([h, was]) => document.querySelector(h).shadowRoot.querySelector('[data-output="bound"]').textContent !== was, [HOST, bound]);
  assert.equal(await body.textContent(), before, 'off screen, the table waits');
  await body.scrollIntoViewIfNeeded();
  await page.waitForFunction(([h, was]) => {
    const bodies = document.querySelector(h).shadowRoot.querySelectorAll('[data-table] tbody');
    return bodies[bodies.length - 1].textContent !== was;
  }, [HOST, before], { timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});
