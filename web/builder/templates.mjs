// Page shells. Plain template strings: two layouts do not need a template engine.
import { escapeHtml } from './errors.mjs';
import { EXERCISE_CSS } from '../runtime/core/styles.js';

// Elements that never ask for the engine: a page with none but these must not download it.
const WITHOUT_ENGINE = new Set(['sb-progress']);

// True if the page's HTML holds an element that loads the engine.
export function needsEngine(html) {
  return [...html.matchAll(/<(sb-[a-z-]+)[\s>]/g)].some(([, tag]) => !WITHOUT_ENGINE.has(tag));
}

// The engine is fetched when the first element asks, and the elements run only once the
// bundle has run, after the whole HTML has parsed (a module script is deferred): on a chapter
// of a megabyte that is long after the first paint. So a page with calculators asks for the
// .wasm in its head, as the engine's own fetch will (CORS mode, credentials same-origin: the
// crossorigin attribute), and the browser hands that response over instead of fetching again.
// `chunks` are the bundle's statically imported chunks, fetched with it instead of after it.
function preloads({ engine, chunks }) {
  const modules = chunks.map((chunk) => `<link rel="modulepreload" href="assets/${chunk}">`);
  if (engine) modules.push('<link rel="preload" href="assets/scalebook-engine.wasm" as="fetch" type="application/wasm" crossorigin>');
  return modules.join('\n');
}

// `math`: the page holds KaTeX output, which needs KaTeX's stylesheet (and, through it, fonts).
function head(title, description, { engine = false, chunks = [], math = true } = {}) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="icon" href="assets/favicon.svg" type="image/svg+xml">
${math ? '<link rel="stylesheet" href="assets/katex/katex.min.css">\n' : ''}<link rel="stylesheet" href="assets/site.css">
<style id="sb-exercise-style">${EXERCISE_CSS}</style>
<script type="module" src="assets/scalebook.js"></script>
<script src="assets/file-notice.js" defer></script>
${preloads({ engine, chunks })}
</head>`;
}

function header(toc) {
  return `<header class="site-header"><a class="brand" href="index.html">${escapeHtml(toc.title)}</a>
<span class="tagline">${escapeHtml(toc.subtitle)}</span></header>`;
}

const FOOTER = `<footer class="site-footer">Every number on this page is computed by the Scalebook
engine from its hardware catalog; hover one to see how. Based on the public book
<em>How to Scale Your Model</em>, written anew.</footer>`;

function sectionLink(section) {
  return `<a href="${section.slug}.html">${section.number}. ${escapeHtml(section.title)}</a>`;
}

function progressSection(chapter, exercises) {
  if (!exercises.length) return '';
  return `<section class="progress" aria-label="Your progress"><h2>Your progress</h2>
<sb-progress chapter="${escapeHtml(chapter)}" exercises="${escapeHtml(JSON.stringify(exercises))}"></sb-progress></section>`;
}

export function chapterPage({ toc, section, chapter, exercises = [], prev, next, chunks = [] }) {
  const contents = chapter.headings
    .filter((h) => h.level === 2)
    .map((h) => `<li><a href="#${escapeHtml(h.id)}">${escapeHtml(h.text)}</a></li>`)
    .join('');
  const nav = `<nav class="chapter-nav">${prev ? `<span>← ${sectionLink(prev)}</span>` : '<span></span>'}
<a href="index.html">Contents</a>${next ? `<span>${sectionLink(next)} →</span>` : '<span></span>'}</nav>`;
  return `${head(`${section.number}. ${chapter.title} · ${toc.title}`, section.summary, { engine: needsEngine(chapter.html), chunks })}
<body>
${header(toc)}
<div class="layout">
<aside class="contents"><p>Section ${section.number}</p><ol>${contents}</ol></aside>
<main class="chapter" id="chapter-${section.number}">
${chapter.html}
${progressSection(section.slug, exercises)}
${nav}
</main>
</div>
${FOOTER}
</body>
</html>
`;
}

export function indexPage({ toc, ready, book = {}, chunks = [] }) {
  const items = toc.sections
    .map((s) => {
      const title = ready.has(s.slug)
        ? `<a href="${s.slug}.html">${escapeHtml(s.title)}</a>`
        : `<span>${escapeHtml(s.title)}</span> <span class="coming">coming</span>`;
      return `<li class="${ready.has(s.slug) ? 'ready' : 'later'}"><span class="number">${s.number}</span>
<div><h2>${title}</h2><p>${escapeHtml(s.summary)}</p></div></li>`;
    })
    .join('\n');
  return `${head(toc.title, toc.subtitle, { chunks, math: false })}
<body>
${header(toc)}
<main class="index">
<h1>${escapeHtml(toc.title)}</h1>
<p class="lead">${escapeHtml(toc.subtitle)}: rooflines, TPUs and GPUs, sharded matmuls and
collectives, Transformer math, parallelism for training and inference. Every number is computed
live by one engine, and every calculator is yours to change.</p>
<ol class="sections">
${items}
</ol>
${Object.keys(book).length ? `<section class="progress" aria-label="Your progress"><h2>Your progress</h2>
<sb-progress book="${escapeHtml(JSON.stringify(book))}"></sb-progress></section>` : ''}
</main>
${FOOTER}
</body>
</html>
`;
}
