// Closed sections a reader may never open leave the page: the body of each closed <details> of
// the elements named in LAZY_HOSTS, and each exercise's hints, moves to the page's folds page
// (assets/folds/PAGE.html, one <section id="fold-KEY"> each). The section keeps its summary, a
// data-lazy key and a link to its body there. web/runtime/core/lazy-folds.js puts the body back
// the first time the section opens (the folds page is fetched as a pointer or the focus nears a
// summary), and a live element then redraws what it holds; without the script, the link leads to
// the body on the folds page. Chapter 5 carried 1 MB of such HTML (14 kB brotli): plots, tables
// and results behind summaries, read by few readers and fetched by every one.
//
// A section stays in the page when it is open, holds a form field (a calculator reads its
// fields, closed or not) or holds an id something outside it points at.
import { escapeHtml } from './errors.mjs';
import { declarativeShadow } from '../runtime/core/sheets.js';
import './sheets.mjs'; // every element's sheets, which declarativeShadow reads

// The elements whose folds may go: their live code finds a section's nodes by selector and skips
// the ones not there yet, and redraws them when a section fills (sb-calculator.js), or, as the
// sharded-matmul planner's worked steps, redraws the section itself once the reader edits.
export const LAZY_HOSTS = ['sb-training', 'sb-training-split', 'sb-training-plan', 'sb-training-budget', 'sb-training-search',
  'sb-sharded-matmul'];
const HINTS = 'sb-exercise-hints';

// Sections whose body is this small stay: the key and the link would cost more than they save.
const MIN_BODY = 400;

// [start, end) of every element `tag` in `html`, outermost and nested alike, in document order.
function ranges(html, tag) {
  const out = [];
  const stack = [];
  for (const m of html.matchAll(new RegExp(`<${tag}[\\s>]|</${tag}>`, 'g'))) {
    if (m[0][1] !== '/') stack.push(out.push([m.index, -1]) - 1);
    else if (stack.length) out[stack.pop()][1] = m.index + m[0].length;
  }
  return out.filter(([, end]) => end > 0);
}

const idsIn = (html) => [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
// True if `html` points at `id` (a link, a label, an ARIA reference).
function refers(html, id) {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:href="#|for="|aria-[a-z]+="(?:[^"]*\\s)?)${escaped}(?=["\\s])`).test(html);
}

// The closed sections of `html` that may go, outermost only: [{ start, end, bodyStart (after its
// </summary>), tag (the element whose shadow root holds it, or null), title (the summary's text) }].
function candidates(html) {
  const hosts = ranges(html, `(?:${LAZY_HOSTS.join('|')})`); // hosts never nest in one another
  const roots = ranges(html, 'template');
  const found = [];
  for (const [start, end] of ranges(html, 'details')) {
    const open = html.slice(start, html.indexOf('>', start) + 1);
    if (/\sopen[\s>=]/.test(open) || /\sdata-lazy=/.test(open)) continue;
    const host = hosts.find(([a, b]) => a < start && end <= b);
    if (!open.includes(`class="${HINTS}"`) && !host) continue;
    const summaryEnd = html.indexOf('</summary>', start);
    if (summaryEnd < 0 || summaryEnd > end) continue;
    const bodyStart = summaryEnd + '</summary>'.length;
    const body = html.slice(bodyStart, end - '</details>'.length);
    if (body.length < MIN_BODY || /<(?:input|select|textarea)[\s>]/.test(body)) continue;
    // ids live in their tree: a shadow root's own, or the page's outside every shadow root.
    const [from, to] = roots.find(([a, b]) => a < start && end <= b) ?? [0, html.length];
    const outside = html.slice(from, start) + html.slice(end, to);
    if (idsIn(body).some((id) => refers(outside, id))) continue;
    const tag = host ? html.slice(host[0] + 1).match(/^[\w-]+/)[0] : null;
    const title = html.slice(html.indexOf('>', html.indexOf('<summary', start)) + 1, summaryEnd).replace(/<[^>]+>/g, '');
    found.push({ start, end, bodyStart, tag, title });
  }
  return found.filter((f) => !found.some((g) => g !== f && g.start < f.start && f.end <= g.end));
}

// `html` with its lazy sections' bodies taken out, each left with a link to its body on `page`
// (the folds page, from the chapter's page), and the bodies: [{ key, tag, title, body }].
export function takeFolds(html, page) {
  const folds = [];
  let out = '';
  let last = 0;
  candidates(html).forEach(({ start, end, bodyStart, tag, title }, i) => {
    const key = String(i);
    const tagEnd = html.indexOf('>', start);
    folds.push({ key, tag, title, body: html.slice(bodyStart, end - '</details>'.length) });
    out += `${html.slice(last, tagEnd)} data-lazy="${key}"${html.slice(tagEnd, bodyStart)}` +
      `<p class="fold-link" data-fold-link><a href="${page}#fold-${key}">Read this section on its own page</a></p></details>`;
    last = end;
  });
  return { html: out + html.slice(last), folds };
}

// The head's pointer to the page's folds page, which the runtime reads.
export function foldsMeta(file) {
  return `<meta name="scalebook-folds" content="${file}">`;
}

// The folds page of chapter `slug` (in assets/folds/): each section under its summary, an
// element's in a shadow root with that element's sheets, as on the chapter's page.
export function foldsPage({ slug, title, folds }) {
  const sections = folds.map(({ key, tag, title: summary, body }) => {
    const holder = `<div class="fold-body" data-fold-body>${body}</div>`;
    const content = tag ? `<div>${declarativeShadow(tag, holder, '../css/')}</div>` : `<div class="sb-solutions">${holder}</div>`;
    return `<section id="fold-${key}" aria-labelledby="fold-${key}-title"><h2 id="fold-${key}-title">${summary}</h2>${content}</section>`;
  }).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Folded sections: ${escapeHtml(title)} · Scalebook</title>
<link rel="stylesheet" href="../katex/katex.min.css">
<link rel="stylesheet" href="../css/math/${slug}.css">
<link rel="stylesheet" href="../css/exercise.css">
<link rel="stylesheet" href="../site.css">
</head>
<body>
<main class="chapter" id="folds">
<h1>Folded sections of <a href="../../${slug}.html">${escapeHtml(title)}</a></h1>
${sections}
</main>
</body>
</html>
`;
}
