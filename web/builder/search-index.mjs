// The search index: every written chapter's sections as plain text, written to
// assets/search-index.json for the search box (web/runtime/site-search/). Read back from the built
// pages, so it holds exactly what a reader sees: prose, headings and exercise titles and
// prompts, never KaTeX's markup, a widget's shadow-root template, a script or an exercise's JSON.
//
// The file holds the documents, not MiniSearch's serialized index: the index would have to store
// every text again to cut snippets from. Measured on chapters 1 to 4 (130 sections, gzip -9;
// `node web/builder/search-index.mjs` prints them): the documents are 97 kB, 31 kB gzipped;
// the serialized index with the texts 201 kB, 54 kB gzipped (without them 123 kB, 28 kB, and
// no snippets). Indexing them takes the browser a few tens of milliseconds, once.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { DOCUMENT_FIELDS, SEARCH_OPTIONS } from '../runtime/site-search/search-options.js';

// Elements whose whole content is not prose.
const SKIPPED_TAGS = new Set(['script', 'style', 'template', 'svg', 'math', 'pre', 'nav', 'button',
  'select', 'textarea', 'noscript', 'details', 'form', 'label', 'input']);
// Elements whose content is kept as written, so a "<" inside them is not a tag.
const RAW_TEXT = new Set(['script', 'style']);
// Elements inside a line of text: no space is put where they open or close.
const INLINE = new Set(['a', 'abbr', 'b', 'cite', 'code', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 's', 'small',
  'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);
const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'wbr', 'col', 'source', 'area', 'base', 'embed', 'track']);
// Of an exercise (<sb-exercise>), only its title and prompt are prose of the page.
const EXERCISE_PROSE = /\bsb-exercise-(?:title|prompt)\b/;
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', times: '×', hellip: '…', ndash: '–', mdash: '—', minus: '−' };

// A comment, a tag, text. No HTML parser library: the pages are the builder's own output, well
// formed, and a tokenizer of one pattern reads them (as page-check.mjs does).
const TOKEN = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+|</g;

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function parseAttributes(text) {
  const attrs = new Map();
  for (const m of text.matchAll(ATTRIBUTE)) attrs.set(m[1].toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '');
  return attrs;
}

const hasClass = (attrs, name) => (attrs.get('class') ?? '').split(/\s+/).includes(name);

export function decodeEntities(text) {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return String.fromCodePoint(code);
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

// A formula in a line of text reads as its words for screen readers (tex-speech.js) when they are
// one word (a symbol, a number: "B", "8192", "times"), else as "…": the index keeps neither
// KaTeX's markup nor phrases such as "T sub math equals".
const formulaText = (speech) => (/^[^\s…]{1,12}$/.test(speech.trim()) ? speech.trim() : '…');

const clean = (text) => decodeEntities(text).replace(/\s+/g, ' ').trim();

// Is an element's content left out?
function skips(tag, attrs) {
  if (SKIPPED_TAGS.has(tag)) return true;
  if (tag.startsWith('sb-') && tag !== 'sb-exercise') return true;
  if (hasClass(attrs, 'katex-display')) return true;
  if (attrs.has('hidden') || attrs.get('aria-hidden') === 'true') return true;
  return tag === 'section' && hasClass(attrs, 'progress');
}

// The sections of a page's HTML (its <main>, or all of it): [{ level, id, title, text, exercise }],
// exercise telling an exercise's title from the chapter's headings. The text before the first h2
// is a section of level 1 with the h1's title and no id; an h2 or h3 without an id, or any h4
// and below, is text of the section it is in.
export function pageSections(html) {
  const main = /<main[\s>][\s\S]*<\/main>/.exec(html)?.[0] ?? html;
  const sections = [{ level: 1, id: null, title: '', text: '', exercise: false }];
  // Open elements. skip: nothing inside is prose; exercise: inside an <sb-exercise>, where
  // only what is inside its title or prompt (prose: true) is read.
  const stack = [{ tag: '', skip: false, exercise: false, prose: true, heading: false, math: null, formula: null }];
  let heading = null; // the section whose heading is being read
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(main); m; m = TOKEN.exec(main)) {
    const [token, closing, rawTag, attrText = ''] = m;
    const top = stack[stack.length - 1];
    const reading = !top.skip && top.prose;
    const current = sections[sections.length - 1];
    if (token.startsWith('<!--')) continue;
    const add = (text) => {
      if (heading) heading.title += text;
      else current.text += text;
    };
    if (!rawTag) {
      if (top.formula) top.formula.speech += token;
      else if (reading) add(token);
      continue;
    }
    const tag = rawTag.toLowerCase();
    if (closing) {
      // Closes up to the matching element (the builder's HTML is well formed).
      const at = stack.map((e) => e.tag).lastIndexOf(tag);
      if (at < 1) continue;
      const [closed] = stack.splice(at);
      const outer = stack[stack.length - 1];
      if (closed.heading) heading = null;
      else if (closed.math && !outer.skip && outer.prose) add(formulaText(closed.math.speech));
      else if (reading && !INLINE.has(tag)) current.text += ' ';
      continue;
    }
    if (RAW_TEXT.has(tag)) {
      const end = main.indexOf(`</${tag}`, TOKEN.lastIndex);
      TOKEN.lastIndex = end < 0 ? main.length : main.indexOf('>', end) + 1;
      continue;
    }
    if (VOID.has(tag) || attrText.trimEnd().endsWith('/')) {
      if (reading) current.text += ' ';
      continue;
    }
    const attrs = parseAttributes(attrText);
    const exercise = top.exercise || tag === 'sb-exercise';
    const frame = {
      tag,
      skip: top.skip || skips(tag, attrs),
      exercise,
      prose: !exercise || (top.prose && top.exercise) || EXERCISE_PROSE.test(attrs.get('class') ?? ''),
      heading: false,
      math: null, // an inline formula (span.katex): { speech }
      formula: top.formula, // the formula whose spoken words are read here
    };
    if (!frame.skip && hasClass(attrs, 'katex')) {
      frame.skip = true;
      frame.math = { speech: '' };
    } else if (top.math && hasClass(attrs, 'katex-mathml')) {
      frame.formula = top.math;
    }
    const level = /^h([1-6])$/.exec(tag)?.[1];
    if (!frame.skip && frame.prose && level && !heading) {
      if (level === '1') {
        frame.heading = true;
        heading = sections[0];
      } else if ((level === '2' || level === '3') && attrs.get('id')) {
        frame.heading = true;
        heading = { level: Number(level), id: decodeEntities(attrs.get('id')), title: '', text: '', exercise };
        sections.push(heading);
      }
    }
    if (!frame.heading && reading && !INLINE.has(tag)) current.text += ' ';
    stack.push(frame);
  }
  return sections.map((s) => ({ ...s, title: clean(s.title), text: clean(s.text) }))
    .filter((s) => s.title || s.text);
}

