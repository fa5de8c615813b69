// Page shells. Plain template strings: two layouts do not need a template engine.
import { escapeHtml } from './errors.mjs';
import { partBase, partLabelHTML } from '../runtime/exercises/exercise-html.js';
import { ELEMENTS } from './domains.mjs';

// True if the page's HTML holds an element that loads the engine: a page whose elements never
// ask for it (as their domain declares: the progress box) must not download it.
export function needsEngine(html) {
  return [...html.matchAll(/<(sb-[a-z-]+)[\s>]/g)].some(([, tag]) => ELEMENTS[tag]?.engineDomain !== null);
}

// `chunks` are the bundle's statically imported chunks and the code of the page's elements,
// fetched with it instead of after it. `engine` ({ name }) is the engine module the page's
// elements use, the smallest that holds them all (engine-pick.mjs): the meta tag tells
// engine.mjs's loader which. Neither its glue nor its .wasm is fetched from the head: the
// build drew every element with its numbers, so the engine waits until the reader gets to
// one (web/runtime/core/wake.js). `engine.grader` names the module its exercises grade with,
// fetched when a reader reaches for one (sb-exercise.js); `engine.explainer` the module that
// gives worked steps a numbers-only engine lacks, fetched when a reader opens them.
function preloads({ engine, chunks }) {
  const links = chunks.map((chunk) => `<link rel="modulepreload" href="assets/${chunk}">`);
  if (engine) links.push(`<meta name="scalebook-engine" content="${escapeHtml(engine.name)}">`);
  if (engine?.grader) links.push(`<meta name="scalebook-grader" content="${escapeHtml(engine.grader)}">`);
  if (engine?.explainer) links.push(`<meta name="scalebook-explainer" content="${escapeHtml(engine.explainer)}">`);
  return links.join('\n');
}

// KaTeX's sheet, the page's own classes standing for its style attributes (page-styles.mjs),
// and the exercises' sheet (its id tells sb-exercise the page has it). A chapter takes KaTeX's
// rules without its fonts: its own sheet declares them, cut to the page (fonts.mjs).
const mathSheets = (slug, ownFonts) => `<link rel="stylesheet" href="assets/katex/${ownFonts ? 'katex-rules.min.css' : 'katex.min.css'}">
<link rel="stylesheet" href="assets/css/math/${slug}.css">
<link rel="stylesheet" id="sb-exercise-style" href="assets/css/exercise.css">
`;

// `math`: the page's slug when it holds KaTeX output, which needs KaTeX's stylesheet (and,
// through it, fonts) and the page's math classes; else null. `ownFonts`: its math sheet
// declares the fonts.
function head(title, description, { engine = null, chunks = [], math = null, ownFonts = false } = {}) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="icon" href="assets/favicon.svg" type="image/svg+xml">
${math ? mathSheets(math, ownFonts) : ''}<link rel="stylesheet" href="assets/site.css">
<script type="module" src="assets/scalebook.js"></script>
<script src="assets/file-notice.js" defer></script>
${preloads({ engine, chunks })}
</head>`;
}

// The skip link comes first, so a keyboard user's first Tab can jump past the header and the
// contents to the text. The search box stays hidden until the bundle runs, which it needs
// (web/runtime/site-search/search-box.js); its results open under it.
function header(toc, mainId) {
  return `<a class="skip-link" href="#${mainId}">Skip to the text</a>
<header class="site-header"><a class="brand" href="index.html">${escapeHtml(toc.title)}</a>
<span class="tagline">${escapeHtml(toc.subtitle)}</span>
${SEARCH_FORM}</header>`;
}

const SEARCH_FORM = `<form class="site-search" role="search" data-search hidden>
<label class="visually-hidden" for="site-search">Search the book</label>
<input id="site-search" type="search" name="q" placeholder="Search the book" autocomplete="off" spellcheck="false" enterkeyhint="go">
<div class="search-results" data-search-results hidden></div>
</form>`;

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

// What the chapter's end says comes next: a link when it is written, otherwise its title
// and summary marked as coming, so the reader knows where the book goes.
function nextHTML(next, written) {
  if (!next) return '<span></span>';
  if (written) return `<span class="next">Next: ${sectionLink(next)} →</span>`;
  return `<span class="next">Next: ${next.number}. ${escapeHtml(next.title)} <span class="coming">coming</span>` +
    `<span class="next-summary">${escapeHtml(next.summary)}</span></span>`;
}

// prev and next: the neighbouring sections of the table of contents; nextWritten: whether
// next has a page yet.
export function chapterPage({ toc, section, chapter, exercises = [], prev, next, nextWritten = true, chunks = [], engineModule = { name: 'scalebook-engine' } }) {
  const contents = chapter.headings
    .filter((h) => h.level === 2)
    .map((h) => `<li><a href="#${escapeHtml(h.id)}">${escapeHtml(h.text)}</a></li>`)
    .join('');
  const mainId = `chapter-${section.number}`;
  const nav = `<nav class="chapter-nav" aria-label="Chapters">${prev ? `<span>← ${sectionLink(prev)}</span>` : '<span></span>'}
<a href="index.html">Contents</a>${nextHTML(next, nextWritten)}</nav>`;
  return `${head(`${section.number}. ${chapter.title} · ${toc.title}`, section.summary, { engine: needsEngine(chapter.html) ? engineModule : null, chunks, math: section.slug, ownFonts: true })}
<body>
${header(toc, mainId)}
<div class="layout">
<nav class="contents" aria-label="In this section"><p>Section ${section.number}</p><ol>${contents}</ol></nav>
<main class="chapter" id="${mainId}" tabindex="-1">
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

// The chapter's worked solutions (seed 0, as exercises.mjs collects them), one box per
// exercise, each part's solution under the id the chapter's exercise fetches (sb-exercise.js).
export function solutionsPage({ toc, section, entries }) {
  const mainId = 'solutions';
  const chapter = `${section.number}. ${escapeHtml(section.title)}`;
  const boxes = entries.map(({ id, title, parts }) => {
    const items = parts.map((part, i) => {
      return `<h3>${partLabelHTML(part, i, parts.length)}</h3><div id="${partBase(id, part, i)}-solution" data-solution>${part.solutionHTML}</div>`;
    }).join('');
    return `<section class="sb-solutions" aria-labelledby="${escapeHtml(id)}"><h2 class="sb-exercise-title" id="${escapeHtml(id)}">` +
      `<a href="${section.slug}.html#${escapeHtml(id)}">${escapeHtml(title)}</a></h2>${items}</section>`;
  }).join('\n');
  return `${head(`Worked solutions: ${section.number}. ${section.title} · ${toc.title}`, `The worked solutions of section ${section.number}'s exercises`, { math: `${section.slug}-solutions` })}
<body>
${header(toc, mainId)}
<main class="chapter" id="${mainId}" tabindex="-1">
<h1>Worked solutions: ${chapter}</h1>
<p>Each exercise of <a href="${section.slug}.html">section ${chapter}</a> as the book states it,
solved step by step by the engine. A variant's solution is on the chapter's page, under its
exercise.</p>
${boxes}
</main>
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
  return `${head(toc.title, toc.subtitle, { chunks })}
<body>
${header(toc, 'contents')}
<main class="index" id="contents" tabindex="-1">
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
