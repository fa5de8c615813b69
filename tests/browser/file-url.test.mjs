// The book opened from disk (file://): browsers run no module script there, so no element can
// compute. Every element says so in its own box, with how to serve the book, and its fields are
// disabled, so nothing looks live while being dead.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { start } from './harness.mjs';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

for (const name of ['01-roofline.html', '03-sharding.html']) {
  test(`${name} from file:// says on every element that it needs a server, and disables its fields`, async () => {
    const page = await site.browser.newPage();
    await page.goto(pathToFileURL(path.join(DIST, name)).href);
    await page.waitForLoadState('load');
    const report = await page.evaluate(() => [...document.querySelectorAll('*')]
      .filter((el) => el.localName.startsWith('sb-'))
      .map((el) => {
        const root = el.shadowRoot ?? el;
        const note = root.querySelector('.sb-file-notice');
        const live = [...root.querySelectorAll('input, select, textarea, button')].filter((f) => !f.disabled).length;
        return { tag: el.localName, note: note?.textContent ?? '', shown: Boolean(note?.offsetHeight), live };
      }));
    assert.ok(report.length > 5);
    for (const r of report) {
      assert.match(r.note, /needs a web server.*scripts\/serve.*http:\/\/127\.0\.0\.1:8000\//, r.tag);
      assert.equal(r.shown, true, r.tag);
      assert.equal(r.live, 0, `${r.tag} has live fields`);
    }
    await page.close();
  });
}

test('from file:// a worked solution is a link to the solutions page, which opens from disk too', async () => {
  const page = await site.browser.newPage();
  await page.goto(pathToFileURL(path.join(DIST, '01-roofline.html')).href);
  const ex = 'sb-exercise#roofline-ex3-critical-batch';
  await page.click(`${ex} [data-show-solution]`);
  await page.click(`${ex} [data-solution] a`);
  assert.equal(path.basename(new URL(page.url()).pathname), '01-roofline-solutions.html');
  assert.match(await page.locator('[id="roofline-ex3-critical-batch-a-solution"]').textContent(), /Answer: 240\.2 tokens/);
  await page.close();
});
