// Chapter 4 as a reader uses it: the live Transformer layer, its totals and attention-share
// plot, an invalid shape, a graded exercise, and a phone. Expected numbers come from the
// engine, loaded here in Node, never typed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, SHOTS } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { si, useEngine } from '../../web/runtime/core/format.js';
import { countText } from '../../web/runtime/transformer/transformer-view.js';

let site;
let engine;
before(async () => {
  site = await start();
  engine = await loadEngine();
  useEngine(engine); // format.js prints with the engine
});
after(async () => { await site?.stop(); });

const widget = (page) => page.locator('sb-transformer').first();

// Waits until the element's engine has run (its body is rebuilt with the blocks' details).
async function ready(page) {
  await page.waitForFunction(() => customElements.get('sb-transformer'));
  await widget(page).locator(`[data-output="params"]`).waitFor();
}

async function output(page, name) {
  return (await widget(page).locator(`[data-output="${name}"]`).textContent()).trim();
}

async function waitOutput(page, name, text) {
  await page.waitForFunction(([n, t]) => {
    const el = document.querySelector('sb-transformer').shadowRoot.querySelector(`[data-output="${n}"]`);
    return el?.textContent.trim() === t;
  }, [name, text]);
}

test('chapter 4 loads with its numbers, the layer and no console errors', async () => {
  const { page, errors } = await site.open('04-transformers.html');
  await page.waitForLoadState('networkidle');
  assert.equal(await page.locator('h1').first().textContent(), 'Transformer math');
  assert.equal(await page.locator('.katex-error').count(), 0);
  const q1 = engine.calculate('transformer', { model: 'transformers-q1' });
  assert.equal(await page.locator('.sb-value[data-source="transformer.params model=transformers-q1"]').evaluate((el) => el.firstChild.textContent),
    '1.74e10');
  assert.ok(q1.params > 17.4e9 && q1.params < 17.5e9);
  await ready(page);
  assert.equal(await page.locator('sb-transformer').count(), 2);
  const llama = engine.calculate('transformer', { model: 'llama-3-70b', B: 1, T: 4096 });
  assert.equal(await output(page, 'params'), countText(llama.params));
  assert.equal(await output(page, 'kv_bytes_per_token'), si(llama.kv_bytes_per_token, 'B'));
  assert.equal(await widget(page).locator(`svg.layer [data-block]`).count(), 9);
  assert.equal(await widget(page).locator(`svg.share [data-crossover]`).getAttribute('data-crossover'),
    String(Math.round(llama.crossover_matmuls)));
  await page.locator('sb-transformer').first().screenshot({ path: path.join(SHOTS, 'chapter-4-transformer.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a preset fills the shapes and a changed shape updates the numbers to the engine\'s', async () => {
  const { page, errors } = await site.open('04-transformers.html');
  await ready(page);
  await widget(page).locator(`select[name="model"]`).selectOption('deepseek-v3');
  const ds = engine.calculate('transformer', { model: 'deepseek-v3', B: 1, T: 4096 });
  await waitOutput(page, 'params_active', countText(ds.params_active));
  assert.equal(await widget(page).locator(`input[name="E"]`).inputValue(), '256');
  assert.equal(await output(page, 'params'), countText(ds.params));
  assert.equal(await widget(page).locator(`[data-block="router"]`).count(), 1);
  // Back to LLaMA 3 70B and a new K: a GQA model with 16 KV heads caches twice as much.
  await widget(page).locator(`select[name="model"]`).selectOption('llama-3-70b');
  await widget(page).locator(`input[name="K"]`).fill('16');
  const k16 = engine.calculate('transformer', { model: 'llama-3-70b', B: 1, T: 4096, K: 16 });
  await waitOutput(page, 'kv_bytes_per_token', si(k16.kv_bytes_per_token, 'B'));
  assert.equal(await output(page, 'attention'), 'GQA, G = 4');
  assert.equal(await output(page, 'params'), countText(k16.params));
  // A block's detail on hover: W_K's shapes and its FLOPs for the step.
  await widget(page).locator(`[data-block="k"]`).hover();
  const wk = k16.blocks.find((b) => b.block === 'k');
  const detail = widget(page).locator(`[data-detail="flops_training"]`);
  assert.equal((await detail.textContent()).trim(), si(wk.flops_training, 'FLOP'));
  assert.match(await widget(page).locator(`[data-detail]`).first().textContent(), /\[8192, 16, 128\]/);
  // The sequence length moves the dot along the attention-share curve, not the crossover.
  await widget(page).locator(`input[name="T"]`).fill('65536');
  const long = engine.calculate('transformer', { model: 'llama-3-70b', B: 1, T: 65536, K: 16 });
  await waitOutput(page, 'attention_share', `${Number((100 * long.attention_share).toPrecision(3))}%`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a K that does not divide N shows the engine\'s message beside K', async () => {
  const { page, errors } = await site.open('04-transformers.html');
  await ready(page);
  const before = await output(page, 'params');
  await widget(page).locator(`input[name="K"]`).fill('12');
  const message = widget(page).locator(`[data-error-for="K"]`);
  await page.waitForFunction(() => document.querySelector('sb-transformer').shadowRoot
    .querySelector('[data-error-for="K"]').textContent !== '');
  assert.equal(await message.textContent(), 'K must divide N (64), got 12');
  assert.equal(await widget(page).locator(`input[name="K"]`).getAttribute('aria-invalid'), 'true');
  assert.match(await widget(page).locator(`[data-body]`).getAttribute('class'), /stale/);
  assert.equal(await output(page, 'params'), before); // the last good numbers stay
  await widget(page).locator(`[data-field="K"]`).screenshot({ path: path.join(SHOTS, 'chapter-4-bad-k.png') });
  await widget(page).locator(`input[name="K"]`).fill('8');
  await page.waitForFunction(() => document.querySelector('sb-transformer').shadowRoot
    .querySelector('[data-error-for="K"]').textContent === '');
  assert.equal(await widget(page).locator(`input[name="K"]`).getAttribute('aria-invalid'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an exercise grades the exact parameter count and shows the book\'s rounded one', async () => {
  const { page, errors } = await site.open('04-transformers.html');
  const ex = 'sb-exercise#transformers-q1a-params';
  await page.locator(ex).scrollIntoViewIfNeeded();
  const feedback = page.locator(`${ex} [data-feedback]`);
  // The book's formula with 4096 rounded to 4e3 gives 16.6e9; the exact count is what is graded.
  await page.fill(`${ex} [data-answer]`, '16.6e9');
  await page.click(`${ex} [data-check]`);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.trim() !== '', `${ex} [data-feedback]`);
  assert.match(await feedback.textContent(), /not quite/);
  const exact = engine.calculate('transformer', { model: 'transformers-q1' }).params;
  await page.fill(`${ex} [data-answer]`, String(exact));
  await page.click(`${ex} [data-check]`);
  await page.waitForFunction((sel) => /^correct/.test(document.querySelector(sel).textContent.trim()), `${ex} [data-feedback]`);
  await page.click(`${ex} [data-show-solution]`);
  await page.locator(`${ex} [data-solution] .answer`).waitFor();
  assert.match(await page.locator(`${ex} [data-solution]`).textContent(), /the book gives 1\.6e10 params/);
  await page.locator(ex).screenshot({ path: path.join(SHOTS, 'chapter-4-exercise.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('chapter 4 reads on a phone without sideways scrolling', async () => {
  const { page, errors } = await site.open('04-transformers.html', { width: 390, height: 844 });
  await page.waitForLoadState('networkidle');
  await ready(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  const box = await page.locator('sb-transformer').first().boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `the widget spans ${box.x} to ${box.x + box.width}`);
  await widget(page).locator('[data-block="o"]').click();
  await page.locator('sb-transformer').first().screenshot({ path: path.join(SHOTS, 'chapter-4-phone.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
