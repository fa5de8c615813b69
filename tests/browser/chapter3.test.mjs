// Chapter 3 as a reader meets it: the page loads clean, its exercises grade numeric and
// multiple-choice answers against the engine, and nothing spills sideways on a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, SHOTS } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';

const CHAPTER = '03-sharding.html';
let site;
let engine;
before(async () => {
  site = await start();
  engine = await loadEngine();
});
after(async () => { await site?.stop(); });

async function answer(page, ex, part, text) {
  const box = `sb-exercise#${ex} .sb-exercise-part[data-part="${part}"]`;
  await page.locator(`sb-exercise#${ex} [data-variant-bar]`).waitFor({ state: 'visible' });
  const feedback = page.locator(`${box} [data-feedback]`);
  await feedback.evaluate((el) => { el.textContent = ''; delete el.dataset.result; });
  if (await page.locator(`${box}[data-kind="choice"]`).count()) await page.check(`${box} input[value="${text}"]`);
  else await page.fill(`${box} [data-answer]`, text);
  await page.click(`${box} [data-check]`);
  await page.waitForFunction((el) => el.dataset.result, await feedback.elementHandle());
  return feedback.getAttribute('data-result');
}

test('chapter 3 loads with its widgets live and no console errors', async () => {
  const { page, errors } = await site.open(CHAPTER);
  await page.locator('sb-sharded-matmul').first().scrollIntoViewIfNeeded(); // the engine comes when a reader gets there
  await page.waitForFunction(() => document.querySelector('sb-sharded-matmul')?.lastRun);
  for (const tag of ['sb-sharding', 'sb-sharded-matmul', 'sb-collective-sim', 'sb-collective']) {
    assert.equal(await page.locator(tag).count() > 0, true, tag);
  }
  assert.equal(await page.locator('sb-exercise').count(), 18);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the AllGather quiz grades the engine’s times and its latency-bound choice', async () => {
  const { page } = await site.open(CHAPTER);
  const ring = engine.calculate('collective', { op: 'all-gather', bytes: 2 * 2048 * 8192, axis_size: 4, wraparound: 'yes' });
  const line = engine.calculate('collective', { op: 'all-gather', bytes: 2 * 2048 * 8192, axis_size: 4 });
  assert.equal(await answer(page, 'sharding-pq3-allgather-time', 'a', `${(ring.time * 1e6).toFixed(0)} us`), 'correct');
  // The ideal ring's time is not the answer without wraparound.
  assert.equal(await answer(page, 'sharding-pq3-allgather-time', 'b', `${(ring.time * 1e6).toFixed(0)} us`), 'incorrect');
  assert.equal(await answer(page, 'sharding-pq3-allgather-time', 'b', `${(line.time * 1e3).toFixed(3)} ms`), 'correct');
  assert.equal(await answer(page, 'sharding-pq3-allgather-time', 'd', 'bandwidth'), 'incorrect');
  assert.equal(await answer(page, 'sharding-pq3-allgather-time', 'd', 'latency'), 'correct');
  // Garbage in the box is feedback, not a crash.
  assert.equal(await answer(page, 'sharding-pq3-allgather-time', 'c', 'three microseconds'), 'invalid');
  await page.close();
});

test('the layouts question takes the planner’s cases', async () => {
  const { page } = await site.open(CHAPTER);
  const ex = 'sharding-q6-three-layouts';
  assert.equal(await answer(page, ex, 'a', '3'), 'correct');
  assert.equal(await answer(page, ex, 'c', '4'), 'incorrect');
  assert.equal(await answer(page, ex, 'c', '2'), 'correct');
  assert.equal(await answer(page, ex, 'd', '1'), 'correct');
  await page.close();
});

test('on a phone chapter 3 does not scroll sideways', async () => {
  const { page, errors } = await site.open(CHAPTER, { width: 390, height: 844 });
  await page.locator('sb-sharded-matmul').first().scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('sb-sharded-matmul')?.lastRun);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.equal(overflow, 0);
  await page.locator('sb-sharded-matmul').first().screenshot({ path: `${SHOTS}/chapter3-planner-phone.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
