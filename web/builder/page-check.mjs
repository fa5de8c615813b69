// The last check on a built page: no TeX or template left for the reader to see. The Markdown
// checks (source-checks.mjs) catch slips in prose at their line; this one also covers text that
// reaches the page by other roads: raw HTML in a chapter, exercise titles and choices, the
// engine's step labels, the contents list.
import { BuildError } from './errors.mjs';

// Elements whose text is not prose: KaTeX's output (its MathML keeps the TeX source), code,
// data islands and styles.
const SKIPPED = [
  { tag: 'span', open: /<span class="katex(?:-display)?"[^>]*>/g },
  { tag: 'math', open: /<math[\s>]/g },
  { tag: 'pre', open: /<pre[\s>]/g },
  { tag: 'code', open: /<code[\s>]/g },
  { tag: 'script', open: /<script[\s>]/g },
  { tag: 'style', open: /<style[\s>]/g },
];

const LEFTOVERS = [
  { pattern: /\$\$|\$[^\s$][^$<>\n]*\$/, what: 'math left untypeset' },
  { pattern: /\\[a-zA-Z]+|\\[()[\]]/, what: 'TeX left outside math' },
  { pattern: /\{\{|\}\}/, what: 'a template left unfilled' },
];

// Blanking keeps line breaks, so offsets still give lines. A tag becomes TAG characters, so a
// message can quote the one piece of text a leftover sits in.
const TAG = '\u0001';
const blank = (text, by = ' ') => text.replace(/[^\n]/g, by);

// End of the element whose open tag starts at `start`, counting nested ones of the same tag.
function elementEnd(html, tag, start) {
  const tags = new RegExp(`<${tag}[\\s>]|</${tag}>`, 'g');
  tags.lastIndex = start + 1;
  let depth = 1;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[0].startsWith('</') ? -1 : 1;
    if (depth === 0) return m.index + m[0].length;
  }
  return html.length;
}

// The page's visible text, everything else blanked in place.
function proseOf(html) {
  const ranges = [];
  for (const { tag, open } of SKIPPED) {
    open.lastIndex = 0;
    for (let m = open.exec(html); m; m = open.exec(html)) {
      const end = elementEnd(html, tag, m.index);
      ranges.push([m.index, end]);
      open.lastIndex = end;
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const pieces = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    pieces.push(html.slice(at, Math.max(at, start)), blank(html.slice(Math.max(at, start), end)));
    at = end;
  }
  pieces.push(html.slice(at));
  return pieces.join('').replace(/<[^>]*>/g, (tag) => blank(tag, TAG));
}

// What a strict Content-Security-Policy (scripts/serve's: no 'unsafe-inline') would refuse:
// the page must not depend on any of it. Styles go through linked or constructed sheets
// (runtime/core/sheets.js, hoist-styles.js), scripts through files.
const REFUSED = [
  { pattern: /<[a-zA-Z][^>]*\sstyle\s*=/, what: 'a style attribute (refused by the CSP; use a class)' },
  { pattern: /<style[\s>]/, what: 'a <style> element (refused by the CSP; use a linked sheet)' },
  { pattern: /<script(?![^>]*\ssrc=)(?![^>]*type="application\/json")[\s>]/, what: 'an inline script (refused by the CSP)' },
  { pattern: /<[a-zA-Z][^>]*\son[a-z]+\s*=/, what: 'an inline event handler (refused by the CSP)' },
  { pattern: /\s(?:href|src|action)\s*=\s*["']?\s*javascript:/i, what: 'a javascript: URL' },
];

function refusedByPolicy(html, page, source) {
  for (const { pattern, what } of REFUSED) {
    const m = pattern.exec(html);
    if (!m) continue;
    const line = html.slice(0, m.index).split('\n').length;
    throw new BuildError(page, line, `${what} on the page built from ${source}: "${html.slice(m.index, m.index + 60).split('\n')[0]}"`);
  }
}

// Throws a BuildError at the page's line of the first leftover. `source` is the chapter file
// the page was built from, named in the message.
export function checkPage(html, page, source) {
  refusedByPolicy(html, page, source);
  const text = proseOf(html);
  for (const { pattern, what } of LEFTOVERS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const line = text.slice(0, m.index).split('\n').length;
    const start = Math.max(text.lastIndexOf(TAG, m.index), text.lastIndexOf('\n', m.index)) + 1;
    const end = text.slice(m.index + m[0].length).search(new RegExp(`[${TAG}\n]`));
    const around = text.slice(start, end < 0 ? undefined : m.index + m[0].length + end)
      .replaceAll(TAG, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
    throw new BuildError(page, line, `${what} on the page built from ${source}: "${around}"`);
  }
}
