// Chapter 1 as a reader uses it: typeset math, a live calculator and plot, graded exercises.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, SHOTS } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

async function outputText(page, host, name) {
  return (await page.locator(`${host} [data-output="${name}"]`).textContent()).trim();
}

test('chapter 1 loads with typeset math and no console errors', async () => {
  const { page, errors } = await site.open('01-roofline.html');
  await page.waitForLoadState('networkidle');
  assert.equal(await page.locator('h1').first().textContent(), 'Rooflines');
  assert.ok(await page.locator('.katex').count() > 20);
  assert.equal(await page.locator('.katex-error').count(), 0);
  // The build-time values are in the page before any script runs.
  const value = page.locator('.sb-value[data-source="roofline.critical_intensity chip=tpu-v5e"]').first();
  assert.equal(await value.evaluate((el) => el.firstChild.textContent), '240');
  // Its source opens on focus (a keyboard, a tap), not only on hover.
  const note = value.locator('.sb-source');
  assert.equal(await note.isVisible(), false);
  await value.focus();
  assert.equal(await note.isVisible(), true);
  assert.match(await note.textContent(), /^Critical intensity on the TPU v5e, worked out by the roofline calculator\. scalebook calc roofline chip=tpu-v5e$/);
  await page.screenshot({ path: path.join(SHOTS, 'chapter-1.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the index lists 13 sections, all but chapters 1 to 8 and 12 coming', async () => {
  const { page, errors } = await site.open('index.html');
  assert.equal(await page.locator('ol.sections > li').count(), 13);
  assert.equal(await page.locator('ol.sections .coming').count(), 4);
  await page.click('ol.sections a:text-is("Rooflines")');
  await page.waitForURL(/01-roofline\.html$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('changing the chip, dtype or sizes updates the roofline calculator and its plot', async () => {
  const { page, errors } = await site.open('01-roofline.html');
  const host = 'sb-roofline#roof';
  assert.equal(await outputText(page, host, 't_compute'), '5.08 ms');
  const point = page.locator('sb-roofline-plot[for="roof"] [data-point-x]');
  const before = await point.getAttribute('data-point-x');
  await page.fill(`${host} input[name="flops"]`, '1e10');
  await page.waitForFunction(() => document.querySelector('sb-roofline#roof').shadowRoot
    .querySelector('[data-output="t_compute"]').textContent.trim() === '50.8 µs');
  assert.equal(await outputText(page, host, 'bound'), 'memory');
  assert.notEqual(await point.getAttribute('data-point-x'), before);
  await page.selectOption(`${host} select[name="chip"]`, 'h100');
  await page.waitForFunction(() => document.querySelector('sb-roofline#roof').shadowRoot
    .querySelector('[data-output="critical_intensity"]').textContent.trim() === '295 FLOP/B');
  await page.selectOption(`${host} select[name="dtype"]`, 'fp8');
  await page.waitForFunction(() => document.querySelector('sb-roofline#roof').shadowRoot
    .querySelector('[data-output="peak_flops"]').textContent.trim() === '1.98 PFLOP/s');
  await page.locator(host).screenshot({ path: path.join(SHOTS, 'roofline-calculator.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the calculator forms file inputs by the schema: formats are main inputs, chip numbers under "Your own chip"', async () => {
  const { page, errors } = await site.open('01-roofline.html');
  await page.waitForFunction(() => customElements.get('sb-roofline'));
  // The fieldset an input sits in, its legend, and the <details> summary around it (if any).
  const groupOf = (host, name) => page.evaluate(([h, n]) => {
    const field = document.querySelector(h).shadowRoot.querySelector(`[name="${n}"]`);
    const fieldset = field.closest('fieldset');
    return {
      group: fieldset?.dataset.group ?? null,
      preset: fieldset?.dataset.preset ?? null,
      legend: fieldset?.querySelector('legend')?.textContent ?? null,
      summary: field.closest('details')?.querySelector('summary')?.textContent ?? null,
    };
  }, [host, name]);
  const chipGroup = { group: 'override', preset: 'chip', legend: 'Your own chip', summary: 'Your own chip' };
  const roof = 'sb-roofline#roof';
  assert.deepEqual(await groupOf(roof, 'dtype'), { group: 'main', preset: null, legend: 'Inputs', summary: null });
  assert.deepEqual(await groupOf(roof, 'hbm_bandwidth'), chipGroup);
  assert.deepEqual(await groupOf(roof, 'peak_flops'), chipGroup);
  assert.deepEqual(await groupOf(roof, 'memory'), { group: 'advanced', preset: null, legend: 'Advanced', summary: 'Advanced' });
  // The same through the accessibility tree: the chip group holds hbm_bandwidth, not the dtype.
  const own = page.locator(roof).getByRole('group', { name: 'Your own chip', includeHidden: true });
  assert.equal(await own.locator('[name="hbm_bandwidth"]').count(), 1);
  assert.equal(await own.locator('[name="dtype"]').count(), 0);
  // Fields are named by the schema's labels; choices show their labels, valued by the choice.
  assert.equal(await page.locator(roof).getByRole('combobox', { name: 'Compute dtype', exact: true }).getAttribute('name'), 'dtype');
  assert.equal(await page.locator(roof).getByRole('textbox', { name: 'HBM bandwidth (B/s)', includeHidden: true }).getAttribute('name'), 'hbm_bandwidth');
  assert.deepEqual(await page.locator(`${roof} select[name="memory"] option`).evaluateAll((os) => os.map((o) => [o.value, o.textContent])),
    [['hbm', 'HBM'], ['vmem', 'VMEM']]);
  // The matmul's weight and activation formats sit with the main inputs, not with the chip's.
  const mm = 'sb-matmul#mm';
  for (const name of ['dtype', 'dtype_weights', 'dtype_activations', 'B']) assert.equal((await groupOf(mm, name)).group, 'main', name);
  assert.deepEqual(await groupOf(mm, 'hbm_bandwidth'), chipGroup);
  assert.equal(await page.locator(mm).getByRole('combobox', { name: 'Weights dtype', exact: true }).getAttribute('name'), 'dtype_weights');
  assert.deepEqual(errors, []);
  await page.close();
});

test('invalid input shows a message beside the field and keeps the last results', async () => {
  const { page } = await site.open('01-roofline.html');
  const host = 'sb-roofline#roof';
  await page.fill(`${host} input[name="bytes"]`, '-5');
  const message = page.locator(`${host} [data-error-for="bytes"]`);
  await message.waitFor({ state: 'visible' });
  assert.equal((await message.textContent()).trim(), 'bytes must be > 0, got -5');
  assert.equal(await outputText(page, host, 't_compute'), '5.08 ms');
  await page.fill(`${host} input[name="bytes"]`, 'lots');
  await page.waitForFunction(() => document.querySelector('sb-roofline#roof').shadowRoot
    .querySelector('[data-error-for="bytes"]').textContent.includes('bytes must be a number, got "lots"'));
  await page.fill(`${host} input[name="bytes"]`, '2e9');
  await page.waitForFunction(() => document.querySelector('sb-roofline#roof').shadowRoot
    .querySelector('[data-error-for="bytes"]').textContent.trim() === '');
  assert.equal(await outputText(page, host, 't_memory'), '2.44 ms');
  const matmul = 'sb-matmul#mm';
  await page.fill(`${matmul} input[name="B"]`, '2.5');
  await page.waitForFunction(() => document.querySelector('sb-matmul#mm').shadowRoot
    .querySelector('[data-error-for="B"]').textContent.trim() === 'B must be a whole number, got 2.5');
  assert.doesNotMatch(await page.locator(matmul).textContent(), /NaN/);
  await page.close();
});

test('an exercise grades right and wrong answers and shows the worked solution', async () => {
  const { page, errors } = await site.open('01-roofline.html');
  const ex = 'sb-exercise#roofline-ex3-critical-batch';
  await page.locator(ex).scrollIntoViewIfNeeded();
  const feedback = page.locator(`${ex} [data-feedback]`);
  await page.fill(`${ex} [data-answer]`, '100');
  await page.click(`${ex} [data-check]`);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.trim() !== '', `${ex} [data-feedback]`);
  assert.match(await feedback.textContent(), /not quite/);
  await page.fill(`${ex} [data-answer]`, 'two hundred');
  await page.press(`${ex} [data-answer]`, 'Enter');
  await page.waitForFunction((sel) => /"two hundred" is not a number/.test(document.querySelector(sel).textContent), `${ex} [data-feedback]`);
  await page.fill(`${ex} [data-answer]`, '240');
  await page.click(`${ex} [data-check]`);
  await page.waitForFunction((sel) => /^correct/.test(document.querySelector(sel).textContent.trim()), `${ex} [data-feedback]`);
  const solution = page.locator(`${ex} [data-solution]`);
  assert.equal(await solution.isVisible(), false);
  // The worked solution comes from the chapter's solutions page, fetched on the first opening.
  const fetched = [];
  page.on('request', (r) => { if (/-solutions\.html$/.test(r.url())) fetched.push(r.url()); });
  assert.deepEqual(fetched, []);
  await page.click(`${ex} [data-show-solution]`);
  assert.equal(await solution.isVisible(), true);
  await solution.locator('.answer').waitFor();
  assert.deepEqual(fetched, [`${site.base}/01-roofline-solutions.html`]);
  // Only the steps that lead to the critical batch, each typeset.
  assert.deepEqual(await solution.locator('.step-label').allTextContents(),
    ['Critical intensity of the chip (bf16)', 'Critical batch (B much less than D, F)']);
  assert.equal(await solution.locator('.katex').count(), 2);
  assert.match(await solution.textContent(), /Answer: 240\.2 tokens/);
  await page.locator(ex).screenshot({ path: path.join(SHOTS, 'exercise.png') });
  // The H100 exercise (part a) asks for milliseconds.
  const h100 = 'sb-exercise#roofline-ex1-h100-time [data-part="a"]';
  await page.fill(`${h100} [data-answer]`, '1.01');
  await page.click(`${h100} [data-check]`);
  await page.waitForFunction((sel) => /^correct/.test(document.querySelector(sel).textContent.trim()), `${h100} [data-feedback]`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the chapter reads on a phone without sideways scrolling', async () => {
  const { page, errors } = await site.open('01-roofline.html', { width: 390, height: 844 });
  await page.waitForLoadState('networkidle');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.locator('sb-roofline#roof').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'chapter-1-phone.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a calculator dropped alone into a page with one script tag works', async () => {
  const { page, errors } = await site.open('embed.html');
  await page.waitForFunction(() => document.querySelector('sb-matmul')?.shadowRoot
    ?.querySelector('[data-output="critical_batch"]')?.textContent.trim() === '295 tokens');
  assert.equal(await outputText(page, 'sb-matmul', 'bound'), 'compute');
  await page.screenshot({ path: path.join(SHOTS, 'embed.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the batch sweep marks each knee where the engine puts it, and moves it with the formats', async () => {
  const { page, errors } = await site.open('01-roofline.html');
  const sweep = page.locator('sb-batch-sweep');
  await sweep.scrollIntoViewIfNeeded();
  const knees = () => sweep.locator('.knee').evaluateAll((els) => els.map((e) => e.dataset.knee));
  // The book's question 3 (int8 weights, bf16 activations, v5e): 136 for D=F=4096, 226 for 1024.
  assert.deepEqual(await knees(), ['136', '226']);
  await page.waitForFunction(() => customElements.get('sb-batch-sweep'));
  await sweep.locator('select[name="dtype_weights"]').selectOption('bf16');
  await page.waitForFunction(() => [...document.querySelector('sb-batch-sweep').shadowRoot
    .querySelectorAll('.knee')].map((e) => e.dataset.knee).join() !== '136,226');
  const [big] = await knees();
  assert.ok(Number(big) > 136, `bf16 weights move the knee right, got ${big}`);
  await sweep.screenshot({ path: path.join(SHOTS, 'batch-sweep.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('chapter 2 reads on a phone without sideways scrolling', async () => {
  const { page, errors } = await site.open('02-tpus.html', { width: 390, height: 844 });
  await page.waitForLoadState('networkidle');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: path.join(SHOTS, 'chapter-2-phone.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('what a field and an output mean shows on focus (tap or Tab), not only on hover', async () => {
  const { page, errors } = await site.open('01-roofline.html', { width: 390, height: 844 });
  await page.waitForLoadState('networkidle');
  const calc = page.locator('sb-roofline#roof');
  const help = calc.locator('#help-flops');
  assert.equal(await help.isVisible(), false);
  await calc.locator('input[name="flops"]').focus();
  assert.equal(await help.isVisible(), true);
  assert.equal(await help.textContent(), 'floating-point operations of the op');
  assert.match(await calc.locator('input[name="flops"]').getAttribute('aria-describedby'), /\bhelp-flops\b/);
  const out = calc.locator('.out:has([data-output="t_memory"])');
  await out.focus();
  assert.equal(await out.locator('.help').isVisible(), true);
  assert.equal(await out.locator('.help code').textContent(), 't_memory');
  assert.deepEqual(errors, []);
  await page.close();
});
