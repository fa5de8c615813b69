// Every page under the strict Content-Security-Policy scripts/serve sends: no violation of any
// kind, the math laid out by classes instead of refused style attributes, and the calculators,
// simulators and grader working.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, reach } from './harness.mjs';
import { CONTENT_SECURITY_POLICY } from '../../web/builder/serve.mjs';

const PAGES = ['index.html', 'embed.html', '01-roofline.html', '02-tpus.html', '03-sharding.html', '04-transformers.html', '05-training.html', '06-applied-training.html',
  '07-inference.html', '08-applied-inference.html', '12-gpus.html', '03-sharding-solutions.html'];

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

// Opens `url` recording every violation the policy reports (the event fires for refused inline
// styles and scripts, eval, and blocked loads alike).
async function openWatched(url, viewport) {
  const page = await site.browser.newPage(viewport ? { viewport } : {});
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
    });
  });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  const response = await page.goto(`${site.base}/${url}`);
  await reach(page);
  return { page, errors, response };
}

// Every element has started: none still shows the loading line or the build's busy form.
async function settled(page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => [...document.querySelectorAll('*')]
    .filter((el) => el.localName.startsWith('sb-') && el.shadowRoot)
    .every((el) => !el.shadowRoot.querySelector('.loading, [aria-busy="true"], .sb-engine-status')));
}

test('the server sends the strict policy with every page', async () => {
  const { page, response } = await openWatched('index.html');
  assert.equal(response.headers()['content-security-policy'], CONTENT_SECURITY_POLICY);
  await page.close();
});

for (const url of PAGES) {
  test(`${url} runs under the policy with no violation`, async () => {
    const { page, errors } = await openWatched(url);
    await settled(page);
    assert.deepEqual(await page.evaluate(() => window.violations), []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('math keeps its layout without style attributes: struts and fraction bars are sized by classes', async () => {
  const { page } = await openWatched('04-transformers.html');
  const sizes = await page.evaluate(() => {
    const strut = document.querySelector('.katex .katex-strut');
    const line = document.querySelector('.katex .frac-line');
    return {
      styled: document.querySelectorAll('.katex [style]').length,
      strut: parseFloat(getComputedStyle(strut).height),
      line: parseFloat(getComputedStyle(line).borderBottomWidth),
    };
  });
  assert.equal(sizes.styled, 0);
  assert.ok(sizes.strut > 5, `a strut is ${sizes.strut}px high`);
  assert.ok(sizes.line > 0, 'a fraction bar is drawn');
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  await page.close();
});

test('a calculator recomputes, a simulator steps and an exercise grades under the policy', async () => {
  const { page } = await openWatched('01-roofline.html');
  await settled(page);
  const calc = page.locator('sb-matmul').first();
  const out = calc.locator('[data-output="critical_batch"]');
  const before = await out.textContent();
  await calc.locator('select[name="chip"]').selectOption('h100');
  await page.waitForFunction(([el, was]) => el.textContent !== was, [await out.elementHandle(), before]);
  const ex = 'sb-exercise#roofline-ex3-critical-batch';
  await page.fill(`${ex} .sb-exercise-part[data-part="a"] [data-answer]`, '240');
  await page.click(`${ex} .sb-exercise-part[data-part="a"] [data-check]`);
  const feedback = page.locator(`${ex} .sb-exercise-part[data-part="a"] [data-feedback]`);
  await page.waitForFunction((el) => el.dataset.result, await feedback.elementHandle());
  assert.equal(await feedback.getAttribute('data-result'), 'correct');
  // A variant is typeset in the browser: its formulas get their layout from a constructed sheet.
  await page.click(`${ex} [data-new-variant]`);
  await page.locator(`${ex} [data-variant-name]`).filter({ hasText: 'Variant' }).waitFor();
  const strut = await page.evaluate((sel) => {
    const s = document.querySelector(`${sel} [data-prompt] .katex .katex-strut`);
    return { height: parseFloat(getComputedStyle(s).height), styled: s.hasAttribute('style') };
  }, ex);
  assert.equal(strut.styled, false);
  assert.ok(strut.height > 5, `a variant's strut is ${strut.height}px high`);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  await page.close();

  const sim = await openWatched('02-tpus.html');
  await settled(sim.page);
  const cycle = sim.page.locator('sb-systolic-sim [data-stat="cycle"]').first();
  const was = await cycle.textContent();
  await sim.page.locator('sb-systolic-sim [data-action="step"]').first().click();
  await sim.page.waitForFunction(([el, w]) => el.textContent !== w, [await cycle.elementHandle(), was]);
  // The grid's least width is data-driven: set through the CSSOM, not a refused attribute.
  const minWidth = await sim.page.locator('sb-systolic-sim svg.pe-grid').first().evaluate((svg) => svg.style.minWidth);
  assert.match(minWidth, /rem$/);
  assert.deepEqual(await sim.page.evaluate(() => window.violations), []);
  await sim.page.close();
});
