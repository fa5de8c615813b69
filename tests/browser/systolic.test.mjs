// <sb-systolic-sim> in a real browser, on a scratch site built with the ::systolic-sim directive
// (so this test does not depend on the chapters being written): play, step, scrub, dataflow
// changes against the closed form, the engine's messages beside fields, and a phone's width.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { SHOTS, startScratch } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';

const SIM = 'sb-systolic-sim';
const PAGE = '# The systolic array\n\n' +
  '::systolic-sim rows=4 cols=4 M=6 N=4 K=5 dataflow=ws convention=pipelined\n\nAfter.\n';
let site;
let engine;

before(async () => {
  site = await startScratch('01-sim', PAGE);
  engine = await loadEngine();
});

after(async () => { await site?.stop(); });

async function open(viewport = { width: 1280, height: 1000 }) {
  const { page, errors } = await site.open('01-sim.html', viewport);
  // Live once the engine's whole run is in: the scrub range spans every cycle.
  await page.locator(`${SIM} input[data-action="scrub"]:not([disabled])`).waitFor();
  await page.waitForFunction((tag) => document.querySelector(tag)?.simulation, SIM);
  return { page, errors, sim: page.locator(SIM) };
}

const stat = (sim, key) => sim.locator(`[data-stat="${key}"]`);
const closedCycles = (inputs) => engine.calculate('systolic', inputs).compute_cycles;

test('the static page shows the first frame and the closed form before any script runs', async () => {
  const page = await site.browser.newPage({ javaScriptEnabled: false });
  await page.goto(`${site.base}/01-sim.html`);
  const sim = page.locator(SIM);
  assert.equal(await sim.locator('[data-pe]').count(), 16);
  assert.equal(await stat(sim, 'cycle').textContent(), '1 of 22');
  assert.equal(await stat(sim, 'check').textContent(), 'closed form: 22 cycles — matches the closed form');
  await page.close();
});

test('play advances the cycle counter; step, back and scrub go to a given cycle', async () => {
  const { page, errors, sim } = await open();
  assert.equal(await stat(sim, 'cycle').textContent(), '1 of 22');
  await sim.locator('select[data-action="speed"]').selectOption('32');
  await sim.locator('button[data-action="play"]').click();
  assert.equal(await sim.locator('button[data-action="play"]').getAttribute('aria-pressed'), 'true');
  await page.waitForFunction((tag) => {
    const text = document.querySelector(tag).shadowRoot.querySelector('[data-stat="cycle"]').textContent;
    return Number(text.split(' ')[0]) > 3;
  }, SIM);
  await sim.locator('button[data-action="play"]').click(); // pause
  assert.equal(await sim.locator('button[data-action="play"]').textContent(), 'Play');

  await sim.locator('button[data-action="reset"]').click();
  assert.equal(await stat(sim, 'cycle').textContent(), '1 of 22');
  await sim.locator('button[data-action="step"]').click();
  await sim.locator('button[data-action="step"]').click();
  assert.equal(await stat(sim, 'cycle').textContent(), '3 of 22');
  await sim.locator('button[data-action="back"]').click();
  assert.equal(await stat(sim, 'cycle').textContent(), '2 of 22');

  // Scrub to cycle 11 (frame 10): the numbers are the engine's frame 10.
  const frames = engine.simulateSystolic({ M: 6, N: 4, K: 5, rows: 4, cols: 4, dataflow: 'ws',
    convention: 'pipelined', max_frames: 22 }).frames;
  await sim.locator('input[data-action="scrub"]').fill('10');
  assert.equal(await stat(sim, 'cycle').textContent(), '11 of 22');
  assert.equal(await stat(sim, 'macs-now').textContent(), String(frames[10].macs));
  const done = frames.slice(0, 11).reduce((s, f) => s + f.macs, 0);
  assert.equal(await stat(sim, 'macs').textContent(), `${done} of 120`);
  assert.equal(await sim.locator('.pe-mac').count(), frames[10].macs);
  const w0 = frames[10].pes.weight[0];
  assert.equal(await sim.locator('[data-pe="0"] .v-w').textContent(), `w ${w0}`);
  // Keyboard: the range answers arrow keys.
  await sim.locator('input[data-action="scrub"]').press('ArrowRight');
  assert.equal(await stat(sim, 'cycle').textContent(), '12 of 22');
  // Play to the end: the whole run's utilization is MACs / (PEs x cycles).
  await sim.locator('input[data-action="scrub"]').fill('21');
  assert.equal(await stat(sim, 'cycle').textContent(), '22 of 22');
  assert.equal(await stat(sim, 'utilization').textContent(), await stat(sim, 'total').textContent());
  assert.deepEqual(errors, []);
  await page.close();
});

