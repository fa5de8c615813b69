// The chapter 2 catalog widgets in a browser: the sortable chip table, the torus picture and
// "my chip", on a small site built from a temporary chapter that uses their directives.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { SHOTS } from './harness.mjs';
import { buildSite } from '../../web/builder/build.mjs';
import { serve } from '../../web/builder/serve.mjs';

const CHAPTER = `# Catalog widgets

::chip-table

A slice:

::slice chip=tpu-v5e shape=8x16

Your chip (::my-chip once directives.mjs registers it; the element renders itself meanwhile):

<sb-my-chip>
</sb-my-chip>

A calculator:

::calculator roofline id=roof chip=tpu-v5e flops=1e12 bytes=1e9
`;

let server;
let browser;
let base;

before(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-ch2-'));
  fs.mkdirSync(path.join(dir, 'chapters'));
  fs.mkdirSync(path.join(dir, 'exercises'));
  fs.writeFileSync(path.join(dir, 'chapters/toc.json'), JSON.stringify({
    title: 'T', subtitle: 'S', sections: [{ number: 2, slug: '02-x', title: 'X', summary: 'x', file: 'x.md' }],
  }));
  fs.writeFileSync(path.join(dir, 'chapters/x.md'), CHAPTER);
  const out = path.join(dir, 'dist');
  await buildSite({ chaptersDir: path.join(dir, 'chapters'), exercisesDir: path.join(dir, 'exercises'), out });
  server = await serve({ dir: out, port: 0 });
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

async function open(viewport = { width: 1280, height: 900 }, context = null) {
  const page = await (context ?? browser).newPage(context ? undefined : { viewport });
  if (context) await page.setViewportSize(viewport);
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}/02-x.html`);
  return { page, errors };
}

const rowOrder = (page) => page.locator('sb-chip-table tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.chip));

test('the chip table reads before scripts and sorts by a clicked heading', async () => {
  const { page, errors } = await open();
  const static_ = await (await fetch(`${base}/02-x.html`)).text();
  assert.match(static_, /<sb-chip-table><template shadowrootmode="open">[^]*<td data-field="peak_flops_bf16" data-value="197000000000000" data-kind="number" tabindex="0" title="chapter 2 spec table/);
  await page.waitForFunction(() => customElements.get('sb-chip-table'));
  const before = await rowOrder(page);
  assert.equal(before[0], 'tpu-v5e');
  const header = page.locator('sb-chip-table th[data-column="hbm_bandwidth"]');
  await header.locator('button').click();
  assert.equal(await header.getAttribute('aria-sort'), 'ascending');
  const bandwidths = await page.locator('sb-chip-table tbody td[data-field="hbm_bandwidth"]')
    .evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
  assert.deepEqual(bandwidths, [...bandwidths].sort((a, b) => a - b));
  assert.deepEqual((await rowOrder(page)).slice(0, 2), ['tpu-v5e', 'tpu-v3']); // 8.2e11, 9e11 B/s
  await header.locator('button').press('Enter'); // keyboard: the heading is a button
  assert.equal(await header.getAttribute('aria-sort'), 'descending');
  const descending = await rowOrder(page);
  assert.deepEqual(descending.slice(0, 2), ['b200', 'gb200']); // equal bandwidths keep catalog order
  assert.notDeepEqual(descending, before);
  // A value's note: the tooltip (title) on hover, and shown in the cell on focus or tap.
  const cell = page.locator('sb-chip-table tr[data-chip="tpu-v5e"] td[data-field="price_per_hour"]');
  assert.equal(await cell.textContent().then((t) => t.startsWith('1.2 USD/h')), true);
  await cell.hover();
  assert.match(await cell.getAttribute('title'), /chapter 8: 1\.20 USD per chip-hour/);
  const note = cell.locator('.note');
  assert.equal(await note.evaluate((n) => n.getBoundingClientRect().width), 1);
  await cell.click();
  assert.ok(await note.evaluate((n) => n.getBoundingClientRect().width) > 50);
  await page.locator('sb-chip-table').screenshot({ path: path.join(SHOTS, 'chip-table.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the torus redraws with the wrap flags of the new shape and flags a bad one', async () => {
  const { page, errors } = await open();
  const torus = page.locator('sb-slice');
  const wraps = () => torus.locator('tr[data-axis]').evaluateAll((rows) => rows.map((r) => `${r.dataset.axis}:${r.dataset.wraps}`));
  assert.deepEqual(await wraps(), ['x:no', 'y:yes']);
  await page.waitForFunction(() => customElements.get('sb-slice'));
  await torus.locator('select[name="chip"]').selectOption('tpu-v5p');
  await page.waitForFunction(() => document.querySelector('sb-slice').shadowRoot.querySelectorAll('tr[data-axis]').length === 3);
  assert.equal(await torus.locator('input[name="shape"]').inputValue(), '4x4x4');
  assert.equal(await torus.locator('[data-pod]').textContent(), '(pod 16x20x28)');
  assert.deepEqual(await wraps(), ['x:yes', 'y:yes', 'z:yes']);
  assert.equal(await torus.locator('svg').getAttribute('data-chips'), '64');
  await torus.locator('.sb-slice').screenshot({ path: path.join(SHOTS, 'torus-v5p-4x4x4.png') });
  await torus.locator('input[name="shape"]').fill('2x2x1');
  await page.waitForFunction(() => document.querySelector('sb-slice').shadowRoot.querySelector('svg').dataset.chips === '4');
  assert.deepEqual(await wraps(), ['x:no', 'y:no', 'z:no']);
  assert.equal(await torus.locator('svg').getAttribute('data-wrap-links'), '0');
  for (const [bad, message] of [['4x0x4', 'shape must be sizes joined by x, like 4x4x4, got "4x0x4"'], ['abc', /sizes joined by x/],
    ['4x4', 'shape has 2 axes but tpu-v5p is a 3D torus'], ['32x32x32', 'shape 32x32x32 exceeds the tpu-v5p pod of 16x20x28']]) {
    await torus.locator('input[name="shape"]').fill(bad);
    const text = await torus.locator('[data-error-for="shape"]').textContent();
    if (typeof message === 'string') assert.equal(text, message);
    else assert.match(text, message);
    assert.equal(await torus.locator('input[name="shape"]').getAttribute('aria-invalid'), 'true');
  }
  await torus.locator('.sb-slice').screenshot({ path: path.join(SHOTS, 'torus-bad-shape.png') });
  await torus.locator('select[name="chip"]').selectOption('tpu-v5e');
  await torus.locator('input[name="shape"]').fill('16x16');
  await page.waitForFunction(() => document.querySelector('sb-slice').shadowRoot.querySelector('svg')?.dataset.chips === '256');
  assert.deepEqual(await wraps(), ['x:yes', 'y:yes']);
  assert.equal(await torus.locator('[data-error-for="shape"]').textContent(), '');
  await torus.locator('.sb-slice').screenshot({ path: path.join(SHOTS, 'torus-v5e-16x16.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

const output = (page, name) => page.locator(`sb-roofline#roof [data-output="${name}"]`).textContent().then((t) => t.trim());

test('my chip, once saved, is offered by a calculator, changes its outputs and survives a reload', async () => {
  const context = await browser.newContext();
  const { page, errors } = await open({ width: 1280, height: 900 }, context);
  const form = page.locator('sb-my-chip');
  await page.waitForFunction(() => document.querySelector('sb-my-chip')?.shadowRoot?.querySelector('[data-save]'));
  assert.equal(await output(page, 'critical_intensity'), '240 FLOP/B');
  // Saving the empty form names every problem at once, in the labels' words.
  await form.locator('[data-save]').click();
  assert.deepEqual(await form.locator('[data-error-for]').evaluateAll((slots) => slots.map((s) => s.textContent).filter(Boolean)),
    ['Name is required', 'bf16 peak is required', 'HBM bandwidth is required', 'ICI / NVLink bandwidth is required']);
  assert.equal(await form.locator('[data-message]').textContent(), 'Not saved: 4 fields need fixing.');
  assert.equal(await form.locator('input[name="name"]').evaluate((el) => el.matches(':focus')), true);
  assert.equal(await form.locator('input[aria-required="true"]').count(), 4);
  await form.locator('input[name="name"]').fill('Lab chip');
  await form.locator('input[name="peak_flops"]').fill('-5');
  await form.locator('input[name="hbm_bandwidth"]').fill('1e12');
  await form.locator('input[name="comm_bandwidth"]').fill('1e11');
  await form.locator('[data-save]').click();
  assert.equal(await form.locator('[data-error-for="peak_flops"]').textContent(), 'bf16 peak must be >= 1, got -5');
  assert.equal(await form.locator('[data-error-for="hbm_bandwidth"]').textContent(), '');
  await form.locator('input[name="peak_flops"]').fill('1e15');
  await form.locator('[data-save]').click();
  assert.match(await form.locator('[data-message]').textContent(), /Saved: “My chip: Lab chip”.*critical intensity 1000 FLOP\/B/);
  const select = page.locator('sb-roofline#roof select[name="chip"]');
  assert.equal(await select.locator('option[value="my-chip"]').textContent(), 'My chip: Lab chip');
  await select.selectOption('my-chip');
  await page.waitForFunction(() => document.querySelector('sb-roofline#roof').shadowRoot
    .querySelector('[data-output="critical_intensity"]').textContent.trim() === '1000 FLOP/B');
  assert.equal(await output(page, 'peak_flops'), '1 PFLOP/s');
  assert.equal(await page.locator('sb-roofline#roof input[name="peak_flops"]').inputValue(), '1e15');
  await page.locator('sb-my-chip').screenshot({ path: path.join(SHOTS, 'my-chip.png') });
  await page.locator('sb-roofline#roof').screenshot({ path: path.join(SHOTS, 'my-chip-calculator.png') });
  // Leaving my chip clears the fields it filled.
  await select.selectOption('h100');
  await page.waitForFunction(() => document.querySelector('sb-roofline#roof').shadowRoot
    .querySelector('[data-output="critical_intensity"]').textContent.trim() === '295 FLOP/B');
  assert.equal(await page.locator('sb-roofline#roof input[name="peak_flops"]').inputValue(), '');
  await page.reload();
  await page.waitForFunction(() => document.querySelector('sb-my-chip')?.shadowRoot?.querySelector('input[name="name"]')?.value === 'Lab chip');
  await page.waitForFunction(() => document.querySelector('sb-roofline#roof').shadowRoot.querySelector('option[value="my-chip"]'));
  await page.locator('sb-roofline#roof select[name="chip"]').selectOption('my-chip');
  await page.waitForFunction(() => document.querySelector('sb-roofline#roof').shadowRoot
    .querySelector('[data-output="critical_intensity"]').textContent.trim() === '1000 FLOP/B');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a corrupt stored chip is ignored with a notice', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('scalebook.mychip', '{"version":1,"chip":'));
  const { page, errors } = await open({ width: 1280, height: 900 }, context);
  const notice = page.locator('sb-my-chip [data-notice]');
  await page.waitForFunction(() => document.querySelector('sb-my-chip')?.shadowRoot?.querySelector('[data-notice]')?.textContent);
  assert.match(await notice.textContent(), /could not be read \(not JSON\) and is ignored/);
  assert.equal(await page.locator('sb-roofline#roof option[value="my-chip"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a 390px phone only the table scrolls sideways, never the page', async () => {
  const { page, errors } = await open({ width: 390, height: 844 });
  await page.waitForFunction(() => customElements.get('sb-slice') && document.querySelector('sb-my-chip')?.shadowRoot?.querySelector('[data-save]'));
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  assert.ok(widths.doc <= widths.view, `page is ${widths.doc}px wide in a ${widths.view}px viewport`);
  const wrap = await page.locator('sb-chip-table .table-wrap').evaluate((w) => ({ scroll: w.scrollWidth, client: w.clientWidth }));
  assert.ok(wrap.scroll > wrap.client, 'the table scrolls inside its wrapper');
  await page.locator('sb-chip-table tr[data-chip="tpu-v5p"] td[data-field="peak_flops_bf16"]').click();
  await page.locator('sb-chip-table').screenshot({ path: path.join(SHOTS, 'chip-table-phone.png') });
  await page.locator('sb-slice').screenshot({ path: path.join(SHOTS, 'torus-phone.png') });
  await page.locator('sb-my-chip').screenshot({ path: path.join(SHOTS, 'my-chip-phone.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chip picked on the static slice before the engine arrives is drawn once it does', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/scalebook-engine*.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(`${base}/02-x.html`);
  const torus = page.locator('sb-slice');
  await torus.locator('select[name="chip"]').selectOption('tpu-v5p');
  release();
  await page.waitForFunction(() => document.querySelector('sb-slice').shadowRoot.querySelectorAll('tr[data-axis]').length === 3);
  assert.equal(await torus.locator('input[name="shape"]').inputValue(), '4x4x4');
  assert.equal(await torus.locator('[data-error-for="shape"]').textContent(), '');
  await page.close();
});

test('on a phone the 4x4x4 torus keeps readable text and scrolls in its own focusable box', async () => {
  const { page, errors } = await open({ width: 390, height: 844 });
  const torus = page.locator('sb-slice');
  await torus.locator('select[name="chip"]').selectOption('tpu-v5p');
  await torus.locator('input[name="shape"]').fill('4x4x4');
  await page.waitForFunction(() => document.querySelector('sb-slice').shadowRoot.querySelector('svg[data-chips="64"]'));
  const view = await torus.locator('.picture').evaluate((box) => {
    const svg = box.querySelector('svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const sizes = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    return { min: Math.min(...sizes), scrolls: box.scrollWidth > box.clientWidth, focusable: box.tabIndex === 0 };
  });
  assert.ok(view.min >= 11, `torus text ${view.min}px`);
  assert.deepEqual([view.scrolls, view.focusable], [true, true]);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  assert.deepEqual(errors, []);
  await page.close();
});
