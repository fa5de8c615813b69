// Chapter 6's run budget as a reader uses it: choosing another model redraws the bars beside
// the form with the engine's new numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

test('a smaller model redraws the parameter and memory bars', async () => {
  const { page, errors } = await site.open('06-applied-training.html');
  const el = page.locator('sb-training-budget').first();
  await el.scrollIntoViewIfNeeded();
  const titles = () => el.locator('[data-extras] svg > title').allTextContents();
  // LLaMA 3 70B with the chapter's 4e6-token batch: 7.06e10 parameters; its memory floor of
  // 21.7 TB (weights, Adam state and the checkpoints) needs 226 chips of 96 GB.
  assert.deepEqual(await titles(), ['Parameters by block: 7.06e10 params', 'Memory floor: 21.7 TB, at least 226 chips of 96 GB']);
  await el.locator('select[name="model"]').selectOption('llama-3-8b');
  await page.waitForFunction(() => /8\.03e9/.test(document.querySelector('sb-training-budget').shadowRoot.querySelector('[data-extras] svg > title').textContent));
  // 8.03e9 parameters; 4.27 TB at 96 GB a chip is 44.5, so 45 chips.
  assert.deepEqual(await titles(), ['Parameters by block: 8.03e9 params', 'Memory floor: 4.27 TB, at least 45 chips of 96 GB']);
  assert.deepEqual(errors, []);
  await page.close();
});

test("chapter 5's pods-and-days estimator shows its chosen outputs and says when the batch cannot feed the chips", async () => {
  const { page, errors } = await site.open('05-training.html');
  const el = page.locator('sb-training-budget#estimate');
  await el.scrollIntoViewIfNeeded();
  const cell = (name) => el.locator(`[data-output="${name}"]`);
  // Only the outputs the chapter picked: the memory floor's rows are not among them.
  assert.equal(await el.locator('dl.outputs [data-output]').count(), 12);
  assert.equal(await cell('mem_total').count(), 0);
  // 2^24 tokens over 850 tokens a chip: 19737 chips, 2.2 pods; one pod of 8960 is fine.
  assert.equal((await cell('chips_usable').textContent()).trim(), '19737 chips');
  assert.equal((await cell('comm_bound').textContent()).trim(), 'no');
  // A 4M-token batch feeds only 4934 chips: the pod is more than it can keep busy.
  await el.locator('input[name="B"]').fill('4194304');
  await page.waitForFunction(() => document.querySelector('sb-training-budget#estimate').shadowRoot
    .querySelector('[data-output="chips_usable"]').textContent.includes('4934'));
  assert.equal((await cell('comm_bound').textContent()).trim(), 'yes');
  assert.deepEqual(errors, []);
  await page.close();
});
