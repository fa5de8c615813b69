// Every plot of every chapter as a reader sees it: on a 390 px phone its text is at least 11 px
// on screen, and at 1280 px and 390 px no two labels overlap (tick labels, titles, roof and
// point labels alike).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

const PAGES = ['01-roofline.html', '03-sharding.html', '05-training.html'];
const PLOTS = 'sb-roofline-plot, sb-batch-sweep, sb-collective-sweep';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

// Each visible text of each plot: its size on screen and its box; the pairs of texts whose
// boxes overlap by more than a pixel each way.
const measure = (page) => page.evaluate((selector) => [...document.querySelectorAll(selector)].map((host, i) => {
  const svg = host.shadowRoot.querySelector('.plot svg');
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.getBBox().width > 0 && getComputedStyle(t).display !== 'none');
  const boxes = texts.map((t) => ({ text: t.textContent.trim(), size: parseFloat(getComputedStyle(t).fontSize), box: t.getBoundingClientRect() }));
  const overlaps = [];
  for (let a = 0; a < boxes.length; a++) {
    for (let b = a + 1; b < boxes.length; b++) {
      const p = boxes[a].box;
      const q = boxes[b].box;
      const dx = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const dy = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (dx > 1 && dy > 1) overlaps.push(`"${boxes[a].text}" on "${boxes[b].text}"`);
    }
  }
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const small = boxes.filter((b) => b.size * scale < 11).map((b) => `"${b.text}" ${(b.size * scale).toFixed(1)}px`);
  return { plot: `${host.localName}#${i}`, overlaps, small };
}), PLOTS);

for (const url of PAGES) {
  for (const width of [1280, 390]) {
    test(`${url} at ${width} px: plot labels do not overlap${width < 500 ? ' and read at 11 px or more' : ''}`, async () => {
      const { page } = await site.open(url, { width, height: 900 });
      await page.waitForLoadState('networkidle');
      const plots = await measure(page);
      assert.ok(plots.length > 0);
      assert.deepEqual(plots.filter((p) => p.overlaps.length).map((p) => `${p.plot}: ${p.overlaps.join(', ')}`), []);
      if (width < 500) assert.deepEqual(plots.filter((p) => p.small.length).map((p) => `${p.plot}: ${p.small.join(', ')}`), []);
      await page.close();
    });
  }
}
