// Chapter 5's explorer as a reader uses it: the static page already draws the layer's four
// boxes with their notation, the strategies table, one layer's matmuls and collectives step by
// step and the step's collectives in order; moving
// tensor parallelism to another axis redraws the boxes and changes the table. Screenshots at
// two widths in both schemes. The chapter's explorer trains LLaMA 3 70B (D = 8192, F = 28672,
// 64 heads) on a 16x16x8 v5p slice, FSDP over X, Y (256 chips) and TP over Z (8), B = 4194304.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, SHOTS, reach } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

const HOST = 'sb-training#explorer';
const notation = (el, array) => el.locator(`[data-array="${array}"] [data-sharding]`).textContent();
const local = (el, array) => el.locator(`[data-array="${array}"] [data-local]`).textContent();
const strategyCell = (el, strategy, column) => el.locator('table[data-table="strategies"] tbody tr')
  .filter({ has: el.page().locator(`td[data-column="strategy"]:text-is("${strategy}")`) })
  .locator(`td[data-column="${column}"]`).textContent();

test('the static page shows the layer, the strategies and the step in order before the engine', async () => {
  // The engine never arrives: what shows is the build's, each section filled as the reader opens
  // it (the build keeps closed sections' bodies on the chapter's folds page until then).
  const page = await site.browser.newPage();
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(`${site.base}/05-training.html`);
  const el = page.locator(HOST);
  for (const fold of ['layer', 'strategies', 'step', 'layer-steps']) await el.locator(`details[data-fold="${fold}"] > summary`).click();
  await el.locator('[data-layer-algorithm] [data-pass="forward"] li').first().waitFor({ state: 'attached' });
  // In[B_XY, D_Z]: B / 256 = 16384 tokens, D / 8 = 1024; W_in[D_XY, F_Z]: 8192 / 256 = 32, 28672 / 8 = 3584.
  assert.equal(await notation(el, 'In'), 'In[B_XY, D_Z]');
  assert.equal(await local(el, 'In'), '[16384, 1024]');
  assert.equal(await notation(el, 'W_in'), 'W_in[D_XY, F_Z]');
  assert.equal(await local(el, 'W_in'), '[32, 3584]');
  assert.equal(await notation(el, 'W_out'), 'W_out[F_Z, D_XY]');
  assert.equal(await notation(el, 'Out'), 'Out[B_XY, D_Z]');
  // TP on 8 chips: F M_Y W / (Y C) = 28672 / (8 x 2550) = 1.41, compute-bound.
  assert.equal(await strategyCell(el, 'TP', 'chips'), '8 chips');
  assert.equal(await strategyCell(el, 'TP', 'ratio'), '1.41');
  assert.equal(await strategyCell(el, 'TP', 'bound'), 'compute');
  // The phases in order, forward first; TP's AllGather of In is on the critical path, in words.
  const phases = await el.locator('.algorithm > li').evaluateAll((items) => items.map((li) => li.dataset.phase));
  assert.deepEqual(phases, ['forward', 'backward']);
  const gather = el.locator('[data-phase="forward"] li.comm').filter({ hasText: 'AllGather of In[B_XY, D_Z]' });
  assert.equal(await gather.getAttribute('data-critical'), 'yes');
  assert.match(await gather.textContent(), /^critical path AllGather of In\[B_XY, D_Z\] over Z \(TP\)/);
  const weights = el.locator('[data-phase="forward"] li.comm').first();
  assert.match(await weights.textContent(), /^overlaps compute AllGather of layer weights over X, Y \(FSDP\)/);
  // One layer step by step: the matmuls between the collectives, each with its cost.
  const forward = el.locator('[data-layer-algorithm] [data-pass="forward"] li');
  assert.deepEqual(await forward.evaluateAll((items) => items.map((li) => li.dataset.kind)),
    ['collective', 'collective', 'matmul', 'collective', 'matmul', 'collective']);
  // 2 (B/X) D (F/Y) = 2 x 16384 x 8192 x 3584 = 962 GFLOP, / 4.59e14 FLOP/s = 2.1 ms.
  assert.equal(await forward.nth(2).textContent(), 'In[B_XY, D] *_D W_in[D, F_Z] -> Tmp[B_XY, F_Z] 962 GFLOP, 2.1 ms');
  assert.match(await forward.nth(0).textContent(), /^critical path AllGather_Z In\[B_XY, D_Z\] -> In\[B_XY, D\] \(TP\)/);
  assert.equal(await el.locator('[data-layer-algorithm] [data-pass="backward"] li[data-kind="matmul"]').count(), 4);
  await page.close();
});

