// Nothing is cut off or widens a phone's page: the index, the planner's tables, the
// collective simulator's worked steps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

test('the index fits a 390-pixel phone without scrolling sideways', async () => {
  const { page, errors } = await site.open('index.html', PHONE);
  await page.waitForFunction(() => document.querySelector('sb-progress')?.shadowRoot?.querySelector('tbody tr'));
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
  assert.deepEqual(errors, []);
  await page.close();
});

for (const viewport of [PHONE, DESKTOP]) {
  test(`the planner's tables show every column inside their box at ${viewport.width} px`, async () => {
    const { page } = await site.open('03-sharding.html', viewport);
    await page.waitForFunction(() => document.querySelector('sb-sharded-matmul')?.shadowRoot?.querySelector('[data-table="collectives"]'));
    // A case with collectives and alternatives, so both tables have rows.
    await page.evaluate(() => document.querySelector('sb-sharded-matmul').setAttribute('spec', 'A[I_X, J_Y] * B[J_Y, K] -> C[I_X, K]'));
    await page.waitForFunction(() => document.querySelector('sb-sharded-matmul').shadowRoot.querySelector('table[data-table="alternatives"]'));
    const cut = await page.evaluate(() => [...document.querySelector('sb-sharded-matmul').shadowRoot.querySelectorAll('table')]
      .flatMap((table) => {
        const box = table.parentElement.getBoundingClientRect();
        return [...table.querySelectorAll('tbody td')].filter((cell) => cell.getBoundingClientRect().right > box.right + 1)
          .map((cell) => `${table.dataset.table}: ${cell.dataset.column}`);
      }));
    assert.deepEqual(cut, []);
    await page.close();
  });
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`the collective simulator's worked steps fit their column at ${viewport.width} px ("bandwidth bound" whole)`, async () => {
    const { page } = await site.open('03-sharding.html', viewport);
    await page.waitForFunction(() => document.querySelector('sb-collective-sim')?.shadowRoot?.querySelector('.steps li'));
    const cut = await page.evaluate(() => [...document.querySelector('sb-collective-sim').shadowRoot.querySelectorAll('.steps li')]
      .filter((li) => li.scrollWidth > li.clientWidth + 1).map((li) => li.textContent.trim().slice(0, 60)));
    assert.deepEqual(cut, []);
    await page.close();
  });
}
