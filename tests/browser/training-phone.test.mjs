// Chapters 5 and 6's training elements as a phone reader meets them (issue 26): no label
// repeats its unit ("Chips (chips)"), no raw input or output name stands where a label should,
// every control is a target a finger can hit, and the explorer leads with its answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start, SHOTS } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';

const PHONE = { width: 390, height: 844 };
const TRAINING = 'sb-training, sb-training-split, sb-training-plan, sb-training-search, sb-training-budget';

let site;
let engine;
before(async () => { [site, engine] = await Promise.all([start(), loadEngine()]); });
after(async () => { await site?.stop(); });

// A chapter at phone width, once every training element has its engine result.
async function openPhone(url) {
  const { page, errors } = await site.open(url, PHONE);
  await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].every((el) => el.result), TRAINING);
  return { page, errors };
}

test('no label, column or result on chapters 5 and 6 repeats its unit ("Chips (chips)")', async () => {
  const repeated = [];
  for (const url of ['05-training.html', '06-applied-training.html']) {
    const { page, errors } = await openPhone(url);
    repeated.push(...await page.evaluate((sel) => {
      const found = [];
      for (const host of document.querySelectorAll(`${sel}, sb-pipeline`)) {
        for (const el of host.shadowRoot.querySelectorAll('label, th, dt, legend, summary')) {
          const text = el.textContent.replace(/\s+/g, ' ').trim();
          const [, label, unit] = /^(.*)\(([^()]+)\)$/.exec(text) ?? [];
          if (!unit || unit.length < 3) continue;
          const u = unit.toLowerCase();
          const words = label.toLowerCase().split(/[\s(),]+/);
          if (words.some((w) => [u, `${u}s`, `${u}es`].includes(w) || [`${w}s`, `${w}es`].includes(u))) found.push(`${host.localName}: ${text}`);
        }
      }
      return found;
    }, TRAINING));
    if (url === '06-applied-training.html') {
      const search = page.locator('sb-training-search').first();
      assert.equal((await search.locator('label[for="in-chips"]').textContent()).trim(), 'Chips');
      assert.equal((await search.locator('label[for="in-slices"]').textContent()).trim(), 'Slices over DCN');
    } else {
      assert.equal((await page.locator('sb-training#explorer label[for="in-microbatches"]').textContent()).trim(), 'Microbatches');
      // A unit the label does not say stays: "Sequence length T (tokens)".
      assert.equal((await page.locator('sb-training#explorer label[for="in-T"]').textContent()).trim(), 'Sequence length T (tokens)');
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(repeated, []);
});

// An identifier as a label: one word with an underscore (M_X, X_opt), or all lower case (alpha).
const identifier = (text) => !/\s/.test(text) && (text.includes('_') || text === text.toLowerCase());

test('the plan and the optimizer show the engine\'s labels, never a raw input, output or column name', async () => {
  const names = new Set();
  for (const calculator of ['training-plan', 'training-split']) {
    const schema = engine.schema(calculator);
    for (const spec of [...schema.inputs, ...schema.outputs, ...schema.tables.flatMap((t) => t.columns)]) names.add(spec.name.toLowerCase());
  }
  const raw = [];
  for (const url of ['05-training.html', '06-applied-training.html']) {
    const { page } = await openPhone(url);
    raw.push(...await page.evaluate((all) => {
      const found = [];
      for (const host of document.querySelectorAll('sb-training-plan, sb-training-split')) {
        const walker = document.createTreeWalker(host.shadowRoot, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.data.trim();
          const parent = node.parentElement;
          // An input's name as its small code hint beside the label is deliberate (render.js).
          if (!all.includes(text.toLowerCase()) || parent.closest('.input-name') || !parent.checkVisibility()) continue;
          found.push(`${host.localName}#${host.id}: "${text}" in <${parent.localName}>`);
        }
      }
      return found;
    }, [...names]));
    await page.close();
  }
  assert.deepEqual(raw.filter((line) => identifier(line.match(/"(.*)"/)[1])), []);
  // The words are the engine's: the plan's alpha reads as the training calculator calls it.
  const { page } = await openPhone('06-applied-training.html');
  const label = engine.schema('training').outputs.find((o) => o.name === 'alpha').label;
  // Among the other results, a section the reader opens.
  await page.locator('sb-training-plan#plan details[data-fold="outputs"] > summary').click();
  const dt = page.locator('sb-training-plan#plan .out', { has: page.locator('[data-output="alpha"]') }).locator('dt');
  assert.equal(await dt.textContent(), label);
  await page.close();
});

// Every control of the training elements, with its box, after opening every section.
function controls(page) {
  return page.evaluate(async (sel) => {
    const found = [];
    const hosts = [...document.querySelectorAll(sel)];
    const openAll = () => { for (const host of hosts) for (const details of host.shadowRoot.querySelectorAll('details')) details.open = true; };
    openAll();
    // A section the build left for later fills as it opens (lazy-folds.js); its own sections then open too.
    while (hosts.some((host) => host.shadowRoot.querySelector('details[data-lazy]'))) await new Promise((r) => setTimeout(r, 20));
    openAll();
    for (const host of hosts) {
      for (const el of host.shadowRoot.querySelectorAll('a[href], button, input, select, textarea, summary')) {
        if (!el.checkVisibility()) continue;
        el.scrollIntoView({ block: 'center' }); // laid out, whatever content-visibility skipped
        const box = el.getBoundingClientRect();
        found.push({ where: `${host.localName}${host.id ? `#${host.id}` : ''}`, what: `<${el.localName}> "${el.textContent.trim().slice(0, 40)}"`,
          width: box.width, height: box.height });
      }
    }
    return found;
  }, TRAINING);
}

test('at 390 px every link, button, field and section of the training elements is at least 24 x 24 px', async () => {
  const small = [];
  let count = 0;
  for (const url of ['05-training.html', '06-applied-training.html']) {
    const { page } = await openPhone(url);
    const found = await controls(page);
    count += found.length;
    small.push(...found.filter((c) => c.width < 24 || c.height < 24)
      .map((c) => `${url} ${c.where}: ${c.what} ${c.width.toFixed(1)} x ${c.height.toFixed(1)}`));
    await page.close();
  }
  assert.ok(count > 100, `${count} controls found`);
  assert.deepEqual(small, []);
});

// The explorer's height with everything it draws laid out (content-visibility skips what is off
// screen; the measure must not).
function explorerHeight(page) {
  return page.evaluate(() => {
    const host = document.querySelector('sb-training#explorer');
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('* { content-visibility: visible !important; }');
    host.shadowRoot.adoptedStyleSheets = [...host.shadowRoot.adoptedStyleSheets, sheet];
    return host.getBoundingClientRect().height;
  });
}

test('on a phone the explorer leads with its four results and folds its tables and pictures into sections that open', async () => {
  const { page, errors } = await openPhone('05-training.html');
  const el = page.locator('sb-training#explorer');
  // 10,058 px before: every output, table and picture laid out below the form.
  const height = await explorerHeight(page);
  assert.ok(height < 10058 / 3, `the explorer is ${Math.round(height)} px tall`);
  // Step time, bound, memory per chip and MFU show without opening anything, before the form.
  const lead = await el.evaluate((host) => ['step_time', 'bound', 'mem_total', 'mfu'].map((name) => {
    const cell = host.shadowRoot.querySelector(`[data-output="${name}"]`);
    const form = host.shadowRoot.querySelector('fieldset.group');
    return { name, shown: cell.checkVisibility() && !cell.closest('details:not([open])'), text: cell.textContent.trim(),
      first: Boolean(cell.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING) };
  }));
  for (const item of lead) {
    assert.ok(item.shown && item.first && item.text !== '', JSON.stringify(item));
  }
  assert.match(lead.find((i) => i.name === 'step_time').text, /^\d[\d.]* m?s$/);
  // The tables are closed; opening one by its title shows its rows.
  const table = el.locator('table[data-table="collectives"]');
  assert.equal(await table.isVisible(), false);
  await el.locator('details[data-fold="collectives"] > summary').click();
  assert.ok(await table.isVisible());
  assert.ok(await table.locator('tbody tr').count() > 1);
  // A picture's section opens from the keyboard, and stays open through a redraw.
  const layer = el.locator('details[data-fold="layer"]');
  await layer.locator('summary').focus();
  await page.keyboard.press('Enter');
  assert.ok(await el.locator('[data-array="In"] [data-sharding]').isVisible());
  await el.locator('input[name="fsdp_axes"]').fill('');
  await el.locator('input[name="tp_axes"]').fill('Y');
  await page.waitForFunction(() => document.querySelector('sb-training#explorer').shadowRoot
    .querySelector('[data-array="In"] [data-sharding]').textContent === 'In[B_XZ, D_Y]');
  assert.equal(await layer.evaluate((d) => d.open), true);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  await el.screenshot({ path: path.join(SHOTS, 'training-explorer-phone-lead.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

// An element's height with its sections as they are, everything it draws laid out.
function heightOf(page, selector) {
  return page.evaluate((sel) => {
    const host = document.querySelector(sel);
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('* { content-visibility: visible !important; }');
    host.shadowRoot.adoptedStyleSheets = [...host.shadowRoot.adoptedStyleSheets, sheet];
    return host.getBoundingClientRect().height;
  }, selector);
}

// The search, the plans and the optimizers at 390 px, each as tall as before (issue 26), with
// the outputs each leads with.
const LONG = [
  ['06-applied-training.html', 'sb-training-search', 5449, ['best', 'best_choices', 'step_time', 'bound', 'mfu_ceiling', 'mem_total']],
  ['06-applied-training.html', 'sb-training-plan#plan', 3365, ['mesh', 'tokens_per_chip', 'pods_recommended', 'pods_mesh']],
  ['05-training.html', 'sb-training-plan#pods', 4657, ['mesh', 'tokens_per_chip', 'pods_recommended', 'pods_mesh']],
  ['05-training.html', 'sb-training-split#optimizer', 4347, ['best_x', 'best_y', 'best_ratio', 'bound', 'x_opt']],
  ['05-training.html', 'sb-training-split#optimizer-pod', 3465, ['best_x', 'best_y', 'best_ratio', 'bound', 'x_opt']],
];

test('on a phone the search, the plans and the optimizers lead with their answer in under 2,500 px, and their sections open to show everything', async () => {
  for (const [url, selector, before, leadNames] of LONG) {
    const { page, errors } = await openPhone(url);
    const el = page.locator(selector).first();
    const height = await heightOf(page, selector);
    assert.ok(height < 2500, `${selector} is ${Math.round(height)} px tall (${before} before)`);
    // The lead shows without opening anything, before the form, each with its value.
    const lead = await el.evaluate((host, names) => names.map((name) => {
      const cell = host.shadowRoot.querySelector(`[data-output="${name}"]`);
      const form = host.shadowRoot.querySelector('fieldset.group');
      return { name, shown: cell.checkVisibility() && !cell.closest('details:not([open])'), text: cell.textContent.trim(),
        first: Boolean(cell.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING) };
    }), leadNames);
    for (const item of lead) assert.ok(item.shown && item.first && item.text !== '' && item.text !== '—', `${selector}: ${JSON.stringify(item)}`);
    // Every main field is on screen; the sections are closed and each says what it holds.
    assert.ok(await el.evaluate((host) => [...host.shadowRoot.querySelectorAll('fieldset.group[data-group="main"] :is(input, select)')]
      .every((field) => field.checkVisibility())));
    const closed = await el.evaluate((host) => [...host.shadowRoot.querySelectorAll('details.fold:not([open])')]
      .filter((d) => d.checkVisibility()).map((d) => d.querySelector('summary').textContent.trim()));
    assert.ok(closed.length >= 3, `${selector}: ${closed.join(' | ')}`);
    for (const title of closed) assert.ok(title.length > 8, `${selector}: summary "${title}"`);
    // Opened by their titles, the sections show every output, table and picture the element has.
    const folds = await el.evaluate((host) => [...host.shadowRoot.querySelectorAll('details.fold:not([open])')]
      .filter((d) => d.checkVisibility()).map((d) => d.dataset.fold));
    for (const fold of folds) await el.locator(`details[data-fold="${fold}"] > summary`).click();
    // The search's fastest table shows its first rows, and the rest by its button.
    if (await el.locator('button[data-more]').isVisible()) await el.locator('button[data-more]').click();
    const hidden = await el.evaluate((host) => {
      const root = host.shadowRoot;
      const parts = [...root.querySelectorAll('[data-output], table, tbody tr, svg[role="img"]')];
      return parts.filter((part) => !part.checkVisibility() && !part.closest('[hidden]') &&
        // The search's generic tables give way to its own (search-css.js).
        !(host.localName === 'sb-training-search' && part.closest('table[data-table]')))
        .map((part) => part.dataset.output ?? part.dataset.table ?? part.getAttribute('class') ?? part.textContent.slice(0, 40));
    });
    assert.deepEqual(hidden, [], selector);
    assert.ok(await heightOf(page, selector) > height + 500, `${selector} opens`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${selector}: no sideways scroll`);
    await el.screenshot({ path: path.join(SHOTS, `training-phone-${selector.replace(/\W+/g, '-')}.png`) });
    assert.deepEqual(errors, []);
    await page.close();
  }
});
