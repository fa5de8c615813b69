// Display math as a reader meets it: at 1280 px every formula fits the column; on a 390 px
// phone a formula that cannot fit sits in a box that a keyboard can focus and scroll, with a
// visible cue, and never widens the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

const CHAPTERS = ['01-roofline.html', '02-tpus.html', '03-sharding.html', '04-transformers.html', '05-training.html', '06-applied-training.html', '07-inference.html', '08-applied-inference.html', '12-gpus.html'];

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

// Each display formula's box: does it overflow, is it focusable, does it show the cue; and the
// formula's words (tex-speech) to name it in a failure.
const measure = (page) => page.evaluate(() => [...document.querySelectorAll('main .katex-block')].map((box) => ({
  words: (box.querySelector('.katex-mathml')?.textContent ?? '').slice(0, 90),
  over: box.scrollWidth - box.clientWidth,
  focusable: box.tabIndex === 0,
  cue: getComputedStyle(box, '::after').content !== 'none' && getComputedStyle(box).backgroundImage !== 'none',
})));

for (const url of CHAPTERS) {
  test(`${url}: every display formula fits the column at 1280 px`, async () => {
    const { page } = await site.open(url, { width: 1280, height: 900 });
    await page.waitForLoadState('load');
    const boxes = await measure(page);
    assert.ok(boxes.length > 0);
    assert.deepEqual(boxes.filter((b) => b.over > 1).map((b) => `${b.over}px over: ${b.words}`), []);
    await page.close();
  });

  test(`${url}: on a phone a formula fits or scrolls in a focusable box with a cue`, async () => {
    const { page } = await site.open(url, { width: 390, height: 844 });
    await page.waitForLoadState('load');
    const boxes = await measure(page);
    const wide = boxes.filter((b) => b.over > 1);
    assert.deepEqual(wide.filter((b) => !b.focusable || !b.cue).map((b) => b.words), []);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await page.close();
  });
}

// The solutions pages' steps are inline math in list items, which scroll inside themselves.
for (const url of CHAPTERS.map((c) => c.replace('.html', '-solutions.html'))) {
  test(`${url}: on a phone the worked solutions never widen the page`, async () => {
    const { page, errors } = await site.open(url, { width: 390, height: 844 });
    await page.waitForLoadState('load');
    assert.ok(await page.locator('.steps li').count() > 0);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// The cue is CSS alone (site.css: edge shadows on [data-scroll-focus], kept under the strict
// CSP), and the box is a keyboard's as much as a finger's: focused, the arrow keys scroll it.
test('05-training.html: on a phone a wide formula scrolls from the keyboard and shows an edge shadow', async () => {
  const { page } = await site.open('05-training.html', { width: 390, height: 844 });
  await page.waitForLoadState('load');
  const box = page.locator('main .katex-block[data-scroll-focus]').nth(1);
  await box.scrollIntoViewIfNeeded();
  assert.notEqual(await box.evaluate((el) => getComputedStyle(el).backgroundImage), 'none');
  await box.focus();
  for (let i = 0; i < 4; ++i) await page.keyboard.press('ArrowRight');
  await page.waitForFunction((el) => el.scrollLeft > 0, await box.elementHandle());
  await page.close();
});
