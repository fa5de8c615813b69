// <sb-collective-sweep> in a real browser, on a scratch site built with its directive: the
// static plot before any script, the readout following the reader's changes to the engine's
// value, an error beside the axes field, and a phone's width. Expected numbers come from the
// engine in Node, evaluated directly at the sizes the page shows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { SHOTS, startScratch } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { si, useEngine } from '../../web/runtime/core/format.js';

const PAGE = `# Collectives

Before.

::plot collective-sweep op=all-gather chip=tpu-v5e axis_size=16 wraparound=yes

After.
`;
let site;
let engine;

before(async () => {
  site = await startScratch('03-sharding', PAGE);
  engine = await loadEngine();
  useEngine(engine); // format.js prints with the engine
});

after(async () => { await site?.stop(); });

async function open(viewport = { width: 1280, height: 1000 }) {
  const { page, errors } = await site.open('03-sharding.html', viewport);
  await page.waitForFunction(() => document.querySelector('sb-collective-sweep')?.sweep);
  return { page, errors };
}

const efficiency = (inputs, bytes) => engine.calculate('collective', { ...inputs, bytes }).efficiency;

// The page's V at 90% of peak is where the engine crosses 90%: there, and not a hair below.
function assertReach(inputs, bytes) {
  assert.ok(efficiency(inputs, bytes) >= 0.9, `90% at ${bytes}`);
  assert.ok(efficiency(inputs, bytes * (1 - 1e-6)) < 0.9, `below 90% just under ${bytes}`);
}

const readout = (page) => page.locator('sb-collective-sweep [data-readout]');

test('before any script runs the plot and its readout are the build’s engine numbers', async () => {
  const page = await site.browser.newPage({ javaScriptEnabled: false });
  await page.goto(`${site.base}/03-sharding.html`);
  const sweep = page.locator('sb-collective-sweep');
  const inputs = { op: 'all-gather', chip: 'tpu-v5e', axis_size: 16, wraparound: 'yes' };
  const bytes = Number(await readout(page).getAttribute('data-bytes'));
  assertReach(inputs, bytes);
  const chips = engine.calculate('collective', { ...inputs, bytes }).chips;
  assert.equal(await readout(page).locator('[data-per-device]').textContent(), `${si(bytes / chips, 'B')} per device`);
  const crossover = engine.calculate('collective', { ...inputs, bytes }).crossover_bytes;
  const drawn = Number(await sweep.locator('line.crossover').getAttribute('data-crossover'));
  assert.ok(Math.abs(drawn / crossover - 1) < 1e-12, `crossover drawn at ${drawn}, engine ${crossover}`);
  assert.equal(await sweep.locator('path.curve').count(), 1);
  assert.equal(await sweep.locator('select[name="op"]').inputValue(), 'all-gather');
  assert.equal(await sweep.locator('input[name="shape"]').inputValue(), '16');
  await page.close();
});

test('changing the collective and the axis moves the readout to the engine’s value', async () => {
  const { page, errors } = await open();
  const sweep = page.locator('sb-collective-sweep');
  const textNow = () => readout(page).textContent();
  const before = await textNow();
  // A 4x4 slice, both axes at once, wrapped: the engine's 90% point over 16 chips.
  const torus = { op: 'all-reduce', chip: 'tpu-v5e', axes: '4x4', wraparound: 'yes' };
  await sweep.locator('select[name="op"]').selectOption('all-reduce');
  await sweep.locator('input[name="shape"]').fill('4x4');
  await page.waitForFunction((old) => {
    const p = document.querySelector('sb-collective-sweep').shadowRoot.querySelector('[data-readout]');
    return p.textContent !== old && p.textContent.includes('16 chips');
  }, before);
  const bytes = Number(await readout(page).getAttribute('data-bytes'));
  assertReach(torus, bytes);
  assert.equal(await readout(page).locator('[data-per-device]').textContent(), `${si(bytes / 16, 'B')} per device`);
  assert.equal(Number(await sweep.locator('circle.reach').getAttribute('data-bytes')), bytes);
  // A ring of 8 never gets there: the readout says where it levels off, and marks no point.
  const ring = { op: 'all-reduce', chip: 'tpu-v5e', axis_size: 8, wraparound: 'yes' };
  assert.ok(efficiency(ring, 1e18) < 0.9);
  await sweep.locator('input[name="shape"]').fill('8');
  await page.waitForFunction(() => document.querySelector('sb-collective-sweep').shadowRoot.querySelector('[data-readout]').textContent.startsWith('Never'));
  assert.match(await textNow(), new RegExp(`levels off at ${Number((100 * efficiency(ring, 1e18)).toPrecision(3))}%`));
  assert.equal(await readout(page).getAttribute('data-bytes'), null);
  assert.equal(await sweep.locator('circle.reach').count(), 0);
  await sweep.screenshot({ path: path.join(SHOTS, 'bandwidth-plot-ring8.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad axis gets the engine’s message beside the field and keeps the last plot, dimmed', async () => {
  const { page, errors } = await open();
  const sweep = page.locator('sb-collective-sweep');
  let expected;
  try {
    engine.calculate('collective', { chip: 'tpu-v5e', axes: '8xq', bytes: 1e6 });
  } catch (error) {
    expected = error;
  }
  assert.equal(expected?.field, 'axes');
  await sweep.locator('input[name="shape"]').fill('8xq');
  await page.waitForFunction(() => document.querySelector('sb-collective-sweep').shadowRoot.querySelector('[data-error-for="shape"]').textContent !== '');
  assert.equal(await sweep.locator('[data-error-for="shape"]').textContent(), expected.message);
  assert.equal(await sweep.locator('input[name="shape"]').getAttribute('aria-invalid'), 'true');
  assert.match(await sweep.locator('.sb-calc').getAttribute('class'), /is-stale/);
  assert.equal(await sweep.locator('path.curve').count(), 1);
  await sweep.locator('input[name="shape"]').fill('16');
  await page.waitForFunction(() => !document.querySelector('sb-collective-sweep').shadowRoot.querySelector('.sb-calc').classList.contains('is-stale'));
  assert.deepEqual(errors, []);
  await page.screenshot({ path: path.join(SHOTS, 'bandwidth-plot.png'), fullPage: true });
  await page.close();
});

test('on a 390-pixel phone nothing overflows the page', async () => {
  const { page, errors } = await open({ width: 390, height: 844 });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  const box = await page.locator('sb-collective-sweep').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `fits: ${JSON.stringify(box)}`);
  const svg = await page.locator('sb-collective-sweep svg').boundingBox();
  assert.ok(svg.x >= 0 && svg.x + svg.width <= 390, `plot fits: ${JSON.stringify(svg)}`);
  await page.screenshot({ path: path.join(SHOTS, 'bandwidth-plot-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
