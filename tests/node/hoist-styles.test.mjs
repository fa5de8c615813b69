// KaTeX's style attributes become classes with the same declarations (hoist-styles.js), so a
// page under a strict CSP keeps its math's layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import katex from 'katex';
import { hoistStyles, ruleFor } from '../../web/runtime/core/hoist-styles.js';
import { hoistPageStyles } from '../../web/builder/page-styles.mjs';
import { checkPage } from '../../web/builder/page-check.mjs';

test('a style attribute becomes a class of the tag, merged into its class list', () => {
  const rules = new Map();
  const html = hoistStyles('<span class="strut" style="height:0.6944em;"></span><span style="top:-3em;margin-right:0.05em;">x</span>', rules);
  const names = [...rules.keys()];
  assert.equal(names.length, 2);
  assert.equal(html, `<span class="strut ${names[0]}"></span><span class="${names[1]}">x</span>`);
  assert.equal(rules.get(names[0]), `.${names[0]}{height:0.6944em !important}`);
  assert.equal(rules.get(names[1]), `.${names[1]}{top:-3em !important;margin-right:0.05em !important}`);
});

test('the same declarations give the same class wherever they occur, and entities are decoded', () => {
  const a = new Map();
  const b = new Map();
  hoistStyles('<i style="color:#cc0000"></i>', a);
  hoistStyles('<b class="x" style="color:#cc0000"></b>', b);
  assert.deepEqual([...a.keys()], [...b.keys()]);
  assert.equal(ruleFor('n', 'font-family:"A"'), '.n{font-family:"A" !important}');
  const c = new Map();
  hoistStyles('<i style="font-family:&quot;A&quot;"></i>', c);
  assert.equal([...c.values()][0], `.${[...c.keys()][0]}{font-family:"A" !important}`);
});

test('no style attribute is left in a typeset formula, single-quoted SVG ones included', () => {
  const rules = new Map();
  const html = hoistStyles(katex.renderToString('\\sqrt{\\frac{a}{b}} + \\overbrace{x+y}', { output: 'html' }), rules);
  assert.doesNotMatch(html, /\sstyle=/);
  assert.ok(rules.size > 5, `${rules.size} rules`);
  for (const rule of rules.values()) assert.match(rule, /^\.s-[0-9a-z]+\{[^{}]+\}$/);
});

test('a page keeps the styles of its shadow roots for the page check to refuse', () => {
  const rules = new Map();
  const page = '<p style="a:b"></p><template shadowrootmode="open"><svg style="c:d"></svg></template>';
  const out = hoistPageStyles(page, rules);
  assert.match(out, /^<p class="s-[0-9a-z]+"><\/p><template shadowrootmode="open"><svg style="c:d"><\/svg><\/template>$/);
  assert.throws(() => checkPage(out, 'dist/x.html', 'chapters/x.md'),
    { message: 'dist/x.html:1: a style attribute (refused by the CSP; use a class) on the page built from chapters/x.md: "<svg style="c:d"></svg></template>"' });
});

test('the page check refuses what the policy would: style blocks, inline scripts and handlers', () => {
  const cases = [
    ['<style>p{}</style>', 'a <style> element (refused by the CSP; use a linked sheet)'],
    ['<script>alert(1)</script>', 'an inline script (refused by the CSP)'],
    ['<button onclick="go()">', 'an inline event handler (refused by the CSP)'],
    ['<a href="javascript:go()">', 'a javascript: URL'],
  ];
  for (const [html, what] of cases) {
    assert.throws(() => checkPage(`<p>ok</p>\n${html}`, 'p.html', 'c.md'), { message: new RegExp(`^p\\.html:2: ${what.replace(/[()<>:]/g, '\\$&')}`) });
  }
  assert.doesNotThrow(() => checkPage('<script type="module" src="a.js"></script><script type="application/json" data-exercise>{}</script>', 'p.html', 'c.md'));
});
