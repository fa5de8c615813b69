// Touch targets outside the training elements (issue 26): at 390 px every link, button, field,
// section title and focusable box of the exercises (<sb-exercise>), the progress box
// (<sb-progress>), the pipeline (<sb-pipeline>) and the plots is a target a finger can hit,
// 24 x 24 px or more (WCAG 2.2, 2.5.8), on chapters 1, 5 and 6, without widening the page.
// (The plots draw no focusable point; a link inside a sentence of a prompt, which 2.5.8 exempts,
// would need an exemption here, and the chapters have none.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

const PHONE = { width: 390, height: 844 };
const PAGES = ['01-roofline.html', '05-training.html', '06-applied-training.html'];
// The elements measured; each holds its controls in its shadow root, or (sb-exercise) in the
// light DOM.
const HOSTS = 'sb-exercise, sb-progress, sb-pipeline, sb-roofline-plot, sb-batch-sweep, sb-collective-sweep';
const TARGETS = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

let site;
before(async () => { site = await start(); });
after(async () => { await site?.stop(); });

// A chapter at phone width, once every exercise has started, the progress box has drawn its
// list and every element with an engine result has it.
async function openPhone(url) {
  const { page, errors } = await site.open(url, PHONE);
  await page.waitForFunction((hosts) => [...document.querySelectorAll('sb-exercise')]
    .every((ex) => !ex.querySelector('[data-variant-bar]')?.hidden) &&
    [...document.querySelectorAll('sb-progress')].every((p) => p.shadowRoot?.querySelector('a[href]')) &&
    [...document.querySelectorAll(hosts)].every((el) => !el.shadowRoot || !el.shadowRoot.querySelector('.loading')),
  HOSTS, { timeout: 20000 });
  return { page, errors };
}

// Every target of the measured elements, with its box, after opening every section; each
// worked solution is opened too (it loads from the chapter's solutions page).
async function targets(page) {
  await page.evaluate((hosts) => {
    for (const host of document.querySelectorAll(hosts)) {
      for (const details of (host.shadowRoot ?? host).querySelectorAll('details')) details.open = true;
    }
  }, HOSTS);
  await page.waitForFunction(() => !document.querySelector('sb-exercise [data-solution-link]'), null, { timeout: 20000 });
  return page.evaluate(({ hosts, selector }) => {
    const found = [];
    for (const host of document.querySelectorAll(hosts)) {
      const root = host.shadowRoot ?? host;
      for (const el of root.querySelectorAll(selector)) {
        if (!el.checkVisibility()) continue;
        el.scrollIntoView({ block: 'center' }); // laid out, whatever content-visibility skipped
        const box = el.getBoundingClientRect();
        found.push({ where: `${host.localName}${host.id ? `#${host.id}` : ''}`,
          what: `<${el.localName}${el.type ? ` type=${el.type}` : ''}> "${(el.textContent || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 40)}"`,
          width: box.width, height: box.height });
      }
    }
    return found;
  }, { hosts: HOSTS, selector: TARGETS });
}

test('at 390 px every target of the exercises, the progress box, the pipeline and the plots is at least 24 x 24 px', async () => {
  const small = [];
  const count = {};
  for (const url of PAGES) {
    const { page, errors } = await openPhone(url);
    const found = await targets(page);
    for (const t of found) count[t.where.replace(/#.*/, '')] = (count[t.where.replace(/#.*/, '')] ?? 0) + 1;
    small.push(...found.filter((t) => t.width < 24 || t.height < 24)
      .map((t) => `${url} ${t.where}: ${t.what} ${t.width.toFixed(1)} x ${t.height.toFixed(1)}`));
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${url} scrolls sideways`);
    assert.deepEqual(errors, []);
    await page.close();
  }
  for (const host of ['sb-exercise', 'sb-progress', 'sb-pipeline']) assert.ok(count[host] > 3, `${JSON.stringify(count)}`);
  assert.deepEqual(small, []);
});
