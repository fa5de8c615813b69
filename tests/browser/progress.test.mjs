// Saved progress is never lost, as a reader meets it: two tabs answering at once, a stored
// value with one bad record, a full storage, a backup restored from the progress box; and the
// progress box writes no link that could run script.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { answerNumber } from '../../web/runtime/exercises/exercise-html.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const exercisesOf = (slug) => fs.readFileSync(path.join(ROOT, `exercises/${slug}.json`), 'utf8');
const KEY = 'scalebook.progress';
const CRITICAL = 'roofline-ex3-critical-batch';
const H100 = 'roofline-ex1-h100-time';
const ROOFLINE = '01-roofline.html';
const ROOFLINE_COUNT = JSON.parse(exercisesOf('01-roofline')).exercises.length;

let site;
let engine;
before(async () => {
  site = await start();
  engine = await loadEngine();
});
after(async () => { await site?.stop(); });

const summary = (page) => page.locator('sb-progress [data-summary]').textContent();
const rec = (solved) => ({ attempts: 1, solved, last_answer: '240', seed: 0, parts: {}, updated: null });

// Every exercise on the page has started once its variant bar shows.
async function allReady(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('sb-exercise')]
    .every((ex) => !ex.querySelector('[data-variant-bar]')?.hidden));
}

// Answers part `part` of exercise `id` and waits for the grade.
async function answer(page, id, part, text) {
  const box = page.locator(`sb-exercise#${id} .sb-exercise-part[data-part="${part}"]`);
  await box.locator('[data-answer]').first().fill(text);
  await box.locator('[data-check]').click();
  await page.waitForFunction((el) => el.dataset.result, await box.locator('[data-feedback]').elementHandle());
  return box.locator('[data-feedback]').getAttribute('data-result');
}

// The engine's right answer to every part of a chapter's exercises, in the book's variant.
function rightAnswers(slug) {
  const file = exercisesOf(slug);
  return JSON.parse(file).exercises.flatMap((exercise) => engine.exerciseVariant(file, exercise.id, 0).parts
    .map((part, i) => ({
      id: exercise.id,
      part: exercise.parts[i].id || String.fromCharCode(97 + i),
      choice: part.kind === 'choice',
      text: part.kind === 'choice' ? String(part.expected) : `${answerNumber(part.expected)} ${part.unit ?? ''}`.trim(),
    })));
}

test('two tabs answering at the same moment lose no answer', async () => {
  const slug = '03-sharding';
  const jobs = rightAnswers(slug);
  assert.ok(jobs.length >= 40, `${jobs.length} parts`);
  const context = await site.browser.newContext();
  const errors = [];
  const tab = async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${site.base}/${slug}.html`);
    await allReady(page);
    return page;
  };
  const tabs = [await tab(), await tab()];
  // Alternate parts, so both tabs write the same exercises, and start them on one clock tick.
  const at = Date.now() + 500;
  const results = await Promise.all(tabs.map((page, t) => page.evaluate(async ({ mine, at: startAt }) => {
    await new Promise((resolve) => setTimeout(resolve, startAt - Date.now()));
    const boxes = mine.map((job) => document.querySelector(`sb-exercise#${job.id} .sb-exercise-part[data-part="${job.part}"]`));
    mine.forEach((job, i) => {
      if (job.choice) boxes[i].querySelector(`input[value="${CSS.escape(job.text)}"]`).checked = true;
      else boxes[i].querySelector('[data-answer]').value = job.text;
      boxes[i].querySelector('[data-check]').click();
    });
    const graded = () => boxes.every((box) => box.querySelector('[data-feedback]').dataset.result);
    while (!graded()) await new Promise((resolve) => setTimeout(resolve, 20));
    return boxes.map((box) => box.querySelector('[data-feedback]').dataset.result);
  }, { mine: jobs.filter((_, i) => i % 2 === t), at })));
  assert.deepEqual(results.flat().filter((r) => r !== 'correct'), [], 'every answer given is right');

  // A tab opened afterwards finds every exercise solved and every answer back in its box.
  const exercises = new Set(jobs.map((job) => job.id)).size;
  const later = await tab();
  const all = `${exercises} of ${exercises} solved · ${exercises} attempted`;
  await later.waitForFunction((text) => document.querySelector('sb-progress').shadowRoot
    .querySelector('[data-summary]').textContent === text, all, { timeout: 5000 }).catch(() => {});
  assert.equal(await summary(later), all);
  const shown = await later.evaluate((list) => list.map((job) => {
    const box = document.querySelector(`sb-exercise#${job.id} .sb-exercise-part[data-part="${job.part}"]`);
    return job.choice ? box.querySelector('[data-answer]:checked')?.value : box.querySelector('[data-answer]').value;
  }), jobs);
  assert.deepEqual(shown, jobs.map((job) => job.text));
  assert.deepEqual(errors, []);
  await context.close();
});

