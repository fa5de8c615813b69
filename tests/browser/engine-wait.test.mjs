// While the engine is on its way (seconds on a slow connection), a widget the build drew says it
// is loading and keeps what the reader types, applying it when the engine arrives; opened from
// disk, where no engine can load, every widget says it needs a server and how to start one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { start } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
let site;
let engine;
before(async () => {
  site = await start();
  engine = await loadEngine();
});
after(async () => { await site?.stop(); });

// A page whose .wasm is held back until release() is called.
async function slowEngine(url) {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  await page.route('**/*.wasm', async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto(`${site.base}/${url}`);
  return { page, errors, release };
}

const status = (host) => host.locator('.sb-engine-status');

test('a calculator says it is loading, and what was typed meanwhile is computed when the engine arrives', async () => {
  const { page, errors, release } = await slowEngine('01-roofline.html');
  const host = page.locator('sb-roofline#roof');
  await host.scrollIntoViewIfNeeded(); // the reader gets to it: its code and the engine are asked for
  await status(host).waitFor();
  assert.match(await status(host).textContent(), /Loading the calculator engine.*applied when it arrives/);
  assert.equal(await host.locator('form').getAttribute('aria-busy'), 'true');
  await host.locator('input[name="flops"]').fill('4e12');
  release();
  await status(host).waitFor({ state: 'detached', timeout: 20000 });
  const expected = engine.format(engine.calculate('roofline', { flops: 4e12, bytes: 1e9, chip: 'tpu-v5e' }, { steps: false }).t_compute, 's');
  await page.waitForFunction((text) => document.querySelector('sb-roofline#roof').shadowRoot
    .querySelector('[data-output="t_compute"]').textContent.trim() === text, expected, { timeout: 10000 });
  assert.equal(await host.locator('form').getAttribute('aria-busy'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the sharding planner applies a size typed before the engine arrived, not the build\'s answer', async () => {
  const { page, errors, release } = await slowEngine('03-sharding.html');
  const host = page.locator('sb-sharded-matmul').first();
  await host.scrollIntoViewIfNeeded();
  await status(host).waitFor();
  const body = () => host.locator('[data-body]').textContent();
  const built = await body();
  await host.locator('input[name="I"]').fill('65536');
  release();
  await status(host).waitFor({ state: 'detached', timeout: 20000 });
  await page.waitForFunction((old) => document.querySelector('sb-sharded-matmul').shadowRoot
    .querySelector('[data-body]').textContent !== old, built, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('an engine that fails to load says so in the element\'s own box', async () => {
  const page = await site.browser.newPage();
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${site.base}/01-roofline.html`);
  const host = page.locator('sb-roofline#roof');
  await host.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => /failed to load/.test(document.querySelector('sb-roofline#roof').shadowRoot.textContent), null, { timeout: 20000 });
  assert.equal(await status(host).count(), 0);
  await page.close();
});

test('opened from disk, every widget says it needs a server and how to start one, with its fields disabled', async () => {
  for (const name of ['01-roofline.html', '03-sharding.html', 'embed.html']) {
    const page = await site.browser.newPage();
    await page.goto(pathToFileURL(path.join(DIST, name)).href);
    await page.waitForLoadState('load');
    const widgets = await page.evaluate(() => [...document.querySelectorAll('*')]
      .filter((el) => el.localName.startsWith('sb-'))
      .map((el) => {
        const root = el.shadowRoot ?? el;
        const notice = root.querySelector('.sb-file-notice');
        const fields = [...root.querySelectorAll('input, select, button, textarea')];
        return {
          tag: el.localName,
          notice: notice?.textContent ?? '',
          visible: Boolean(notice && notice.getBoundingClientRect().height > 0),
          live: fields.filter((f) => !f.disabled).length,
        };
      }));
    assert.ok(widgets.length > 0, name);
    for (const w of widgets) {
      assert.match(w.notice, /needs a web server.*scripts\/serve.*http:\/\/127\.0\.0\.1:8000/, `${name} ${w.tag}`);
      assert.ok(w.visible, `${name} ${w.tag}: notice visible`);
      assert.equal(w.live, 0, `${name} ${w.tag}: fields disabled`);
    }
    await page.close();
  }
});
