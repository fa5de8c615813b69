// axe-core over every page, light and dark, desktop and phone: zero violations. The
// sharding picture's block labels are checked for contrast by hand, since axe skips SVG text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { start } from './harness.mjs';

// Evaluated through the DevTools protocol: the pages' CSP refuses an injected script tag.
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PAGES = ['index.html', '01-roofline.html', '02-tpus.html', '03-sharding.html', '04-transformers.html', '05-training.html', '06-applied-training.html', '07-inference.html', '08-applied-inference.html', '12-gpus.html', 'embed.html',
  '01-roofline-solutions.html', '03-sharding-solutions.html', '05-training-solutions.html'];
const MODES = [
  ['light', { width: 1280, height: 800 }], ['dark', { width: 1280, height: 800 }],
  ['light', { width: 390, height: 844 }], ['dark', { width: 390, height: 844 }],
];

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

async function openPage(url, colorScheme, viewport) {
  const page = await site.browser.newPage({ viewport, colorScheme });
  await page.goto(`${site.base}/${url}`);
  await page.waitForLoadState('networkidle');
  return page;
}

for (const [scheme, viewport] of MODES) {
  test(`axe finds no violations on any page, ${scheme}, ${viewport.width} px wide`, async () => {
    const found = [];
    for (const url of PAGES) {
      const page = await openPage(url, scheme, viewport);
      await page.evaluate(AXE);
      // What a reader sees once an entrance animation ends (the speculative rounds fade in for
      // two seconds): axe measuring mid-fade reads a half-transparent colour.
      await page.evaluate(() => {
        const finish = (root) => {
          for (const el of root.querySelectorAll('*')) {
            for (const a of el.getAnimations()) { try { a.finish(); } catch { /* an endless one */ } }
            if (el.shadowRoot) finish(el.shadowRoot);
          }
        };
        finish(document);
      });
      const violations = await page.evaluate(async () => (await window.axe.run(document)).violations
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' > ')).slice(0, 3).join(' | ')}`));
      await page.close();
      found.push(...violations.map((v) => `${url} ${v}`));
    }
    assert.deepEqual(found, []);
  });
}

// WCAG 2 contrast of two CSS colours as the browser computed them (rgb() or rgba()).
function contrastIn(page, selector) {
  return page.evaluate((sel) => {
    const rgb = (text) => text.match(/[\d.]+/g).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((c) => {
      const v = c / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
    const over = (top, alpha, under) => top.map((c, i) => c * alpha + under[i] * (1 - alpha));
    const root = document.querySelector(sel).shadowRoot;
    return [...root.querySelectorAll('.mesh .block-label')].map((label) => {
      const block = label.previousElementSibling;
      const tile = label.closest('g')?.querySelector('.tile') ?? root.querySelector('.mesh .tile');
      const back = over(rgb(getComputedStyle(block).fill), Number(getComputedStyle(block).fillOpacity), rgb(getComputedStyle(tile).fill));
      const [a, b] = [lum(rgb(getComputedStyle(label).fill)), lum(back)];
      return { text: label.textContent, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
    });
  }, selector);
}

for (const scheme of ['light', 'dark']) {
  test(`every block label of the sharding picture reaches 4.5:1, ${scheme}`, async () => {
    const page = await openPage('03-sharding.html', scheme, { width: 1280, height: 800 });
    await page.waitForFunction(() => document.querySelector('sb-sharding')?.shadowRoot?.querySelector('.mesh .block-label'));
    const labels = await contrastIn(page, 'sb-sharding');
    await page.close();
    assert.ok(labels.length > 0);
    const low = labels.filter((l) => l.ratio < 4.5).map((l) => `${l.text} ${l.ratio.toFixed(2)}`);
    assert.deepEqual(low, []);
  });
}