test('changing the dataflow or convention re-simulates to the closed form’s cycle count', async () => {
  const { page, errors, sim } = await open();
  const shape = { M: 6, N: 4, K: 5, rows: 4, cols: 4 };
  for (const [dataflow, convention] of [['os', 'pipelined'], ['is', 'pipelined'], ['is', 'scalesim'], ['ws', 'scalesim']]) {
    await sim.locator('select[name="dataflow"]').selectOption(dataflow);
    await sim.locator('select[name="convention"]').selectOption(convention);
    const cycles = closedCycles({ ...shape, dataflow, convention });
    assert.equal(await stat(sim, 'sim-cycles').textContent(), String(cycles), `${dataflow} ${convention}`);
    assert.equal(await stat(sim, 'cycle').textContent(), `1 of ${cycles}`);
    assert.equal(await stat(sim, 'check').textContent(), `closed form: ${cycles} cycles — matches the closed form`);
  }
  await sim.locator('input[name="cols"]').fill('8');
  assert.equal(await sim.locator('[data-pe]').count(), 32);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad field shows the engine’s message beside it and the page keeps working', async () => {
  const { page, errors, sim } = await open();
  await sim.locator('input[name="rows"]').fill('2.5');
  assert.equal(await sim.locator('[data-error-for="rows"]').textContent(), 'rows must be a whole number, got 2.5');
  assert.equal(await sim.locator('input[name="rows"]').getAttribute('aria-invalid'), 'true');
  await sim.locator('input[name="rows"]').fill('0');
  assert.equal(await sim.locator('[data-error-for="rows"]').textContent(), 'rows must be >= 1, got 0');
  // Over the page's step budget: the engine's message, which points to the closed form.
  await sim.locator('input[name="rows"]').fill('4');
  await sim.locator('input[name="M"]').fill('50000');
  assert.match(await sim.locator('[data-error-for="M"]').textContent(),
    /^M = 50000, N = 4, K = 5 on a 4 x 4 array is .* PE-steps, over the step budget of .*; use the closed form \(the systolic calculator\) instead$/);
  await sim.locator('input[name="M"]').fill('12');
  assert.equal(await sim.locator('[data-error-for="M"]').textContent(), '');
  assert.equal(await stat(sim, 'sim-cycles').textContent(),
    String(closedCycles({ M: 12, N: 4, K: 5, rows: 4, cols: 4, dataflow: 'ws', convention: 'pipelined' })));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 16 x 16 array plays, and the element fits a 390px phone', async () => {
  const { page, errors, sim } = await open({ width: 390, height: 900 });
  for (const [name, value] of [['rows', '16'], ['cols', '16'], ['M', '32'], ['N', '32'], ['K', '32']]) {
    await sim.locator(`input[name="${name}"]`).fill(value);
  }
  assert.equal(await sim.locator('[data-pe]').count(), 256);
  await sim.locator('input[data-action="scrub"]').fill('40');
  await sim.locator('button[data-action="play"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((tag) => {
    const text = document.querySelector(tag).shadowRoot.querySelector('[data-stat="cycle"]').textContent;
    return Number(text.split(' ')[0]) > 42;
  }, SIM);
  await page.keyboard.press('Enter');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page scrolls sideways: ${width}px`);
  await page.screenshot({ path: path.join(SHOTS, 'systolic-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('screenshot of the 4 x 4 example mid-run', async () => {
  const { page, errors, sim } = await open();
  await sim.locator('input[data-action="scrub"]').fill('9');
  await sim.screenshot({ path: path.join(SHOTS, 'systolic.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
