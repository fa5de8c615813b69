// The search index the build writes (assets/search-index.json): one document per section of
// every written chapter, its heading's id and chapter, and only the prose a reader sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { buildSite } from '../../web/builder/build.mjs';
import { pageSections } from '../../web/builder/search-index.mjs';
import { SEARCH_OPTIONS } from '../../web/runtime/site-search/search-options.js';
import { snippet } from '../../web/runtime/site-search/search-snippet.js';

const CHAPTER = `# Rooflines

An opening paragraph about time.

## The critical batch

Below the critical batch $B$, tokens are nearly free: $T_\\text{math} = \\frac{2BDF}{C}$ holds.

$$
\\sum_i x_i^2 \\le 2
$$

::calculator roofline chip=tpu-v5e flops=1e12 bytes=1e9

<script type="application/json">{"secret": "scriptword"}</script>

### Mixed precision

With int8 weights the intensity doubles.
`;

function scratchSite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-search-'));
  fs.mkdirSync(path.join(dir, 'chapters'));
  fs.mkdirSync(path.join(dir, 'exercises'));
  fs.writeFileSync(path.join(dir, 'chapters/toc.json'), JSON.stringify({
    title: 'T', subtitle: 'S',
    sections: [
      { number: 1, slug: '01-roofline', title: 'Rooflines', summary: 'x', file: 'x.md' },
      { number: 2, slug: '02-later', title: 'Later', summary: 'not written' },
    ],
  }));
  fs.writeFileSync(path.join(dir, 'chapters/x.md'), CHAPTER);
  return { dir, out: path.join(dir, 'dist') };
}

test('the build writes every section of a written chapter with its heading id and chapter, and no KaTeX markup, template or script', async () => {
  const { dir, out } = scratchSite();
  await buildSite({ chaptersDir: path.join(dir, 'chapters'), exercisesDir: path.join(dir, 'exercises'), out });
  const documents = JSON.parse(fs.readFileSync(path.join(out, 'assets/search-index.json'), 'utf8'));
  assert.deepEqual(documents.map((d) => [d.href, d.chapter, d.title]), [
    ['01-roofline.html', 1, 'Rooflines'],
    ['01-roofline.html#the-critical-batch', 1, 'The critical batch'],
    ['01-roofline.html#mixed-precision', 1, 'Mixed precision'],
  ]);
  const batch = documents[1];
  assert.equal(batch.chapterTitle, 'Rooflines');
  // A formula of one word reads as it, a longer one as "…".
  assert.equal(batch.text, 'Below the critical batch B, tokens are nearly free: … holds.');
  const all = JSON.stringify(documents);
  // KaTeX's markup and its spoken words, the calculator's shadow-root template, the script.
  for (const absent of ['katex', 'frac', 'sum over', 'sub math', 'template', 'shadowroot', '<', 'scriptword', 'Peak FLOP/s']) {
    assert.ok(!all.includes(absent), absent);
  }
  // The index the browser makes from them, with the same options, finds the section first.
  const index = new MiniSearch(SEARCH_OPTIONS);
  index.addAll(documents);
  assert.equal(index.search('critical batch')[0].id, batch.id);
  assert.equal(index.search('critcal')[0].id, batch.id, 'a slip is forgiven');
  assert.equal(index.search('precis')[0].id, documents[2].id, 'a word is found by its start');
  assert.deepEqual(index.search('critical precision'), [], 'every word must be in the section');
});

test("an exercise's title is a section of its own with its prompt, without its answers, hints or data", () => {
  const html = `<main><h1 id="t">T</h1><h2 id="problems">Problems to try</h2><p>Try these.</p>
<sb-exercise id="ex-1"><script type="application/json" data-exercise>{"prompt": "<b>a < b</b>"}</script>
<div class="sb-exercise-head"><h3 class="sb-exercise-title" id="ex-1-title">Question 1: the H100's time</h3>
<span class="sb-exercise-badge" data-badge hidden>Solved</span></div>
<div class="sb-exercise-variant" data-variant-bar hidden><button type="button">New variant</button></div>
<div class="sb-exercise-prompt" data-prompt><p>How long does a <em>matmul</em> take?</p></div>
<details class="sb-exercise-hints"><summary>Hint</summary><p>hintword</p></details>
<div class="sb-exercise-parts"><label for="x">Answer (us)</label><input id="x"><div class="sb-exercise-solution" hidden>solutionword</div></div>
</sb-exercise>
<section class="progress" aria-label="Your progress"><h2>Your progress</h2></section>
<nav class="chapter-nav"><a href="02.html">Next</a></nav></main>`;
  assert.deepEqual(pageSections(html), [
    { level: 1, id: null, title: 'T', text: '', exercise: false },
    { level: 2, id: 'problems', title: 'Problems to try', text: 'Try these.', exercise: false },
    { level: 3, id: 'ex-1-title', title: "Question 1: the H100's time", text: 'How long does a matmul take?', exercise: true },
  ]);
});

test('a snippet is cut around the first matched word, at word boundaries, with the matches marked', () => {
  const text = `${'Some words before. '.repeat(6)}Below the critical batch, tokens are nearly free.${' And after.'.repeat(12)}`;
  const pieces = snippet(text, ['critical', 'batch']);
  assert.equal(pieces[0].text, '…');
  assert.equal(pieces.at(-1).text, '…');
  assert.deepEqual(pieces.filter((p) => p.match).map((p) => p.text), ['critical', 'batch']);
  const shown = pieces.slice(1, -1).map((p) => p.text).join('');
  assert.ok(shown.length <= 150, shown);
  const at = text.indexOf(shown);
  assert.ok(at > 0 && text[at - 1] === ' ' && text[at + shown.length] === ' ', `cut at word boundaries: "${shown}"`);
  assert.deepEqual(snippet('a short text', ['nothing']), [{ text: 'a short text', match: false }]);
});

test('a snippet shows the place where most of the matched words are together', () => {
  const text = `The batch is large. ${'Filler words go here. '.repeat(10)}Below the critical batch, tokens are free.`;
  const pieces = snippet(text, ['critical', 'batch']);
  assert.deepEqual(pieces.filter((p) => p.match).map((p) => p.text), ['critical', 'batch']);
});
