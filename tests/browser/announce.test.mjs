// What a screen reader is told as the reader types into a calculator: the result once typing
// pauses, politely; an error only when the field is committed, never mid-number.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

const HOST = 'sb-roofline#roof';

// The text of every live region and alert of the calculator's shadow root, in order.
function spoken(page) {
  return page.evaluate((host) => [...document.querySelector(host).shadowRoot
    .querySelectorAll('[aria-live], [role="alert"], [role="status"]')]
    .map((el) => el.textContent.trim()).filter(Boolean), HOST);
}

test('typing "2e" on the way to "2e12" announces nothing; the result is announced politely once typing pauses', async () => {
  const { page, errors } = await site.open('01-roofline.html');
  const field = page.locator(`${HOST} input[name="flops"]`);
  await page.waitForFunction((host) => document.querySelector(host).shadowRoot.querySelector('form:not([aria-busy])'), HOST);
  // Typed over the selected default, with no empty field in between: an empty field is a
  // valid input (the default) whose result would rightly be announced on a slow machine.
  await field.selectText();
  await field.pressSequentially('2e');
  // The error is on screen beside the field at once ...
  await page.waitForFunction((host) => document.querySelector(host).shadowRoot
    .querySelector('[data-error-for="flops"]').textContent.trim() !== '', HOST);
  await page.waitForTimeout(1500);
  // ... but nothing speaks it while the reader is still typing.
  assert.deepEqual(await spoken(page), []);
  await field.pressSequentially('12');
  await page.waitForTimeout(1500);
  const said = await spoken(page);
  assert.equal(said.length, 1);
  assert.match(said[0], /^Results: .*10\.2 ms/);
  const region = page.locator(`${HOST} [data-announce]`);
  assert.equal(await region.getAttribute('aria-live'), 'polite');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an error is announced when the reader leaves the field with it', async () => {
  const { page } = await site.open('01-roofline.html');
  const field = page.locator(`${HOST} input[name="flops"]`);
  await page.waitForFunction((host) => document.querySelector(host).shadowRoot.querySelector('form:not([aria-busy])'), HOST);
  await field.fill('');
  await field.pressSequentially('2e');
  await field.press('Tab');
  await page.waitForFunction((host) => document.querySelector(host).shadowRoot
    .querySelector('[data-announce]')?.textContent.includes('flops'), HOST);
  await page.close();
});
