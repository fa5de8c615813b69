// <sb-model-config> in a real browser, on a scratch site built with its directive beside a
// ::transformer: a pasted config.json's mapping table, errors beside the textarea, an example
// button, handing the model to the transformer element, a phone's width and axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startScratch } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { formatValue, useEngine } from '../../web/runtime/core/format.js';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const config = (id) => fs.readFileSync(fileURLToPath(new URL(`../fixtures/model-configs/${id}.json`, import.meta.url)), 'utf8');

const PAGE = `# Models

::model-config

::transformer model=llama-3-8b
`;

let site;
let engine;
before(async () => {
  site = await startScratch('06-applied-training', PAGE);
  engine = await loadEngine();
  useEngine(engine);
});
after(async () => { await site?.stop(); });

async function open(viewport) {
  const { page, errors } = await site.open('06-applied-training.html', viewport);
  // The element is live once its textarea answers: wait for the engine to arrive.
  await page.waitForFunction(() => document.querySelector('sb-transformer')?.shadowRoot?.querySelector('[data-body] svg'));
  return { page, errors, box: page.locator('sb-model-config') };
}

const cell = (box, field) => box.locator(`tr[data-field="${field}"] .mc-value`);

test('pasting LLaMA 3 70B\'s config.json shows its fields, their keys and its size', async () => {
  const { page, errors, box } = await open();
  await box.getByLabel('config.json').fill(config('llama-3-70b'));
  await cell(box, 'L').waitFor();
  const shown = {};
  for (const field of ['L', 'D', 'F', 'N', 'K', 'H', 'V', 'tied', 'E']) shown[field] = await cell(box, field).textContent();
  assert.deepEqual(shown, { L: '80', D: '8192', F: '28672', N: '64', K: '8', H: '128', V: '128256', tied: 'no', E: '0' });
  assert.equal(await box.locator('tr[data-field="L"] td:last-child').textContent(), 'num_hidden_layers');
  assert.equal(await box.locator('tr[data-field="H"] td:last-child').textContent(), 'absent: hidden_size / num_attention_heads');
  const totals = engine.calculate('transformer', { model: 'llama-3-70b' }, { steps: false });
  assert.equal(await box.locator('[data-stat="params"]').textContent(), formatValue(totals.params, 'params', 'sci'));
  assert.equal(await box.locator('[data-stat="flops_per_token"]').textContent(),
    formatValue(totals.flops_forward / totals.tokens, 'FLOP', 'si'));
  assert.equal(await box.locator('summary').textContent(), 'Keys not mapped (14)');
  assert.equal(await box.locator('[data-error-for="config"]').textContent(), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('garbage and incomplete configs show the engine\'s message beside the textarea', async () => {
  const { page, box } = await open();
  const area = box.getByLabel('config.json');
  const error = box.locator('[data-error-for="config"]');
  await area.fill('this is not json');
  await page.waitForFunction(() => document.querySelector('sb-model-config').shadowRoot.querySelector('[data-error-for="config"]').textContent);
  // nlohmann reads the "t" as the start of true and fails at the "h".
  assert.equal(await error.textContent(), 'config.json is not JSON: a syntax error at line 1, column 2');
  assert.equal(await area.getAttribute('aria-invalid'), 'true');
  assert.equal(await area.getAttribute('aria-describedby'), 'mc-error');
  await area.fill('{"hidden_size": 4096, "num_attention_heads": 32}');
  await page.waitForFunction(() => /has no/.test(document.querySelector('sb-model-config').shadowRoot.querySelector('[data-error-for="config"]').textContent));
  assert.equal(await error.textContent(), 'config.json has no num_hidden_layers (L), no intermediate_size (F), no vocab_size (V)');
  assert.equal(await box.locator('[data-result] table').count(), 0);
  await area.fill(config('llama-3-8b'));
  await cell(box, 'L').waitFor();
  assert.equal(await error.textContent(), '');
  assert.equal(await area.getAttribute('aria-invalid'), null);
  await page.close();
});

test('an example button loads a preset\'s config; "use" hands the model to the transformer element', async () => {
  const { page, errors, box } = await open();
  await box.getByRole('button', { name: 'DeepSeek-V3' }).click();
  await cell(box, 'E').waitFor();
  assert.equal(await cell(box, 'E').textContent(), '256');
  assert.equal(await cell(box, 'kv_rank').textContent(), '512');
  assert.equal(await box.locator('[data-status]').textContent(), 'Loaded the DeepSeek-V3 config.json.');
  assert.equal(await box.locator('[data-not-modelled]').textContent(), 'Not modelled: num_nextn_predict_layers.');
  const changed = page.evaluate(() => new Promise((resolve) => {
    window.addEventListener('sb-change', (e) => resolve(e.detail.params), { once: true });
  }));
  await box.getByRole('button', { name: 'Use this model in the calculators on this page' }).click();
  assert.equal(await changed, engine.calculate('transformer', { model: 'deepseek-v3' }, { steps: false }).params);
  const form = await page.evaluate(() => {
    const f = document.querySelector('sb-transformer').shadowRoot.querySelector('form').elements;
    return { model: f.model.value, L: f.L.value, E: f.E.value, kv_rank: f.kv_rank.value };
  });
  assert.deepEqual(form, { model: 'custom', L: '61', E: '256', kv_rank: '512' });
  assert.equal(await box.locator('[data-status]').textContent(), 'The model is in 1 calculator on this page.');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone the box fits the screen, and axe finds nothing with a mapping shown', async () => {
  for (const [viewport, scheme] of [[{ width: 390, height: 844 }, 'light'], [{ width: 1280, height: 900 }, 'dark']]) {
    const { page, box } = await open(viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await box.getByLabel('config.json').fill(config('gemma-2-27b'));
    await cell(box, 'L').waitFor();
    await box.locator('summary').click();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at ${viewport.width} px`);
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => (await window.axe.run(document.querySelector('sb-model-config'))).violations
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' > ')).slice(0, 3).join(' | ')}`));
    assert.deepEqual(violations, [], `${scheme} ${viewport.width}`);
    await page.close();
  }
});
