// Which author-given URLs may become links (web/runtime/core/safe-url.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeHref } from '../../web/runtime/core/safe-url.js';

test('relative and http(s) URLs are written as given', () => {
  for (const href of ['02-tpus.html', './a/b.html?x=1#y', '../up.html', '/abs.html', '#part', '?q=1', '',
    'https://example.com/x', 'HTTP://example.com', '//example.com/x', 'javascript%3Aalert(1)']) {
    assert.equal(safeHref(href), href, href);
  }
});

test('script, data and other schemes are refused however they are spelled', () => {
  for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', '\u0001javascript:alert(1)',
    'java\tscript:alert(1)', 'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'blob:https://a/b',
    'http://[', 'javascript:alert(1)//.html']) {
    assert.equal(safeHref(href), '', JSON.stringify(href));
  }
  for (const value of [null, undefined, 5, {}, ['x']]) assert.equal(safeHref(value), '');
});
