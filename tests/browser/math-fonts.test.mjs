// The build cuts KaTeX's fonts down to the characters the site shows (web/builder/fonts.mjs). A
// character left out would not fail loudly: the browser would draw it in a system font. So
// Chromium is asked which fonts drew each formula's text, on the book's pages and on exercise
// variants typeset in the browser, with every hint and solution open.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

// Each family that drew text in a formula, with what it drew where it is not KaTeX's.
async function fontsUsed(page) {
  await page.evaluate(() => {
    document.querySelectorAll('details').forEach((d) => { d.open = true; });
    for (const el of document.querySelectorAll('.katex-html *')) {
      if ([...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.trim())) el.setAttribute('data-font-check', '');
    }
  });
  await page.evaluate(() => document.fonts.ready);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '[data-font-check]' });
  const families = new Set();
  const strays = [];
  for (const nodeId of nodeIds) {
    for (const font of (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts) {
      families.add(font.familyName);
      if (!font.familyName.startsWith('KaTeX_')) {
        const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
        strays.push(`${font.familyName}: ${outerHTML.slice(0, 120)}`);
      }
    }
  }
  await cdp.detach();
  return { count: nodeIds.length, families, strays };
}

// The worked solutions of the book's problems, on each chapter's solutions page.
for (const url of ['01-roofline-solutions.html', '03-sharding-solutions.html', '05-training-solutions.html']) {
  test(`${url}: every worked solution's formulas are drawn in KaTeX's fonts`, async () => {
    const { page, errors } = await site.open(url);
    await page.waitForLoadState('networkidle');
    const built = await fontsUsed(page);
    assert.ok(built.count > 100 && built.families.has('KaTeX_Main') && built.families.has('KaTeX_Math'));
    assert.deepEqual(built.strays, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const url of ['01-roofline.html', '03-sharding.html', '05-training.html']) {
  test(`${url}: every formula's text, as built and in exercise variants, is drawn in KaTeX's fonts`, async () => {
    const { page, errors } = await site.open(url);
    await page.waitForLoadState('networkidle');
    const built = await fontsUsed(page);
    assert.ok(built.count > 100 && built.families.has('KaTeX_Main') && built.families.has('KaTeX_Math'));
    assert.deepEqual(built.strays, []);
    // Variant 7 of every exercise on the page, typeset by the browser's KaTeX.
    const ids = await page.locator('sb-exercise').evaluateAll((els) => els.map((el) => el.id));
    assert.ok(ids.length > 0);
    const shown = await site.open(`${url}#${ids.map((id) => `ex-${id}=7`).join('&')}`);
    await shown.page.waitForFunction(() => [...document.querySelectorAll('sb-exercise')].every((el) =>
      el.querySelector('[data-variant-name]')?.textContent === 'Variant 7' && !el.classList.contains('is-loading')), null, { timeout: 20000 });
    await shown.page.waitForLoadState('networkidle');
    const variants = await fontsUsed(shown.page);
    assert.ok(variants.count > 100);
    assert.deepEqual(variants.strays, []);
    assert.deepEqual([...errors, ...shown.errors], []);
    await page.close();
    await shown.page.close();
  });
}

// A chapter's formulas come from its own cut of each font (web/builder/page-fonts.mjs); the
// site-wide cut is fetched only for a character its static math lacks, and draws it.
test("01-roofline.html: a first visit fetches only the page's own fonts, and a letter its math lacks the site-wide one", async () => {
  const { page, errors } = await site.open('01-roofline.html', undefined, { reached: false });
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
  const fonts = () => page.evaluate(() => performance.getEntriesByType('resource')
    .map((e) => new URL(e.name).pathname.replace('/assets/katex/fonts/', '')).filter((name) => name.endsWith('.woff2')));
  const first = await fonts();
  assert.deepEqual(first.filter((name) => !/^KaTeX_[\w-]+\.[0-9a-f]{10}\.woff2$/.test(name)), []);
  assert.deepEqual(first.map((name) => name.replace(/\..*/, '')).sort(), ['KaTeX_Main-Regular', 'KaTeX_Math-Italic']);
  // An italic K, which no formula of chapter 1 draws.
  await page.evaluate(() => {
    const math = document.createElement('span');
    math.className = 'katex';
    math.innerHTML = '<span class="katex-html"><span class="mord mathnormal" data-font-check>K</span></span>';
    document.querySelector('main p').append(math);
  });
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/KaTeX_Math-Italic.woff2')));
  await page.evaluate(() => document.fonts.ready);
  assert.deepEqual(await page.evaluate(() => [...document.fonts]
    .filter((f) => f.family.replace(/"/g, '') === 'KaTeX_Math' && f.style === 'italic' && f.weight === '400').map((f) => f.status)), ['loaded', 'loaded']);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-font-check]' });
  assert.deepEqual((await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts.map((f) => f.familyName), ['KaTeX_Math']);
  await cdp.detach();
  assert.deepEqual((await fonts()).filter((name) => !first.includes(name)), ['KaTeX_Math-Italic.woff2']);
  assert.deepEqual(errors, []);
  await page.close();
});
