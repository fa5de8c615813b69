// Chapter 7's speculative estimator and KV-cache allocator as a reader uses them, on a scratch
// page of the two elements (placed as the chapter places them, ::calculator NAME): an edit
// redraws the plot, the rounds and the HBM bars with the engine's new numbers, and bad input
// is named beside its field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startScratch } from './harness.mjs';

let site;
before(async () => {
  site = await startScratch('07-inference', '# Inference\n\n::calculator speculative id=spec\n\n::calculator kv-allocator id=kv\n');
});
after(async () => { await site?.stop(); });

const shadow = (page, host, selector) => page.evaluate(([h, s]) =>
  [...document.querySelector(h).shadowRoot.querySelectorAll(s)].map((e) => e.textContent.trim()), [host, selector]);

test('a lower acceptance rate moves the best draft length and redraws the rounds', async () => {
  const { page, errors } = await site.open('07-inference.html');
  const host = 'sb-speculative#spec';
  await page.locator(host).scrollIntoViewIfNeeded();
  // alpha 0.8, k 4, c 0.05: (1 - 0.8^5) / 0.2 = 3.36 tokens a round over 1.2 steps, 2.8x; the
  // best k is 8, at 3.09x.
  assert.deepEqual(await shadow(page, host, '[data-output="speedup"], [data-output="best_k"]'), ['2.8 x', '8 tokens']);
  assert.deepEqual(await shadow(page, host, '.mark-label'), ['best k = 8', 'k = 4']);
  await page.fill(`${host} input[name="alpha"]`, '0.6');
  await page.waitForFunction(() => document.querySelector('sb-speculative#spec').shadowRoot
    .querySelector('.mark-label')?.textContent === 'best k = 4');
  // (1 - 0.6^5) / 0.4 = 2.31 tokens over 1.2 steps, 1.92x; k = 3 gives 1.89x, k = 5 1.91x, so
  // the k asked for is the best and is labelled once.
  assert.deepEqual(await shadow(page, host, '[data-output="speedup"], [data-output="best_k"]'), ['1.92 x', '4 tokens']);
  assert.deepEqual(await shadow(page, host, '.mark-label'), ['best k = 4']);
  // Every round keeps its drafts up to the first rejection, and yields them plus one token;
  // the summary adds the rounds up.
  const rounds = await page.evaluate(() => [...document.querySelector('sb-speculative#spec').shadowRoot.querySelectorAll('.round')]
    .map((r) => ({ marks: [...r.querySelectorAll('.tok:not(.target)')].map((t) => t.className.split(' ')[1]), yield: Number(r.querySelector('.yield').textContent) })));
  assert.equal(rounds.length, 5);
  let total = 0;
  for (const { marks, yield: y } of rounds) {
    assert.equal(marks.length, 4);
    const ok = marks.filter((m) => m === 'ok').length;
    assert.deepEqual(marks.slice(0, ok), Array(ok).fill('ok'));
    if (ok < 4) assert.deepEqual(marks.slice(ok), ['no', ...Array(3 - ok).fill('skip')]);
    assert.equal(y, ok + 1);
    total += y;
  }
  const summary = (await shadow(page, host, '[data-summary]'))[0];
  assert.match(summary, new RegExp(`^These 5 rounds gave ${total} tokens, .* the expectation is 2\\.31\\.$`));
  await page.fill(`${host} input[name="alpha"]`, '1.5');
  const message = page.locator(`${host} [data-error-for="alpha"]`);
  await message.waitFor({ state: 'visible' });
  assert.equal((await message.textContent()).trim(), 'alpha must be <= 1, got 1.5');
  assert.deepEqual(errors, []);
  await page.close();
});

test('fixed lengths in a shorter context redraw the padded and paged bars', async () => {
  const { page, errors } = await site.open('07-inference.html');
  const host = 'sb-kv-allocator#kv';
  await page.locator(host).scrollIntoViewIfNeeded();
  // LLaMA-2 13B on 8 v5e: 128 GB less 26 GB of weights; 819 kB a token. Slots of 8192 tokens
  // (6.71 GB): 15; exponential lengths of mean 1024 in pages of 16: 1032 tokens, 120.
  assert.deepEqual((await shadow(page, host, '.memory-bars .caption')).slice(0, 2),
    ['Padded to the context limit: 15 requests', 'Paged: 120 requests']);
  await page.locator(`${host} select[name="lengths"]`).selectOption('fixed');
  await page.fill(`${host} input[name="max_context"]`, '4096');
  await page.fill(`${host} input[name="mean"]`, '1000');
  await page.waitForFunction(() => document.querySelector('sb-kv-allocator#kv').shadowRoot
    .querySelector('.memory-bars .caption')?.textContent.includes('30 requests'));
  // 1.02e11 B / (4096 x 819200 B) = 30.4; pages: ceil(1000 / 16) 16 = 1008 tokens, 123.5.
  assert.deepEqual((await shadow(page, host, '.memory-bars .caption')).slice(0, 2),
    ['Padded to the context limit: 30 requests', 'Paged: 123 requests']);
  await page.fill(`${host} input[name="mean"]`, '5000');
  const message = page.locator(`${host} [data-error-for="mean"]`);
  await message.waitFor({ state: 'visible' });
  assert.equal((await message.textContent()).trim(), 'mean must be <= max_context (4096), got 5000');
  assert.deepEqual(errors, []);
  await page.close();
});
