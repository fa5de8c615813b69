// The search box in every page's header: nothing of it loaded with the page, results as links
// under the box (arrows move through them, Enter follows, Escape closes), the count announced,
// fitting a phone, and working under the strict Content-Security-Policy the site moves to.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { SHOTS, start } from './harness.mjs';

// Evaluated through the DevTools protocol: the pages' CSP refuses an injected script tag.
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const SECTION = '01-roofline.html#the-critical-token-batch';
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; object-src 'none'; base-uri 'none'";

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

const searchRequests = (page) => page.evaluate(() => performance.getEntriesByType('resource')
  .map((e) => e.name).filter((name) => /search-index\.json|\/assets\/search-panel-/.test(name)));

// Types `query` into the box and waits for its results (or its "no match").
async function search(page, query) {
  const box = page.getByRole('searchbox', { name: 'Search the book' });
  await box.click();
  await box.fill(query);
  await page.locator('.search-results:not([hidden]) .search-status').filter({ hasNotText: 'Loading' }).waitFor();
  return box;
}

test('the search box is shown once the script runs, and nothing of the search is fetched before it is used', async () => {
  const { page, errors } = await site.open('02-tpus.html');
  await page.waitForLoadState('networkidle');
  const box = page.getByRole('searchbox', { name: 'Search the book' });
  assert.ok(await box.isVisible());
  assert.equal(await page.getByRole('search').count(), 1);
  assert.deepEqual(await searchRequests(page), []);
  await box.focus();
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/search-index.json')));
  assert.equal((await searchRequests(page)).length, 2, 'the chunk and the index, once focused');
  assert.deepEqual(errors, []);
  await page.close();
});

