// Exercises as a reader uses them: graded parts, variants in the URL, saved progress, the
// progress views with reset, export and import. Expected numbers come from the engine itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, SHOTS } from './harness.mjs';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { answerNumber } from '../../web/runtime/exercises/exercise-html.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FILE = fs.readFileSync(path.join(ROOT, 'exercises/01-roofline.json'), 'utf8');
const EXERCISES = JSON.parse(FILE).exercises;
const CRITICAL = 'roofline-ex3-critical-batch';
const EX3 = `sb-exercise#${CRITICAL}`;
const CHAPTER = '01-roofline.html';

let site;
let engine;
before(async () => {
  site = await start();
  engine = await loadEngine();
});
after(async () => { await site?.stop(); });

// The exercise element has started once its variant bar shows.
async function ready(page, ex = EX3) {
  await page.locator(`${ex} [data-variant-bar]`).waitFor({ state: 'visible' });
}

// Types (or picks) an answer to part `part` of `ex`, checks it, and returns the feedback.
async function answer(page, ex, part, text, { enter = false } = {}) {
  const box = `${ex} .sb-exercise-part[data-part="${part}"]`;
  const feedback = page.locator(`${box} [data-feedback]`);
  await feedback.evaluate((el) => { el.textContent = ''; delete el.dataset.result; });
  if (await page.locator(`${box}[data-kind="choice"]`).count()) {
    if (text) await page.check(`${box} input[value="${text}"]`);
  } else {
    await page.fill(`${box} [data-answer]`, text);
  }
  if (enter) await page.press(`${box} [data-answer] >> nth=0`, 'Enter');
  else await page.click(`${box} [data-check]`);
  await page.waitForFunction((el) => el.dataset.result, await feedback.elementHandle());
  return { text: (await feedback.textContent()).trim(), result: await feedback.getAttribute('data-result') };
}

const summary = (page) => page.locator('sb-progress [data-summary]').textContent();

