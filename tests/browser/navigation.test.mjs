// Finding one's way: a skip link, the chapter's contents on a phone too, and the section
// being read marked in them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { SHOTS, start } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

test('the first Tab reaches the skip link, which moves focus to the text', async () => {
  const { page, errors } = await site.open('02-tpus.html');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the text');
  assert.ok(await page.evaluate(() => document.activeElement.getBoundingClientRect().top >= 0), 'visible when focused');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'chapter-2');
  assert.deepEqual(errors, []);
  await page.close();
});

for (const scheme of ['light', 'dark']) {
  test(`on a phone the chapter's contents are shown, and the section in view is marked (${scheme})`, async () => {
    const page = await site.browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: scheme });
    await page.goto(`${site.base}/01-roofline.html`);
    const contents = page.locator('nav.contents');
    assert.ok(await contents.isVisible());
    const links = contents.locator('a');
    assert.ok(await links.count() >= 3);
    await page.screenshot({ path: path.join(SHOTS, `contents-phone-${scheme}.png`) });
    const third = links.nth(2);
    const target = decodeURIComponent((await third.getAttribute('href')).slice(1));
    await page.evaluate((id) => document.getElementById(id).scrollIntoView(), target);
    await page.waitForFunction((id) => document.querySelector(`nav.contents a[href="#${CSS.escape(id)}"]`)
      ?.getAttribute('aria-current') === 'location', target);
    assert.equal(await contents.locator('a[aria-current]').count(), 1);
    await page.close();
  });
}