test('"critical batch" lists chapter 1\'s section first, with a snippet, and Enter goes there', async () => {
  const { page, errors } = await site.open('02-tpus.html');
  await search(page, 'critical batch');
  const results = page.locator('.search-results a.search-result');
  const count = await results.count();
  assert.ok(count >= 2 && count <= 8, `${count} results`);
  const first = results.first();
  assert.equal(await first.getAttribute('href'), SECTION);
  assert.equal(await first.locator('.search-where').textContent(), '1. Rooflines');
  assert.equal(await first.locator('.search-title').textContent(), 'The critical token batch');
  assert.deepEqual([...new Set((await first.locator('mark').allTextContents()).map((t) => t.toLowerCase()))].sort(), ['batch', 'critical']);
  // Announced politely once typing pauses.
  await page.waitForFunction(() => /^\d+ sections match$/.test(document.querySelector('form[role="search"] [role="status"]')?.textContent ?? ''));
  assert.equal(await page.locator('form[role="search"] [role="status"]').getAttribute('aria-live'), 'polite');
  await page.screenshot({ path: path.join(SHOTS, 'search-desktop.png') });
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/${SECTION}`);
  assert.ok(await page.evaluate(() => Math.abs(document.getElementById('the-critical-token-batch').getBoundingClientRect().top) < 50),
    'the section is scrolled to');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Down and Up move through the results and back to the box, Enter follows the one focused, Escape closes', async () => {
  const { page, errors } = await site.open('index.html');
  const box = await search(page, 'roofline');
  const results = page.locator('.search-results a.search-result');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'search-result');
  await page.keyboard.press('ArrowDown');
  const second = await results.nth(1).getAttribute('href');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('href')), second);
  await page.keyboard.press('Escape'); // from a result: closes, and back to the box
  assert.ok(await page.locator('.search-results').isHidden());
  assert.equal(await page.evaluate(() => document.activeElement.id), 'site-search');
  await page.keyboard.type('s'); // typing opens them again
  await results.first().waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'site-search');
  await page.keyboard.press('Escape');
  assert.ok(await page.locator('.search-results').isHidden());
  assert.equal(await box.inputValue(), 'rooflines', 'the first Escape keeps what was typed');
  await page.keyboard.press('ArrowDown'); // nothing to move to while closed
  assert.equal(await page.evaluate(() => document.activeElement.id), 'site-search');
  await page.locator('main h1').click();
  await box.focus(); // coming back to the box opens its results again
  await results.first().waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const target = await page.evaluate(() => document.activeElement.getAttribute('href'));
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/${target}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a result for a heading whose id the page percent-encodes (a "?" in it) leads to that heading when clicked', async () => {
  const { page, errors } = await site.open('index.html');
  await search(page, 'where does the time go');
  const first = page.locator('.search-results a.search-result').first();
  assert.equal(await first.getAttribute('href'), '01-roofline.html#where-does-the-time-go%3F');
  await first.click();
  await page.waitForURL('**/01-roofline.html#where-does-the-time-go%3F');
  assert.ok(await page.evaluate(() => Math.abs(document.getElementById('where-does-the-time-go%3F').getBoundingClientRect().top) < 50));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a search that finds nothing says so, and clicking elsewhere closes the results', async () => {
  const { page, errors } = await site.open('03-sharding.html');
  await search(page, 'zqxjv');
  assert.equal(await page.locator('.search-results .search-status').textContent(), 'No section matches');
  assert.equal(await page.locator('.search-results a').count(), 0);
  await page.waitForFunction(() => document.querySelector('form[role="search"] [role="status"]')?.textContent === 'No section matches');
  await page.locator('main h1').click();
  assert.ok(await page.locator('.search-results').isHidden());
  assert.deepEqual(errors, []);
  await page.close();
});

for (const scheme of ['light', 'dark']) {
  test(`on a 390-pixel phone the header and the open results fit without scrolling sideways (${scheme})`, async () => {
    const page = await site.browser.newPage({ viewport: PHONE, colorScheme: scheme });
    await page.goto(`${site.base}/01-roofline.html`);
    await search(page, 'critical batch');
    const fit = await page.evaluate(() => {
      const results = document.querySelector('.search-results').getBoundingClientRect();
      return { scroll: document.documentElement.scrollWidth, left: results.left, right: results.right };
    });
    assert.ok(fit.scroll <= 390, `page ${fit.scroll} px wide`);
    assert.ok(fit.left >= 0 && fit.right <= 390, `results from ${fit.left} to ${fit.right} px`);
    await page.screenshot({ path: path.join(SHOTS, `search-phone-${scheme}.png`) });
    await page.close();
  });
}

for (const [scheme, viewport] of [['light', DESKTOP], ['dark', DESKTOP], ['light', PHONE], ['dark', PHONE]]) {
  test(`axe finds no violations with the results open, a result focused, ${scheme}, ${viewport.width} px wide`, async () => {
    const page = await site.browser.newPage({ viewport, colorScheme: scheme });
    await page.goto(`${site.base}/02-tpus.html`);
    await search(page, 'critical batch');
    await page.keyboard.press('ArrowDown');
    await page.screenshot({ path: path.join(SHOTS, `search-focused-${scheme}-${viewport.width}.png`) });
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => (await window.axe.run(document)).violations
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' > ')).slice(0, 3).join(' | ')}`));
    assert.deepEqual(violations, []);
    await page.close();
  });
}

test('the search works under the strict Content-Security-Policy and causes no violation', async () => {
  const page = await site.browser.newPage();
  await page.route('**/*', async (route) => {
    const response = await route.fetch();
    // The body comes decoded: its encoding and length headers no longer apply.
    const headers = Object.fromEntries(Object.entries(response.headers())
      .filter(([name]) => name !== 'content-encoding' && name !== 'content-length'));
    await route.fulfill({ response, headers: { ...headers, 'content-security-policy': CSP } });
  });
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  await page.goto(`${site.base}/04-transformers.html`);
  await page.waitForLoadState('networkidle');
  // The pages themselves still carry inline styles (being moved out on main): count only what
  // the search adds.
  const before = await page.evaluate(() => window.violations.length);
  await search(page, 'critical batch');
  assert.equal(await page.locator('.search-results a.search-result').first().getAttribute('href'), SECTION);
  assert.deepEqual(await page.evaluate((n) => window.violations.slice(n), before), []);
  await page.close();
});
