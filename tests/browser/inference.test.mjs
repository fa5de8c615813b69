// Chapter 7's roofline panel and frontier as a reader uses them, on a scratch page of the
// elements placed as the chapter places them (::calculator inference, inference-frontier): an
// edit of the batch redraws the step's time and its bar with the engine's new numbers, the
// frontier draws one focusable point per step it tried and reads the focused one out, and axe
// finds nothing, light and dark, desktop and phone. Expected texts come from the engine in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { startScratch } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { si, useEngine } from '../../web/runtime/core/format.js';
import { pointWords, pickIndex } from '../../web/runtime/inference/frontier-view.js';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const MARKDOWN = '# Inference\n\n::calculator inference id=roof\n\n' +
  '::calculator inference batches="1 8 16 32 64 240" model=llama-2-13b shape=2x4 dtype_params=bf16 id=batches\n\n' +
  '::calculator inference-frontier id=frontier\n';

let site;
let engine;
before(async () => {
  engine = await loadEngine();
  useEngine(engine);
  site = await startScratch('07-inference', MARKDOWN);
});
after(async () => { await site?.stop(); });

// The step's caption, the output cell and each part's width in the bar.
const stepState = (page) => page.evaluate(() => {
  const root = document.querySelector('sb-inference#roof').shadowRoot;
  return {
    caption: root.querySelector('[data-step-caption] strong').textContent,
    cell: root.querySelector('[data-output="t_step"]').textContent.trim(),
    widths: [...root.querySelectorAll('[data-step] rect[data-part]')].map((r) => Number(r.getAttribute('width'))),
  };
});

const widthsOf = (r) => [r.t_attention, r.t_matmul, r.t_collectives].map((t) => Number((640 * t / r.t_step).toFixed(1)));

test('a larger batch redraws the step time and its bar with the engine\'s numbers', async () => {
  const { page, errors } = await site.open('07-inference.html');
  const host = 'sb-inference#roof';
  await page.locator(host).scrollIntoViewIfNeeded();
  const before32 = engine.calculate('inference', {}, { steps: false });
  assert.deepEqual(await stepState(page), { caption: si(before32.t_step, 's'), cell: si(before32.t_step, 's'), widths: widthsOf(before32) });
  await page.fill(`${host} input[name="batch"]`, '128');
  const after128 = engine.calculate('inference', { batch: '128' }, { steps: false });
  const wanted = si(after128.t_step, 's');
  assert.notEqual(wanted, si(before32.t_step, 's'));
  await page.waitForFunction((text) => document.querySelector('sb-inference#roof').shadowRoot
    .querySelector('[data-step-caption] strong')?.textContent === text, wanted);
  assert.deepEqual(await stepState(page), { caption: wanted, cell: wanted, widths: widthsOf(after128) });
  // 128 sequences of 8k on 16 v5e chips do not fit: the HBM bar says by how much.
  assert.equal(after128.fits, 'no');
  const hbm = await page.evaluate(() => document.querySelector('sb-inference#roof').shadowRoot.querySelector('[data-hbm-caption]').textContent);
  assert.match(hbm, new RegExp(`over by ${si(after128.hbm_over, 'B')}$`));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the batch list draws both charts, marks the rows that do not fit and tabulates them', async () => {
  const { page, errors } = await site.open('07-inference.html');
  const host = 'sb-inference#batches';
  await page.locator(host).scrollIntoViewIfNeeded();
  const r = engine.calculate('inference', { batches: '1 8 16 32 64 240', model: 'llama-2-13b', shape: '2x4', dtype_params: 'bf16' }, { steps: false });
  const drawn = await page.evaluate((h) => {
    const root = document.querySelector(h).shadowRoot;
    return {
      charts: root.querySelectorAll('[data-batches] svg').length,
      hollow: root.querySelectorAll('[data-batches] .plot:first-child .pt.out').length,
      rows: root.querySelectorAll('[data-table="batches"] tbody tr').length,
    };
  }, host);
  assert.deepEqual(drawn, { charts: 2, hollow: r.batches.filter((b) => b.fits !== 'yes').length, rows: r.batches.length });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the frontier draws every point, and the focused one is ringed and read out', async () => {
  const { page, errors } = await site.open('07-inference.html');
  const host = 'sb-inference-frontier#frontier';
  await page.locator(host).scrollIntoViewIfNeeded();
  const r = engine.calculate('inference-frontier', {}, { steps: false });
  assert.equal(r.points.length, 512);
  await page.waitForFunction(() => document.querySelector('sb-inference-frontier#frontier').result);
  const options = page.locator(`${host} [role="option"]`);
  assert.equal(await options.count(), r.points.length);
  // The pick is the one point in the tab order; Right moves to the next batch on its slice.
  const pick = pickIndex(r);
  assert.ok(pick >= 0);
  const first = page.locator(`${host} [role="option"][tabindex="0"]`);
  assert.equal(await first.getAttribute('data-i'), String(pick));
  await first.focus();
  await page.keyboard.press('ArrowRight');
  const readout = page.locator(`${host} [data-readout-text]`);
  const words = pointWords(r.points[pick + 1]);
  assert.equal((await readout.textContent()).trim(), words);
  const focused = await page.evaluate(() => {
    const el = document.querySelector('sb-inference-frontier#frontier').shadowRoot.activeElement;
    return { i: el?.dataset.i, label: el?.getAttribute('aria-label'), tab: el?.getAttribute('tabindex') };
  });
  assert.deepEqual(focused, { i: String(pick + 1), label: words, tab: '0' });
  assert.match(words, /KV loading .* weight loading .* FLOPs .* collectives/);
  // Pointing reads the point under the pointer the same way.
  const last = options.nth(r.points.length - 1);
  await last.hover({ force: true });
  await page.waitForFunction((text) => document.querySelector('sb-inference-frontier#frontier').shadowRoot
    .querySelector('[data-readout-text]').textContent === text, pointWords(r.points.at(-1)));
  // The points table, folded under the plot, is drawn when opened: a row a point.
  await page.locator(`${host} details[data-fold="points"] summary`).click();
  const rows = page.locator(`${host} [data-table="points"] tbody tr`);
  await rows.first().waitFor();
  assert.equal(await rows.count(), r.points.length);
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [scheme, viewport] of [['light', { width: 1280, height: 800 }], ['dark', { width: 375, height: 800 }]]) {
  test(`axe finds no violations in the elements, ${scheme}, ${viewport.width} px wide`, async () => {
    // axe's own inline styles meet the page's CSP, so the console's errors are not asserted here.
    const { page } = await site.open('07-inference.html', viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction(() => ['sb-inference#roof', 'sb-inference#batches', 'sb-inference-frontier#frontier']
      .every((s) => document.querySelector(s)?.result));
    await page.locator('sb-inference-frontier#frontier [role="option"][tabindex="0"]').focus();
    await page.keyboard.press('ArrowDown');
    await page.locator('sb-inference-frontier#frontier details[data-fold="points"] summary').click();
    await page.locator('sb-inference-frontier#frontier [data-table="points"] tbody tr').first().waitFor();
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => (await window.axe.run({ include: [['sb-inference'], ['sb-inference-frontier']] })).violations
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' > ')).slice(0, 3).join(' | ')}`));
    assert.deepEqual(violations, []);
    await page.close();
  });
}