test('one bad record in saved progress hides none of the others, and the stored text is kept as it was', async () => {
  const { page, errors } = await site.open(ROOFLINE);
  const stored = JSON.stringify({ format: 'scalebook-progress', version: 2, exercises: {
    [CRITICAL]: rec(true), [H100]: { ...rec(true), attempts: 'twice' }, 'roofline-ex5-tokens': rec(false),
  } });
  await page.evaluate(([key, text]) => localStorage.setItem(key, text), [KEY, stored]);
  await page.reload();
  await allReady(page);
  assert.equal(await summary(page), `1 of ${ROOFLINE_COUNT} solved · 2 attempted`);
  await page.locator(`sb-exercise#${CRITICAL} [data-badge]`).waitFor({ state: 'visible' });
  assert.match(await page.locator('sb-progress [data-notice]').textContent(),
    /1 saved record could not be read and is set aside, left as it was \(exercise roofline-ex1-h100-time: attempts is not a whole number\)/);
  assert.match(await page.locator('sb-exercise >> nth=0').locator('[data-notice]').textContent(), /is set aside/,
    'the first exercise says so too');
  assert.equal(await answer(page, H100, 'a', '1.01 ms'), 'correct');
  assert.equal(await answer(page, 'roofline-ex5-tokens', 'a', '7'), 'incorrect');
  await page.reload();
  await allReady(page);
  assert.equal(await summary(page), `1 of ${ROOFLINE_COUNT} solved · 3 attempted`);
  assert.equal(await page.evaluate((key) => localStorage.getItem(key), KEY), stored);
  assert.deepEqual(errors, []);
  await page.close();
});

test('when storage is full, the warning is beside the exercise answered and nothing saved is lost', async () => {
  const { page, errors } = await site.open(ROOFLINE);
  await allReady(page);
  assert.equal(await answer(page, CRITICAL, 'a', '240'), 'correct');
  const saved = () => page.evaluate(() => Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])));
  const before = await saved();
  await page.addInitScript(() => {
    Storage.prototype.setItem = () => { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };
  });
  await page.reload();
  await allReady(page);
  assert.equal(await answer(page, H100, 'a', '1.01 ms'), 'correct');
  const notice = page.locator(`sb-exercise#${H100} [data-notice]`);
  assert.equal(await notice.isVisible(), true);
  assert.equal(await notice.textContent(), "Your answer could not be saved: this browser's storage for the book is full. " +
    'Nothing saved before is lost; this lasts until you leave the page.');
  assert.equal(await page.locator(`sb-exercise#${CRITICAL} [data-notice]`).isVisible(), false, 'only where it happened');
  assert.equal(await summary(page), `1 of ${ROOFLINE_COUNT} solved · 2 attempted`);
  assert.equal(await page.locator(`sb-exercise#${CRITICAL} [data-badge]`).isVisible(), true);
  assert.deepEqual(await saved(), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a backup of earlier progress is restored from the progress box', async () => {
  const { page, errors } = await site.open(ROOFLINE);
  const backup = JSON.stringify({ format: 'scalebook-progress', version: 2, exercises: { [CRITICAL]: rec(true), x: { solved: 1 } } });
  await page.evaluate(([key, text]) => localStorage.setItem(`${key}.backup`, text), [KEY, backup]);
  await page.reload();
  await allReady(page);
  assert.equal(await summary(page), `0 of ${ROOFLINE_COUNT} solved · 0 attempted`);
  const restore = page.locator(`sb-progress [data-restore="${KEY}.backup"]`);
  await restore.click();
  assert.equal(await page.locator('sb-progress [data-message]').textContent(),
    'Restored 1 exercise (1 solved). Skipped 1 record that could not be read (exercise x: attempts is not a whole number).');
  assert.equal(await summary(page), `1 of ${ROOFLINE_COUNT} solved · 1 attempted`);
  await page.locator(`sb-exercise#${CRITICAL} [data-badge]`).waitFor({ state: 'visible' });
  assert.equal(await page.evaluate((key) => localStorage.getItem(`${key}.backup`), KEY), backup, 'the backup stays');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a javascript: href given to <sb-progress book> is not written into a link', async () => {
  const { page, errors } = await site.open('index.html');
  const dialogs = [];
  page.on('dialog', (dialog) => { dialogs.push(dialog.message()); dialog.dismiss(); });
  await page.locator('sb-progress tr[data-chapter="01-roofline"] a[href="01-roofline.html"]').waitFor();
  const book = {
    plain: { title: 'Plain', href: 'javascript:alert(1)' },
    spelled: { title: 'Spelled', href: ' JaVaScRiPt:alert(2)' },
    split: { title: 'Split', href: 'java\tscript:alert(3)' },
    data: { title: 'Data', href: 'data:text/html,<script>alert(4)</script>' },
    'javascript:alert(5)//': { title: 'From the key' },
    relative: { title: 'Relative', href: '02-tpus.html#q1' },
    web: { title: 'Web', href: 'https://example.com/book' },
  };
  const links = await page.evaluate(async (attribute) => {
    const element = document.createElement('sb-progress');
    element.setAttribute('book', attribute);
    element.id = 'test-book';
    document.body.append(element);
    await new Promise(requestAnimationFrame);
    return [...element.shadowRoot.querySelectorAll('tr[data-chapter]')].map((row) => [row.dataset.chapter,
      row.querySelector('a')?.getAttribute('href') ?? null, row.querySelector('th').textContent]);
  }, JSON.stringify(book));
  assert.deepEqual(links, [
    ['plain', null, 'Plain'], ['spelled', null, 'Spelled'], ['split', null, 'Split'], ['data', null, 'Data'],
    ['javascript:alert(5)//', null, 'From the key'],
    ['relative', '02-tpus.html#q1', 'Relative'], ['web', 'https://example.com/book', 'Web'],
  ]);
  for (const chapter of ['plain', 'spelled', 'javascript:alert(5)//']) {
    await page.locator(`#test-book tr[data-chapter="${chapter}"] th`).click();
  }
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
  await page.close();
});