test('without the script, a folded section links to its body on the chapter\'s folds page', async () => {
  const page = await site.browser.newPage({ javaScriptEnabled: false });
  await page.goto(`${site.base}/05-training.html`);
  const href = await page.locator(HOST).locator('details[data-fold="layer"] > [data-fold-link] a').getAttribute('href');
  const url = new URL(href, `${site.base}/05-training.html`);
  await page.goto(url.href);
  const section = page.locator(url.hash);
  assert.equal(await section.locator('h2').textContent(), 'The layer on one chip');
  // In[B_XY, D_Z] of the book's layout, 16384 tokens by 1024 on each chip, as on the chapter.
  assert.equal(await notation(section, 'In'), 'In[B_XY, D_Z]');
  assert.equal(await local(section, 'In'), '[16384, 1024]');
  assert.equal(await local(section, 'W_in'), '[32, 3584]');
  await page.close();
});

test('moving TP to Y redraws the boxes and the strategies table; a bad axis shows its error', async () => {
  const { page, errors } = await site.open('05-training.html');
  const el = page.locator(HOST);
  await el.scrollIntoViewIfNeeded();
  await page.waitForFunction((h) => document.querySelector(h)?.result, HOST);
  // fsdp_axes emptied takes the axes TP leaves; with TP on Y that is X and Z.
  await el.locator('input[name="fsdp_axes"]').fill('');
  await el.locator('input[name="tp_axes"]').fill('Y');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot
    .querySelector('[data-array="In"] [data-sharding]').textContent === 'In[B_XZ, D_Y]', HOST);
  // In[B_XZ, D_Y]: B / 128 = 32768 tokens, D / 16 = 512; W_in[D_XZ, F_Y]: 8192 / 128 = 64, 28672 / 16 = 1792.
  assert.equal(await local(el, 'In'), '[32768, 512]');
  assert.equal(await notation(el, 'W_in'), 'W_in[D_XZ, F_Y]');
  assert.equal(await local(el, 'W_in'), '[64, 1792]');
  // TP on 16 chips: 28672 / (16 x 2550) = 0.703, now communication-bound. The table is folded
  // (it fills in when the reader opens it), so the reader opens it.
  await el.locator('details[data-fold="strategies"] > summary').click();
  assert.equal(await strategyCell(el, 'TP', 'chips'), '16 chips');
  assert.equal(await strategyCell(el, 'TP', 'ratio'), '0.703');
  assert.equal(await strategyCell(el, 'TP', 'bound'), 'ici');
  const gather = el.locator('[data-phase="forward"] li.comm').filter({ hasText: 'AllGather of In[B_XZ, D_Y]' });
  assert.match(await gather.textContent(), /^critical path AllGather of In\[B_XZ, D_Y\] over Y \(TP\)/);
  assert.match(await el.locator('[data-layer-algorithm] [data-pass="forward"] li[data-kind="matmul"]').first().textContent(),
    /^In\[B_XZ, D\] \*_D W_in\[D, F_Y\] -> Tmp\[B_XZ, F_Y\] /);
  // An axis the slice lacks: the engine's message beside the field, the boxes kept as they were.
  await el.locator('input[name="tp_axes"]').fill('W');
  await page.waitForFunction((h) => document.querySelector(h).shadowRoot.querySelector('[data-error-for="tp_axes"]').textContent !== '', HOST);
  assert.equal(await el.locator('[data-error-for="tp_axes"]').textContent(), 'tp_axes must name axes of the slice (X, Y, Z), got "W"');
  assert.equal(await notation(el, 'In'), 'In[B_XZ, D_Y]');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the explorer at 1280 and 390 px, light and dark, stays within a phone\'s width', async () => {
  for (const scheme of ['light', 'dark']) {
    for (const width of [1280, 390]) {
      const page = await site.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
      await page.goto(`${site.base}/05-training.html`);
      await reach(page);
      await page.waitForFunction((h) => document.querySelector(h)?.result, HOST);
      const extras = page.locator(`${HOST} [data-explorer]`);
      await extras.scrollIntoViewIfNeeded();
      const box = await extras.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= width, `the explorer's pictures fit ${width} px: ${JSON.stringify(box)}`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= width);
      await extras.screenshot({ path: path.join(SHOTS, `training-explorer-${width}-${scheme}.png`) });
      await page.close();
    }
  }
});
