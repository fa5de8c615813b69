// The controls every simulation element gets from core/sb-simulation.js, on each of the four
// (systolic array, collective, pipeline, switched collective) in a real browser: play and pause (the button's text
// and aria-pressed), step, back, reset, the scrub range, the speed, and the keys on the
// picture (arrows, Home, End, Space).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startScratch } from './harness.mjs';

const PAGE = '# Simulations\n\n' +
  '::systolic-sim rows=2 cols=2 M=3 N=2 K=2 dataflow=ws convention=pipelined\n\n' +
  '::collective-sim op=all-gather shape=6 bidirectional=no\n\n' +
  '::pipeline stages=2 microbatches=3 schedule=gpipe\n\n::gpu-collective-sim gpus=16\n\nAfter.\n';
const TAGS = ['sb-systolic-sim', 'sb-collective-sim', 'sb-pipeline', 'sb-gpu-collective-sim'];
let site;

before(async () => { site = await startScratch('01-sims', PAGE); });
after(async () => { await site?.stop(); });

async function open() {
  const { page, errors } = await site.open('01-sims.html', { width: 1280, height: 1000 });
  for (const tag of TAGS) {
    await page.locator(tag).scrollIntoViewIfNeeded();
    await page.locator(`${tag} input[data-action="scrub"]:not([disabled])`).waitFor();
    await page.waitForFunction((t) => document.querySelector(t)?.simulation, tag);
  }
  return { page, errors };
}

const scrubValue = (el) => el.locator('input[data-action="scrub"]').inputValue().then(Number);
const scrubMax = (el) => el.locator('input[data-action="scrub"]').getAttribute('max').then(Number);

test('play, pause, step, back, reset, scrub, speed and keys work alike on every simulation', async () => {
  const { page, errors } = await open();
  for (const tag of TAGS) {
    const el = page.locator(tag);
    const last = await scrubMax(el);
    assert.ok(last >= 3, `${tag}: ${last} frames`);
    assert.equal(await scrubValue(el), 0, tag);

    await el.locator('button[data-action="step"]').click();
    await el.locator('button[data-action="step"]').click();
    assert.equal(await scrubValue(el), 2, `${tag} step`);
    await el.locator('button[data-action="back"]').click();
    assert.equal(await scrubValue(el), 1, `${tag} back`);
    await el.locator('button[data-action="reset"]').click();
    assert.equal(await scrubValue(el), 0, `${tag} reset`);
    await el.locator('input[data-action="scrub"]').fill(String(last));
    assert.equal(await scrubValue(el), last, `${tag} scrub`);

    // Keys on the picture: the region holds focus, the arrows step, Home and End jump.
    const picture = el.locator('[data-grid], [data-picture]').first();
    await picture.focus();
    await page.keyboard.press('Home');
    assert.equal(await scrubValue(el), 0, `${tag} Home`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await scrubValue(el), 1, `${tag} arrows`);
    await page.keyboard.press('End');
    assert.equal(await scrubValue(el), last, `${tag} End`);
    await page.keyboard.press('ArrowRight');
    assert.equal(await scrubValue(el), last, `${tag} stops at the last frame`);

    // Play at the fastest speed runs to the end and stops there; Space plays and pauses too.
    const speed = el.locator('select[data-action="speed"]');
    const fastest = await speed.locator('option').last().getAttribute('value');
    await speed.selectOption(fastest);
    const play = el.locator('button[data-action="play"]');
    await el.locator('button[data-action="reset"]').click();
    await play.click();
    assert.equal(await play.getAttribute('aria-pressed'), 'true', `${tag} playing`);
    assert.equal(await play.textContent(), 'Pause');
    await page.waitForFunction((t) => {
      const root = document.querySelector(t).shadowRoot;
      const scrub = root.querySelector('input[data-action="scrub"]');
      return scrub.value === scrub.max && root.querySelector('[data-action="play"]').textContent === 'Play';
    }, tag, { timeout: 20000 });
    assert.equal(await play.getAttribute('aria-pressed'), 'false', `${tag} stopped at the end`);
    await picture.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press(' ');
    assert.equal(await play.textContent(), 'Pause', `${tag} Space plays`);
    await page.keyboard.press(' ');
    assert.equal(await play.textContent(), 'Play', `${tag} Space pauses`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('keys typed in a field edit the field, not the playback', async () => {
  const { page, errors } = await open();
  const el = page.locator('sb-pipeline');
  await el.locator('button[data-action="step"]').click();
  const field = el.locator('input[name="microbatches"]');
  await field.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await scrubValue(el), 1);
  assert.deepEqual(errors, []);
  await page.close();
});
