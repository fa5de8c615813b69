// Each chapter's own cut of KaTeX's fonts. The site-wide cuts (fonts.mjs) hold every character
// any page, exercise variant or worked step may draw; a chapter's static math draws far fewer
// (chapter 5 fetched 30.5 kB of them). Per font a chapter's math draws, it gets a file of those
// characters and the Greek letters FreeType's auto-hinter measures, named by its content so chapters
// with the same set share it, and its math sheet declares, for every KaTeX face,
//  - the chapter's file, with a unicode-range of its characters, and
//  - the site-wide file, with a unicode-range of the site's other characters,
// so the page's formulas come from its own files and only a character a variant or a worked step
// brings fetches a site-wide one. The chapter links KaTeX's rules without their faces
// (katex-rules.min.css): Chromium fetched a site-wide face without a unicode-range whenever the
// page drew a character its own file lacks, even one KaTeX's font lacks too (chapter 5's speech
// text has an alpha in KaTeX_Main).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as harfbuzz from 'harfbuzzjs';
import { addUsedChars, readKatexCss } from './font-usage.mjs';
import { HINTING_GREEK, subset } from './fonts.mjs';

// The characters KaTeX's font maps, read from its TrueType original by harfbuzz.
function fontHas(katexDist, file) {
  const face = new harfbuzz.Face(new harfbuzz.Blob(fs.readFileSync(path.join(katexDist, 'fonts', `${file}.ttf`))));
  return new Set([...face.collectUnicodes()].map((code) => String.fromCodePoint(code)));
}

// "U+20, U+28-29, U+3B1": consecutive code points as one range.
export function unicodeRange(chars) {
  const codes = [...chars].map((ch) => ch.codePointAt(0)).sort((a, b) => a - b);
  const ranges = [];
  for (const code of codes) {
    const last = ranges[ranges.length - 1];
    if (last && code === last[1] + 1) last[1] = code;
    else ranges.push([code, code]);
  }
  const hex = (code) => code.toString(16).toUpperCase();
  return ranges.map(([from, to]) => `U+${hex(from)}${to > from ? `-${hex(to)}` : ''}`).join(', ');
}

// A character that draws nothing (KaTeX's zero-width space in every fraction and subscript)
// needs no glyph: harfbuzz makes it invisible in any font that covers it.
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;

// Only the Greek letters the auto-hinter measures are added (HINTING_GREEK: an alpha without
// them drew a pixel off). Its Latin ones ("THEZOCQS..."), 5.7 kB of chapter 5's 23, are not:
// without them chapter 5's formulas differ in antialiasing only, which a 3x zoom of the
// screenshots did not show (2026-12-05).

// font file name -> the characters the page's formulas draw in it that KaTeX's font has (`has`:
// file -> Set) or that draw nothing, with the hinting Greek where it draws any. A character
// the face's range leaves out goes to another font: Chromium drew the zero-width space in
// Liberation Serif.
export function pageFontChars(faces, html, has) {
  const used = addUsedChars(html, faces, new Map());
  for (const [file, set] of used) {
    for (const ch of set) if (!has(file).has(ch) && !INVISIBLE.test(ch)) set.delete(ch);
    if ([...set].some((ch) => /\p{Script=Greek}/u.test(ch))) for (const ch of HINTING_GREEK) if (has(file).has(ch)) set.add(ch);
    if (![...set].some((ch) => has(file).has(ch))) used.delete(file);
  }
  return used;
}

const face = ({ family, style, weight }, url, chars) => `@font-face{font-display:block;font-family:${family};font-style:${style};` +
  `font-weight:${weight};src:url(${url}) format("woff2")${chars ? `;unicode-range:${unicodeRange(chars)}` : ''}}`;

// Writes each page's files beside the site-wide ones in `outDir`/fonts. pages: slug -> HTML;
// site: font file name -> the characters fonts.mjs kept. Returns slug -> the page's @font-face
// rules, their URLs relative to `cssDir`.
export async function writePageFaces(katexDist, outDir, { pages, site, cssDir, cacheDir = null }) {
  const faces = readKatexCss(fs.readFileSync(path.join(katexDist, 'katex.min.css'), 'utf8'));
  const cmaps = new Map();
  const has = (file) => cmaps.get(file) ?? cmaps.set(file, fontHas(katexDist, file)).get(file);
  const url = (name) => path.relative(cssDir, path.join(outDir, 'fonts', name)).split(path.sep).join('/');
  const out = new Map();
  for (const [slug, html] of pages) {
    const chars = pageFontChars(faces, html, has);
    out.set(slug, (await Promise.all(faces.faces.map(async (f) => {
      const own = chars.get(f.file);
      if (!own) return [face(f, url(`${f.file}.woff2`))];
      const glyphs = [...own].filter((ch) => has(f.file).has(ch));
      const cut = await subset(fs.readFileSync(path.join(katexDist, 'fonts', `${f.file}.woff2`)), glyphs.sort().join(''), cacheDir);
      const name = `${f.file}.${crypto.createHash('sha256').update(cut).digest('hex').slice(0, 10)}.woff2`;
      fs.writeFileSync(path.join(outDir, 'fonts', name), cut);
      const rest = [...site.get(f.file)].filter((ch) => has(f.file).has(ch) && !own.has(ch));
      return [...(rest.length ? [face(f, url(`${f.file}.woff2`), rest)] : []), face(f, url(name), own)];
    }))).flat());
  }
  return out;
}