test('a solved exercise stays solved after a reload, with its last answer in the box', async () => {
  const { page, errors } = await site.open(CHAPTER);
  await ready(page);
  assert.equal(await summary(page), `0 of ${EXERCISES.length} solved · 0 attempted`);
  assert.deepEqual(await answer(page, EX3, 'a', '100'), { text: 'not quite', result: 'incorrect' });
  assert.deepEqual(await answer(page, EX3, 'a', '240', { enter: true }), { text: 'correct', result: 'correct' });
  assert.equal(await page.locator(`${EX3} [data-badge]`).isVisible(), true);
  // The chapter's progress view follows without a reload.
  assert.equal(await summary(page), `1 of ${EXERCISES.length} solved · 1 attempted`);
  // Two parts: solved only when both are right.
  const h100 = 'sb-exercise#roofline-ex1-h100-time';
  assert.equal((await answer(page, h100, 'a', '1.01 ms')).result, 'correct');
  assert.equal(await page.locator(`${h100} [data-badge]`).isVisible(), false);
  assert.equal((await answer(page, h100, 'b', '1.09')).result, 'correct');
  assert.equal(await page.locator(`${h100} [data-badge]`).isVisible(), true);

  await page.reload();
  await ready(page);
  await page.locator(`${EX3} [data-badge]`).waitFor({ state: 'visible' });
  assert.equal(await page.inputValue(`${EX3} [data-answer]`), '240');
  assert.equal(await page.inputValue(`${h100} [data-part="b"] [data-answer]`), '1.09');
  assert.equal(await summary(page), `2 of ${EXERCISES.length} solved · 2 attempted`);
  assert.equal(await page.locator(`sb-progress li[data-exercise="${CRITICAL}"]`).getAttribute('data-status'), 'solved');
  await page.locator(EX3).screenshot({ path: path.join(SHOTS, 'exercise-solved.png') });

  // The book's index counts it too.
  await page.goto(`${site.base}/index.html`);
  const row = page.locator('sb-progress tr[data-chapter="01-roofline"]');
  await row.waitFor();
  assert.equal(await row.locator('[data-solved]').textContent(), '2');
  assert.equal(await row.locator('[data-total]').textContent(), String(EXERCISES.length));
  await page.locator('sb-progress').screenshot({ path: path.join(SHOTS, 'progress-book.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('another tab sees progress as it is made', async () => {
  // Two tabs share one profile's localStorage only within one browser context.
  const context = await site.browser.newContext();
  const errors = [];
  const tab = async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${site.base}/${CHAPTER}`);
    await ready(page);
    return page;
  };
  const page = await tab();
  const other = await tab();
  await answer(page, EX3, 'a', '240');
  await other.waitForFunction(() => document.querySelector('sb-progress').shadowRoot
    .querySelector('[data-summary]').textContent.startsWith('1 of'));
  await other.locator(`${EX3} [data-badge]`).waitFor({ state: 'visible' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a new variant changes the numbers and the answer, and the book\'s problem comes back', async () => {
  const { page, errors } = await site.open(CHAPTER);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const scripts = () => page.evaluate(() => performance.getEntriesByType('resource')
    .map((r) => r.name).filter((name) => name.endsWith('.js')));
  const firstLoad = await scripts();
  const bookPrompt = await page.locator(`${EX3} [data-prompt]`).textContent();
  // Some variants draw the book's chip again; draw until the numbers differ.
  let prompt = bookPrompt;
  for (let i = 0; i < 20 && prompt === bookPrompt; i += 1) {
    await page.click(`${EX3} [data-new-variant]`);
    await page.waitForFunction((ex) => document.querySelector(ex).dataset.seed !== '0' &&
      !document.querySelector(ex).classList.contains('is-loading'), EX3);
    prompt = await page.locator(`${EX3} [data-prompt]`).textContent();
  }
  assert.notEqual(prompt, bookPrompt);
  const seed = Number(await page.locator(EX3).getAttribute('data-seed'));
  assert.ok(seed >= 1 && seed <= 4294967295);
  assert.equal(new URL(page.url()).hash, `#ex-${CRITICAL}=${seed}`);
  assert.equal(await page.locator(`${EX3} [data-variant-name]`).textContent(), `Variant ${seed}`);
  assert.equal(await page.locator(`${EX3} [data-variant-link]`).getAttribute('href'), `#ex-${CRITICAL}=${seed}`);
  // Markdown and KaTeX came on demand, not with the chapter.
  assert.ok((await scripts()).length > firstLoad.length, 'the variant loaded the typesetting chunk');
  assert.ok(await page.locator(`${EX3} [data-prompt] .katex`).count() > 0);

  const variant = engine.exerciseVariant(FILE, CRITICAL, seed);
  const expected = variant.parts[0].expected;
  assert.equal((await answer(page, EX3, 'a', '240')).result, 'incorrect');
  assert.equal((await answer(page, EX3, 'a', answerNumber(expected))).result, 'correct');
  await page.click(`${EX3} [data-show-solution]`);
  assert.match(await page.locator(`${EX3} [data-solution]`).textContent(),
    new RegExp(`Answer: ${answerNumber(expected).replace('.', '\\.')} tokens`));
  assert.equal(await page.locator(`${EX3} [data-solution] .katex`).count(), variant.parts[0].steps.length);
  await page.locator(EX3).screenshot({ path: path.join(SHOTS, 'exercise-variant.png') });

  // Back later without the link: the variant last checked returns, with its answer.
  await page.goto(`${site.base}/${CHAPTER}`);
  await page.waitForFunction(([ex, s]) => document.querySelector(ex).dataset.seed === s &&
    !document.querySelector(ex).classList.contains('is-loading'), [EX3, String(seed)]);
  assert.equal(await page.inputValue(`${EX3} [data-answer]`), answerNumber(expected));
  assert.equal(await page.locator(`${EX3} [data-prompt]`).textContent(), prompt);

  await page.click(`${EX3} [data-book-variant]`);
  assert.equal(await page.locator(`${EX3} [data-prompt]`).textContent(), bookPrompt);
  assert.equal(await page.locator(`${EX3} [data-variant-name]`).textContent(), "Book's problem");
  assert.equal(new URL(page.url()).hash, `#ex-${CRITICAL}=0`);
  await page.click(`${EX3} [data-show-solution]`);
  await page.locator(`${EX3} [data-solution] .answer`).waitFor();
  assert.match(await page.locator(`${EX3} [data-solution]`).textContent(), /Answer: 240\.2 tokens \(the book gives 240 tokens\)/);
  assert.equal(await page.inputValue(`${EX3} [data-answer]`), '', 'no answer was given to the book\'s problem');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a wrong unit, a prefix slip and an unreadable answer each get their own message', async () => {
  const { page, errors } = await site.open(CHAPTER);
  await ready(page);
  assert.deepEqual(await answer(page, EX3, 'a', '5 ms'),
    { text: 'tokens is a count, but this answer is a time (ms)', result: 'incorrect' });
  const h100 = 'sb-exercise#roofline-ex1-h100-time';
  assert.deepEqual(await answer(page, h100, 'a', '3 GB/s'),
    { text: 'ms is a time, but this answer is a bandwidth (GB/s)', result: 'incorrect' });
  assert.deepEqual(await answer(page, h100, 'a', '1.011 s'),
    { text: 'off by a factor of 1000: check the unit prefix', result: 'incorrect' });
  assert.deepEqual(await answer(page, h100, 'a', 'banana'), { text: '"banana" is not a number', result: 'invalid' });
  // A choice part: nothing picked, then the right option.
  const dot = 'sb-exercise#roofline-ex2-dot-product';
  assert.deepEqual(await answer(page, dot, 'b', ''), { text: 'choose one of the options', result: 'invalid' });
  assert.deepEqual(await answer(page, dot, 'b', 'memory'), { text: 'correct', result: 'correct' });
  // Unreadable answers are not attempts.
  const saved = (id) => page.evaluate((key) => JSON.parse(localStorage.getItem(key)).exercises, `scalebook.progress/${id}`);
  assert.equal((await saved('roofline-ex1-h100-time'))['roofline-ex1-h100-time'].attempts, 2);
  assert.equal((await saved('roofline-ex2-dot-product'))['roofline-ex2-dot-product'].parts.b.attempts, 1);
  await page.locator(h100).screenshot({ path: path.join(SHOTS, 'exercise-feedback.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('exported progress comes back after a reset by importing the file', async () => {
  const { page, errors } = await site.open(CHAPTER);
  await ready(page);
  await answer(page, EX3, 'a', '240');
  await answer(page, 'sb-exercise#roofline-ex5-tokens', 'a', '7');
  const total = EXERCISES.length;
  assert.equal(await summary(page), `1 of ${total} solved · 2 attempted`);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('sb-progress [data-export]')]);
  assert.equal(download.suggestedFilename(), 'scalebook-progress.json');
  const file = path.join(SHOTS, 'scalebook-progress.json');
  await download.saveAs(file);
  const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(exported.format, 'scalebook-progress');
  assert.equal(exported.exercises[CRITICAL].solved, true);

  await page.click('sb-progress [data-reset]');
  await page.locator('sb-progress [data-confirm]').waitFor({ state: 'visible' });
  await page.click('sb-progress [data-cancel-reset]');
  assert.equal(await summary(page), `1 of ${total} solved · 2 attempted`, 'cancel keeps everything');
  await page.click('sb-progress [data-reset]');
  await page.click('sb-progress [data-confirm-reset]');
  assert.equal(await summary(page), `0 of ${total} solved · 0 attempted`);
  assert.equal(await page.locator(`${EX3} [data-badge]`).isVisible(), false);

  await page.setInputFiles('sb-progress [data-import]', { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1') });
  const message = page.locator('sb-progress [data-message]');
  await page.waitForFunction(() => /refused/.test(document.querySelector('sb-progress').shadowRoot.querySelector('[data-message]').textContent));
  assert.equal(await message.textContent(), 'The file was refused: it is not valid JSON.');

  await page.setInputFiles('sb-progress [data-import]', file);
  await page.waitForFunction(() => /Imported/.test(document.querySelector('sb-progress').shadowRoot.querySelector('[data-message]').textContent));
  assert.equal(await message.textContent(), 'Imported 2 exercises (1 solved).');
  assert.equal(await summary(page), `1 of ${total} solved · 2 attempted`);
  await page.locator(`${EX3} [data-badge]`).waitFor({ state: 'visible' });
  await page.locator('sb-progress').screenshot({ path: path.join(SHOTS, 'progress-chapter.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a variant in the link opens that variant; a bad one falls back to the book with a notice', async () => {
  const { page, errors } = await site.open(`${CHAPTER}#ex-${CRITICAL}=12345&ex-roofline-ex5-tokens=9`);
  await page.waitForFunction((ex) => document.querySelector(ex).dataset.seed === '12345' &&
    !document.querySelector(ex).classList.contains('is-loading'), EX3);
  assert.equal(await page.locator(`${EX3} [data-variant-name]`).textContent(), 'Variant 12345');
  const expected = engine.exerciseVariant(FILE, CRITICAL, 12345).parts[0].expected;
  assert.match(await page.locator(`${EX3} [data-solution]`).textContent(), new RegExp(`Answer: ${answerNumber(expected).replace('.', '\\.')} tokens`));
  await page.waitForFunction(() => document.querySelector('#roofline-ex5-tokens').dataset.seed === '9');

  await page.goto(`${site.base}/${CHAPTER}#ex-${CRITICAL}=banana`);
  await page.reload(); // a hash-only navigation keeps the page; load it afresh
  await ready(page);
  const notice = page.locator(`${EX3} [data-notice]`);
  await notice.waitFor({ state: 'visible' });
  assert.equal(await notice.textContent(),
    'The link asks for variant "banana", which is not a variant number (0 to 4294967295), so this is the book\'s problem.');
  assert.equal(await page.locator(EX3).getAttribute('data-seed'), '0');
  assert.equal(await page.locator(`${EX3} [data-variant-name]`).textContent(), "Book's problem");
  await page.locator(EX3).screenshot({ path: path.join(SHOTS, 'exercise-bad-link.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('unreadable saved progress is set aside with a notice and left as it was', async () => {
  const { page, errors } = await site.open(CHAPTER);
  await page.evaluate(() => localStorage.setItem('scalebook.progress', '{"format":"scalebook-progress","version":9}'));
  await page.reload();
  await ready(page);
  const notice = page.locator('sb-progress [data-notice]');
  await notice.waitFor({ state: 'visible' });
  assert.match(await notice.textContent(), /newer Scalebook \(format version 9/);
  await answer(page, EX3, 'a', '240');
  assert.equal(await summary(page), `1 of ${EXERCISES.length} solved · 1 attempted`);
  assert.equal(await page.evaluate(() => localStorage.getItem('scalebook.progress')),
    '{"format":"scalebook-progress","version":9}');
  assert.deepEqual(errors, []);
  await page.close();
});

test('without JavaScript the prompts and worked solutions can still be read', async () => {
  const context = await site.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${site.base}/${CHAPTER}`);
  assert.match(await page.locator(`${EX3} [data-prompt]`).textContent(), /token batch/);
  assert.equal(await page.locator(`${EX3} [data-variant-bar]`).isVisible(), false);
  assert.equal(await page.locator(`${EX3} [data-solution]`).isVisible(), false);
  await page.click(`${EX3} [data-show-solution]`);
  assert.equal(await page.locator(`${EX3} [data-solution]`).isVisible(), true);
  // The solution is a link to the chapter's solutions page, which needs no script either.
  await page.click(`${EX3} [data-solution] a`);
  assert.equal(new URL(page.url()).pathname, '/01-roofline-solutions.html');
  const id = await page.evaluate(() => decodeURIComponent(location.hash.slice(1)));
  assert.match(await page.locator(`[id="${id}"]`).textContent(), /Answer: 240\.2 tokens \(the book gives 240 tokens\)/);
  await context.close();
});

test('a worked solution that cannot be fetched keeps its link and says why; the next opening tries again', async () => {
  const { page, errors } = await site.open(CHAPTER);
  let refuse = true;
  await page.route('**/*-solutions.html', (route) => (refuse ? route.fulfill({ status: 503, body: 'down' }) : route.continue()));
  const box = page.locator(`${EX3} [data-solution]`);
  await page.click(`${EX3} [data-show-solution]`);
  await box.locator('[data-solution-error]').waitFor();
  assert.equal(await box.textContent(),
    "Read the worked solution on this chapter's page of solutions. (It could not be loaded here: the solutions page answered 503.)");
  assert.equal(await box.locator('a').getAttribute('href'), `01-roofline-solutions.html#${CRITICAL}-a-solution`);
  refuse = false;
  await page.click(`${EX3} [data-show-solution]`); // closes
  await page.click(`${EX3} [data-show-solution]`); // opens again
  await box.locator('.answer').waitFor();
  assert.match(await box.textContent(), /Answer: 240\.2 tokens/);
  assert.deepEqual(errors.filter((e) => !/503/.test(e)), []);
  await page.close();
});

test('if the engine cannot start, the exercises say so and nothing throws', async () => {
  const page = await site.browser.newPage();
  const thrown = [];
  page.on('pageerror', (e) => thrown.push(String(e)));
  await page.addInitScript(() => {
    const refuse = () => Promise.reject(new Error('WebAssembly is switched off'));
    WebAssembly.instantiate = refuse;
    WebAssembly.instantiateStreaming = refuse;
  });
  await page.goto(`${site.base}/${CHAPTER}`);
  // The grader is asked for when a reader reaches for the exercise (scrolling past is not enough).
  await page.locator(EX3).scrollIntoViewIfNeeded();
  await page.locator(`${EX3} [data-answer]`).first().focus();
  const notice = page.locator(`${EX3} [data-notice]`);
  await notice.waitFor({ state: 'visible' });
  assert.match(await notice.textContent(), /The exercise engine failed to load .*answers cannot be checked/);
  const { text, result } = await answer(page, EX3, 'a', '240');
  assert.equal(result, 'invalid');
  assert.match(text, /^This answer cannot be checked/);
  assert.deepEqual(thrown, []);
  await page.close();
});

test('an exercise with a variant and an open solution fits a phone screen', async () => {
  const { page, errors } = await site.open(`${CHAPTER}#ex-roofline-ex1-h100-time=77`, { width: 390, height: 844 });
  const ex = 'sb-exercise#roofline-ex1-h100-time';
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.seed === '77' &&
    !document.querySelector(sel).classList.contains('is-loading'), ex);
  await page.click(`${ex} [data-part="a"] [data-show-solution]`);
  await page.click(`${ex} .sb-exercise-hints summary`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.locator(ex).screenshot({ path: path.join(SHOTS, 'exercise-phone.png') });
  await page.locator('sb-progress').screenshot({ path: path.join(SHOTS, 'progress-phone.png') });
  // A step too wide for the phone (one of chapter 3's, fetched on opening) scrolls inside
  // itself, and a keyboard can reach it.
  const wide = 'sb-exercise#sharding-q4-two-strategies [data-part="e"]';
  await page.goto(`${site.base}/03-sharding.html`);
  await page.click(`${wide} [data-show-solution]`);
  await page.locator(`${wide} .answer`).waitFor();
  const steps = await page.locator(`${wide} .steps li`).evaluateAll((lis) =>
    lis.map((li) => ({ wide: li.scrollWidth > li.clientWidth + 1, focusable: li.tabIndex === 0 })));
  assert.ok(steps.some((s) => s.wide), 'a step is wider than a phone');
  assert.deepEqual(steps.filter((s) => s.wide && !s.focusable), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('part labels show typeset math, on the chapter and in an exercise embedded bare', async () => {
  const id = 'transformers-q4a-attention-intensity';
  const label = `sb-exercise#${id} [data-part="a"] label`;
  const { page, errors } = await site.open('04-transformers.html');
  await ready(page, `sb-exercise#${id}`);
  assert.equal(await page.locator(`${label} .katex`).count(), 1);
  assert.doesNotMatch(await page.locator(label).innerText(), /\$/);
  // With no shell inside, the element builds one in the browser, typesetting as the builder does.
  const spec = JSON.parse(fs.readFileSync(path.join(ROOT, 'exercises/04-transformers.json'), 'utf8'))
    .exercises.find((e) => e.id === id);
  await page.goto(`${site.base}/embed.html`);
  await page.evaluate(({ id, spec }) => {
    const element = document.createElement('sb-exercise');
    element.id = id;
    element.setAttribute('chapter', '04-transformers');
    const data = document.createElement('script');
    data.type = 'application/json';
    data.dataset.exercise = '';
    data.textContent = JSON.stringify({ chapter: '04-transformers', exercises: [spec] });
    element.append(data);
    document.querySelector('main').append(element);
  }, { id, spec });
  await page.locator(`${label} .katex`).waitFor();
  assert.doesNotMatch(await page.locator(label).innerText(), /\$/);
  assert.deepEqual(errors, []);
  await page.close();
});

// The chapter's exercise data (assets/exercises/CHAPTER.json) is not in the page: it comes with
// the grader, when a reader reaches for an exercise.
const DATA = /\/assets\/exercises\/01-roofline\.json$/;
const dataRequests = (page) => {
  const urls = [];
  page.on('request', (r) => { if (DATA.test(new URL(r.url()).pathname)) urls.push(r.url()); });
  return urls;
};

test('a first visit fetches no exercise data until an answer box is focused, then grades with it', async () => {
  const { page, errors } = await site.open(CHAPTER, undefined, { reached: false });
  const fetched = dataRequests(page);
  await ready(page);
  await page.locator(EX3).scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(fetched, []);
  await Promise.all([page.waitForRequest((r) => DATA.test(new URL(r.url()).pathname)),
    page.locator(`${EX3} [data-answer]`).focus()]);
  assert.deepEqual(await answer(page, EX3, 'a', '240'), { text: 'correct', result: 'correct' });
  assert.equal((await answer(page, 'sb-exercise#roofline-ex1-h100-time', 'a', '1.01 ms')).result, 'correct');
  assert.equal(fetched.length, 1, 'one fetch serves every exercise of the page');
  assert.deepEqual(errors, []);
  await page.close();
});

// An exercise's code in two: what shows it (sb-exercise-*.js, preloaded) and what checks and
// draws variants (exercise-live-*.js), with the store that writes progress (progress-store-*.js);
// the code that reads saved progress (progress-reader-*.js) comes only when something is saved.
test('a first visit and a scroll past an exercise fetch only the code that shows it; a focused answer box brings the rest, and a check grades and saves', async () => {
  const { page, errors } = await site.open(CHAPTER, undefined, { reached: false });
  const scripts = () => page.evaluate(() => performance.getEntriesByType('resource')
    .map((r) => new URL(r.name).pathname).filter((name) => name.endsWith('.js')));
  const LIVE = /^\/assets\/exercise-live-\w+\.js$/;
  const WRITER = /^\/assets\/progress-store-\w+\.js$/;
  const lazy = (name) => LIVE.test(name) || WRITER.test(name) || /^\/assets\/progress-reader-\w+\.js$/.test(name);
  await ready(page);
  await page.locator(EX3).scrollIntoViewIfNeeded();
  await page.locator(EX3).hover();
  await page.waitForLoadState('networkidle');
  const first = await scripts();
  assert.equal(first.filter((name) => /^\/assets\/sb-exercise-\w+\.js$/.test(name)).length, 1);
  assert.deepEqual(first.filter(lazy), []);
  const preloaded = await page.locator('link[rel="modulepreload"]').evaluateAll((links) => links.map((l) => new URL(l.href).pathname));
  assert.deepEqual(preloaded.filter(lazy), []);

  await Promise.all([page.waitForRequest((r) => LIVE.test(new URL(r.url()).pathname)),
    page.locator(`${EX3} [data-answer]`).focus()]);
  assert.deepEqual(await answer(page, EX3, 'a', '240'), { text: 'correct', result: 'correct' });
  assert.equal((await scripts()).filter((name) => WRITER.test(name)).length, 1);
  assert.equal(await page.evaluate((key) => JSON.parse(localStorage.getItem(key)).exercises[key.split('/')[1]].solved,
    `scalebook.progress/${CRITICAL}`), true);
  assert.equal(await page.locator(`${EX3} [data-badge]`).isVisible(), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('exercise data that cannot be fetched is said in the exercise, loses no progress, and the next reach tries again', async () => {
  const { page, errors } = await site.open(CHAPTER);
  let refuse = false;
  await page.route(DATA, (route) => (refuse ? route.fulfill({ status: 503, body: 'down' }) : route.continue()));
  await ready(page);
  await answer(page, EX3, 'a', '240');
  const progress = () => page.evaluate(() => Object.entries(localStorage).filter(([key]) => key.startsWith('scalebook.progress')));
  const saved = await progress();
  assert.equal(saved.length, 1);

  refuse = true;
  await page.reload();
  await ready(page);
  await page.locator(`${EX3} [data-badge]`).waitFor({ state: 'visible' });
  await page.locator(`${EX3} [data-answer]`).focus();
  const notice = page.locator(`${EX3} [data-notice]`);
  await notice.waitFor({ state: 'visible' });
  assert.equal(await notice.textContent(), "The exercise's data failed to load (the server answered 503): answers cannot be " +
    'checked. It is fetched again when you next use the exercise.');
  assert.deepEqual(await answer(page, EX3, 'a', '100'),
    { text: 'This answer cannot be checked: its data did not load (the server answered 503)', result: 'invalid' });
  assert.deepEqual(await progress(), saved, 'the saved progress is left as it was');
  assert.equal(await page.locator(`${EX3} [data-badge]`).isVisible(), true);

  refuse = false;
  await page.click(`${EX3} [data-answer]`);
  await notice.waitFor({ state: 'hidden' });
  assert.deepEqual(await answer(page, EX3, 'a', '240'), { text: 'correct', result: 'correct' });
  assert.deepEqual(errors.filter((e) => !/503/.test(e)), []);
  await page.close();
});

test('a variant in the link shows at load, its data fetched at once', async () => {
  const { page, errors } = await site.open(`${CHAPTER}#ex-${CRITICAL}=3`, undefined, { reached: false });
  await page.waitForFunction((ex) => document.querySelector(ex).dataset.seed === '3' &&
    !document.querySelector(ex).classList.contains('is-loading'), EX3);
  assert.equal(await page.locator(`${EX3} [data-variant-name]`).textContent(), 'Variant 3');
  const variant = engine.exerciseVariant(FILE, CRITICAL, 3);
  assert.match(await page.locator(`${EX3} [data-solution]`).textContent(),
    new RegExp(`Answer: ${answerNumber(variant.parts[0].expected).replace('.', '\\.')} tokens`));
  assert.equal((await answer(page, EX3, 'a', answerNumber(variant.parts[0].expected))).result, 'correct');
  assert.deepEqual(errors, []);
  await page.close();
});