// The documents (see search-options.js) of `pages`: [{ slug, number, title, html }], in the
// book's order.
export function searchDocuments(pages) {
  const documents = [];
  for (const page of pages) {
    for (const section of pageSections(page.html)) {
      documents.push({
        id: documents.length,
        // The id as the page writes it (markdown-it-anchor has percent-encoded it), as the
        // chapter's contents link to it.
        href: section.id ? `${page.slug}.html#${section.id}` : `${page.slug}.html`,
        chapter: page.number,
        chapterTitle: page.title,
        title: section.level === 1 ? page.title : section.title,
        text: section.text,
        exercise: section.exercise,
      });
    }
  }
  for (const doc of documents) {
    for (const field of DOCUMENT_FIELDS) {
      if (doc[field] === undefined) throw new Error(`search document ${doc.href} has no ${field}`);
    }
  }
  return documents;
}

// Writes assets/search-index.json from the built chapter pages in `out`; `sections` are the
// table of contents' entries of the written chapters. Returns the documents.
export function writeSearchIndex(out, sections) {
  const pages = sections.map((s) => ({
    slug: s.slug, number: s.number, title: s.title, html: fs.readFileSync(path.join(out, `${s.slug}.html`), 'utf8'),
  }));
  const documents = searchDocuments(pages);
  fs.mkdirSync(path.join(out, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(out, 'assets/search-index.json'), JSON.stringify(documents));
  return documents;
}

// The two ways of shipping the index, measured: the documents, or MiniSearch's serialized index
// with the text stored for snippets (and without, for reference).
export function measureFormats(documents) {
  const size = (text) => ({ raw: Buffer.byteLength(text), gzip: zlib.gzipSync(text, { level: 9 }).length });
  const serialized = (storeFields) => {
    const index = new MiniSearch({ ...SEARCH_OPTIONS, storeFields });
    index.addAll(documents);
    return JSON.stringify(index);
  };
  return {
    documents: size(JSON.stringify(documents)),
    serializedWithText: size(serialized([...SEARCH_OPTIONS.storeFields, 'text'])),
    serializedWithoutText: size(serialized(SEARCH_OPTIONS.storeFields)),
  };
}

// node web/builder/search-index.mjs [DIST]: prints the sizes of both formats for a built site.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  const documents = JSON.parse(fs.readFileSync(path.join(dist, 'assets/search-index.json'), 'utf8'));
  console.log(`${documents.length} sections`);
  for (const [name, { raw, gzip }] of Object.entries(measureFormats(documents))) {
    console.log(`${name.padEnd(24)} ${String(raw).padStart(8)} B raw ${String(gzip).padStart(8)} B gzip`);
  }
}
