// Which closed sections leave a chapter page for its folds page (web/builder/lazy-folds.mjs),
// and what each leaves behind: its summary, its key and a link to its body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { takeFolds, foldsPage } from '../../web/builder/lazy-folds.mjs';

const BIG = `<p>${'a table of many rows '.repeat(30)}</p>`;
const fold = (attrs, body, summary = 'More') => `<details${attrs}><summary>${summary}</summary>${body}</details>`;
const host = (inner) => `<sb-training-split x="1"><template shadowrootmode="open">${inner}</template></sb-training-split>`;

test('a closed section of a listed element leaves its body for the folds page, with a link to it', () => {
  const { html, folds } = takeFolds(host(fold(' class="fold" data-fold="times"', BIG, 'Times')), 'assets/folds/05-x.html');
  assert.equal(html, host('<details class="fold" data-fold="times" data-lazy="0"><summary>Times</summary>' +
    '<p class="fold-link" data-fold-link><a href="assets/folds/05-x.html#fold-0">Read this section on its own page</a></p></details>'));
  assert.deepEqual(folds, [{ key: '0', tag: 'sb-training-split', title: 'Times', body: BIG }]);
});

test('an exercise\'s hints go; a section that is open, small, holds a field or an id pointed at, or is outside a listed element, stays', () => {
  const hints = `<sb-exercise id="e">${fold(' class="sb-exercise-hints" data-hints', BIG, 'Hint')}</sb-exercise>`;
  assert.deepEqual(takeFolds(hints, 'f.html').folds.map((f) => [f.tag, f.title]), [[null, 'Hint']]);
  // The planner's worked steps go too: its live code redraws the section once the reader edits.
  const planner = `<sb-sharded-matmul><template shadowrootmode="open">${fold(' class="worked"', BIG)}</template></sb-sharded-matmul>`;
  assert.deepEqual(takeFolds(planner, 'f.html').folds.map((f) => f.tag), ['sb-sharded-matmul']);
  const stays = [
    host(fold(' open', BIG)),
    host(fold('', '<p>short</p>')),
    host(fold('', `${BIG}<input name="chips">`)),
    host(`<span aria-describedby="help-x"></span>${fold('', `${BIG}<span id="help-x">why</span>`)}`),
    `<sb-sharding><template shadowrootmode="open">${fold('', BIG)}</template></sb-sharding>`,
    fold('', BIG),
  ];
  for (const page of stays) assert.deepEqual(takeFolds(page, 'f.html'), { html: page, folds: [] }, page.slice(0, 80));
  // An id that only its own section points at, or another shadow root, is no reason to stay.
  const own = host(fold('', `${BIG}<div aria-describedby="h"><span id="h">x</span></div>`)) + host('<p aria-describedby="h"></p><span id="h"></span>');
  assert.equal(takeFolds(own, 'f.html').folds.length, 1);
});

test('a section inside a section goes with its outer one, and the folds page holds each in its element\'s sheets', () => {
  const inner = fold(' data-fold="inner"', BIG, 'Inner');
  const { folds } = takeFolds(host(fold(' data-fold="outer"', `${BIG}${inner}`, 'Outer')), 'f.html');
  assert.deepEqual(folds.map((f) => f.title), ['Outer']);
  assert.ok(folds[0].body.endsWith(inner));
  const page = foldsPage({ slug: '05-x', title: '5. X', folds });
  assert.match(page, /<section id="fold-0" aria-labelledby="fold-0-title"><h2 id="fold-0-title">Outer<\/h2><div><template shadowrootmode="open">/);
  assert.match(page, /<link rel="stylesheet" href="\.\.\/css\/shadow\.css"><link rel="stylesheet" href="\.\.\/css\/split\.css"><div class="fold-body" data-fold-body>/);
  assert.match(page, /<link rel="stylesheet" href="\.\.\/css\/math\/05-x\.css">/);
});
