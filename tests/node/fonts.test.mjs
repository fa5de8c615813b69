// KaTeX's fonts as the build writes them: each cut down to what the site can show, and still
// holding every character the built pages draw in it (read back from the font's own cmap).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import katex from 'katex';
import { buildSite } from '../../web/builder/build.mjs';
import { addUsedChars, readKatexCss } from '../../web/builder/font-usage.mjs';
import { RUNTIME_TEX, SAFE, LETTERS, LETTER_FONTS, HINTING_GREEK, fontChars } from '../../web/builder/fonts.mjs';
import { unicodeRange, writePageFaces } from '../../web/builder/page-fonts.mjs';
import { cmapChars } from './woff2-cmap.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ORIGINALS = path.join(ROOT, 'node_modules/katex/dist/fonts');
const CSS = readKatexCss(fs.readFileSync(path.join(ROOT, 'node_modules/katex/dist/katex.min.css'), 'utf8'));
const ASCII = String.fromCharCode(...Array.from({ length: 95 }, (_, i) => 32 + i));

let out;
before(async () => {
  out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-fonts-')), 'site');
  await buildSite({ out });
});

const fontsDir = () => path.join(out, 'assets/katex/fonts');
const pagesHtml = () => fs.readdirSync(out).filter((f) => f.endsWith('.html')).map((f) => fs.readFileSync(path.join(out, f), 'utf8'));

test('every font KaTeX\'s stylesheet can ask for is written, as woff2 only, and smaller than KaTeX\'s own', () => {
  const css = fs.readFileSync(path.join(out, 'assets/katex/katex.min.css'), 'utf8');
  const referenced = [...css.matchAll(/url\(fonts\/([^)]+)\)/g)].map((m) => m[1]).sort();
  const originals = fs.readdirSync(ORIGINALS).filter((f) => f.endsWith('.woff2')).sort();
  assert.equal(originals.length, 20);
  assert.deepEqual(referenced, originals);
  // Beside them, the chapters' own cuts (page-fonts.mjs), named by their content.
  const files = fs.readdirSync(fontsDir());
  assert.deepEqual(files.filter((f) => !/\.[0-9a-f]{10}\.woff2$/.test(f)).sort(), originals);
  assert.ok(files.some((f) => f.startsWith('KaTeX_Main-Regular.') && f !== 'KaTeX_Main-Regular.woff2'));
  for (const name of originals) {
    const before = fs.statSync(path.join(ORIGINALS, name)).size;
    const after = fs.statSync(path.join(fontsDir(), name)).size;
    assert.ok(after < before, `${name}: ${after} bytes, KaTeX's is ${before}`);
  }
  // What a chapter fetches most, upright text, is at most 60% of KaTeX's (Math-Italic keeps the
  // Greek letters the auto-hinter needs, fonts.mjs, and is 85%).
  for (const name of ['KaTeX_Main-Regular.woff2', 'KaTeX_Main-Bold.woff2']) {
    assert.ok(fs.statSync(path.join(fontsDir(), name)).size < 0.6 * fs.statSync(path.join(ORIGINALS, name)).size, name);
  }
});

test('each font still maps every character the built pages draw in it, ASCII\'s digits and punctuation, and the letters where the engine writes words', () => {
  const used = new Map();
  for (const html of pagesHtml()) addUsedChars(html, CSS, used);
  assert.ok(used.get('KaTeX_Main-Regular').has('×') && used.get('KaTeX_Size3-Regular')?.size > 0, 'pages draw ×, and large delimiters');
  for (const { file } of CSS.faces) {
    const original = cmapChars(fs.readFileSync(path.join(ORIGINALS, `${file}.woff2`)));
    const subset = cmapChars(fs.readFileSync(path.join(fontsDir(), `${file}.woff2`)));
    // A font of ASCII and the no-break space only (KaTeX_Caligraphic's) has nothing to drop.
    if ([...original].some((ch) => !ASCII.includes(ch) && ch !== '\u00a0')) {
      assert.ok(subset.size < original.size, `${file}: ${subset.size} characters of ${original.size}`);
    }
    const wanted = [...(used.get(file) ?? []), ...SAFE, ...(LETTER_FONTS.includes(file) ? LETTERS : '')];
    // A character KaTeX's font never had is drawn from elsewhere before and after alike.
    const missing = wanted.filter((ch) => original.has(ch) && !subset.has(ch));
    assert.deepEqual(missing, [], file);
  }
});

test('a font keeps the letters an exercise value can bring into it, and bold no others', () => {
  const css = fs.readFileSync(path.join(ROOT, 'node_modules/katex/dist/katex.min.css'), 'utf8');
  const exercise = (math) => JSON.stringify({ exercises: [{ prompt: math }] });
  const bold = (texts) => [...fontChars(css, { pages: [], exerciseTexts: texts }).get('KaTeX_Main-Bold')].filter((ch) => /[A-Za-z]/.test(ch)).sort().join('');
  // The engine bolds only the collectives' names, so bold keeps their letters and no more ...
  assert.equal(bold([exercise('$x = {{x}}$')]), [...new Set('AllGatherReduceScatterAllReduceSlice')].sort().join(''));
  // ... unless an exercise's value is typeset in bold, which may be any letter.
  assert.equal(bold([exercise('$\\mathbf{ {{x}} }$')]), [...LETTERS].sort().join(''));
  // A chip's name in \text{} of a worked step is upright text, which keeps every letter.
  const upright = fontChars(css, { pages: [], exerciseTexts: [] }).get('KaTeX_Main-Regular');
  assert.ok([...LETTERS].every((ch) => upright.has(ch)));
});

// The @font-face rules of a stylesheet: [{ family, style, weight, url, range }], range a Set of
// characters, or null for none.
function faceRules(css) {
  return [...css.matchAll(/@font-face\{([^}]*)\}/g)].map(([, body]) => {
    const get = (name) => new RegExp(`(?:^|;)${name}:([^;]*)`).exec(body)?.[1];
    const range = get('unicode-range');
    return {
      family: get('font-family').replace(/"/g, ''), style: get('font-style'), weight: get('font-weight'), url: /url\(([^)]*)\)/.exec(body)[1],
      range: range === undefined ? null : new Set(range.split(/,\s*/).flatMap((part) => {
        const [from, to = from] = part.slice(2).split('-').map((hex) => parseInt(hex, 16));
        return Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
      })),
    };
  });
}

test('a chapter draws its static math from its own cut of each font, and the site-wide file only for the rest', () => {
  const chapters = fs.readdirSync(out).filter((f) => /^\d\d-[a-z-]+\.html$/.test(f) && !f.endsWith('-solutions.html'));
  assert.ok(chapters.includes('05-training.html'));
  const rules = fs.readFileSync(path.join(out, 'assets/katex/katex-rules.min.css'), 'utf8');
  assert.ok(!rules.includes('@font-face') && rules.includes('.katex .mathnormal{'));
  const siteFaces = faceRules(fs.readFileSync(path.join(out, 'assets/katex/katex.min.css'), 'utf8'));
  assert.equal(siteFaces.length, 20);
  let zeroWidth = 0;
  for (const page of chapters) {
    const slug = page.replace('.html', '');
    const html = fs.readFileSync(path.join(out, page), 'utf8');
    // KaTeX's rules come without their faces, the page's math sheet declares them.
    assert.ok(html.includes('<link rel="stylesheet" href="assets/katex/katex-rules.min.css">') && !html.includes('katex.min.css'), page);
    // What its formulas draw, its closed sections (moved to its folds page) included.
    const used = addUsedChars(html, CSS, new Map());
    const folds = path.join(out, 'assets/folds', page);
    if (fs.existsSync(folds)) addUsedChars(fs.readFileSync(folds, 'utf8'), CSS, used);
    const faces = faceRules(fs.readFileSync(path.join(out, 'assets/css/math', `${slug}.css`), 'utf8'));
    for (const site of siteFaces) {
      const file = site.url.replace('fonts/', '').replace('.woff2', '');
      const same = faces.filter((f) => f.family === site.family && f.style === site.style && f.weight === site.weight);
      const original = cmapChars(fs.readFileSync(path.join(ORIGINALS, `${file}.woff2`)));
      const drawn = [...(used.get(file) ?? [])].filter((ch) => original.has(ch));
      // KaTeX's zero-width space draws nothing, in the font whose range covers it.
      const invisible = [...(used.get(file) ?? [])].filter((ch) => !original.has(ch) && /\p{Default_Ignorable_Code_Point}/u.test(ch));
      if (!drawn.length) {
        // A font the page does not draw: the site-wide face as katex.min.css has it.
        assert.deepEqual(same, [{ ...site, url: `../../katex/fonts/${file}.woff2` }], `${page} ${file}`);
        continue;
      }
      const wanted = new Set(drawn);
      // With the Greek letters FreeType's auto-hinter measures, where it draws Greek.
      if (drawn.some((ch) => /\p{Script=Greek}/u.test(ch))) for (const ch of HINTING_GREEK) if (original.has(ch)) wanted.add(ch);
      const own = same.find((f) => f.url !== `../../katex/fonts/${file}.woff2`);
      assert.match(own.url, new RegExp(`^\\.\\./\\.\\./katex/fonts/${file}\\.[0-9a-f]{10}\\.woff2$`));
      // Its range is exactly the characters drawn (and the hinting letters), and its file holds
      // those and no others but the mirror images harfbuzz adds (a ≤ brings its ≥, a ( its )).
      assert.deepEqual([...own.range].sort(), [...wanted, ...invisible].sort(), `${page} ${file}`);
      const held = cmapChars(fs.readFileSync(path.join(out, 'assets/css/math', own.url)));
      assert.deepEqual([...wanted].filter((ch) => !held.has(ch)), [], `${page} ${file}`);
      assert.deepEqual([...held].filter((ch) => !wanted.has(ch) && !/\p{Bidi_Mirrored}/u.test(ch)), [], `${page} ${file}`);
      // The site-wide file serves the other characters it was cut to, and those only: all it
      // holds but the page's and the mirror images harfbuzz added.
      const siteHeld = cmapChars(fs.readFileSync(path.join(fontsDir(), `${file}.woff2`)));
      const siteFace = same.find((f) => f !== own);
      const rest = siteFace?.range ?? new Set();
      assert.deepEqual([...rest].filter((ch) => wanted.has(ch) || !siteHeld.has(ch)), [], `${page} ${file}`);
      assert.deepEqual([...siteHeld].filter((ch) => !wanted.has(ch) && !rest.has(ch) && !/\p{Bidi_Mirrored}/u.test(ch)), [], `${page} ${file}`);
      assert.equal(same.length, rest.size ? 2 : 1, `${page} ${file}`);
      if (own.range.has('\u200b')) zeroWidth++;
    }
  }
  assert.equal(zeroWidth, chapters.length, 'every chapter\'s KaTeX_Main covers the zero-width space');
});

test('pages whose math draws the same characters share one file of each font', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalebook-page-fonts-'));
  fs.mkdirSync(path.join(dir, 'fonts'));
  const katexDist = path.join(ROOT, 'node_modules/katex/dist');
  const page = (tex) => katex.renderToString(tex, { output: 'html' });
  const site = fontChars(fs.readFileSync(path.join(katexDist, 'katex.min.css'), 'utf8'), { pages: [], exerciseTexts: [] });
  const faces = await writePageFaces(katexDist, dir, {
    pages: new Map([['a', page('x + 2')], ['b', page('2 + x')], ['c', page('a + 2')]]), site, cssDir: dir,
  });
  const own = (slug, family) => faceRules(faces.get(slug).join('\n')).filter((f) => f.family === family && /\.[0-9a-f]{10}\./.test(f.url));
  const [a, b, c] = ['a', 'b', 'c'].map((slug) => own(slug, 'KaTeX_Math'));
  assert.equal(a.length, 1);
  assert.deepEqual([...a[0].range].sort().join(''), 'x');
  assert.equal(b[0].url, a[0].url);
  assert.notEqual(c[0].url, a[0].url);
  assert.deepEqual(own('a', 'KaTeX_Main').map((f) => [...f.range].sort().join('')), ['+2']);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'fonts')).map((f) => f.replace(/\..*/, '')).sort(),
    ['KaTeX_Main-Regular', 'KaTeX_Math-Italic', 'KaTeX_Math-Italic']);
});

test('a unicode-range lists code points in order, consecutive ones as one range', () => {
  assert.equal(unicodeRange(new Set('αx()* ')), 'U+20, U+28-2A, U+78, U+3B1');
  assert.equal(unicodeRange(new Set('\u{1D400}')), 'U+1D400');
});

// The mapping of KaTeX's classes to font files, as the browser reads katex.min.css.
test('font-usage reads which font file draws each character', () => {
  const fontsOf = (tex, displayMode = false) => {
    const used = addUsedChars(katex.renderToString(tex, { output: 'html', displayMode }), CSS, new Map());
    return Object.fromEntries([...used].map(([file, chars]) => [file, [...chars].sort().join('')]));
  };
  assert.deepEqual(fontsOf('x + 2'), { 'KaTeX_Math-Italic': 'x', 'KaTeX_Main-Regular': '+2' });
  assert.deepEqual(fontsOf('\\mathbf{B} \\boldsymbol{\\alpha} \\mathbb{R} \\texttt{ab}'),
    { 'KaTeX_Main-Bold': 'B', 'KaTeX_Math-BoldItalic': 'α', 'KaTeX_AMS-Regular': 'R', 'KaTeX_Typewriter-Regular': 'ab' });
  assert.deepEqual(fontsOf('\\textit{a}\\textbf{\\textit{b}}'), { 'KaTeX_Main-Italic': 'a', 'KaTeX_Main-BoldItalic': 'b' });
  assert.deepEqual(fontsOf('\\sum', true), { 'KaTeX_Size2-Regular': '∑' });
  assert.deepEqual(fontsOf('\\sum'), { 'KaTeX_Size1-Regular': '∑' });
  assert.deepEqual(fontsOf('\\Bigg('), { 'KaTeX_Size4-Regular': '(' });
  // MathML (the elements' worked steps) is drawn in the browser's math font, never KaTeX's.
  assert.deepEqual(Object.keys(addUsedChars(katex.renderToString('x \\le 2', { output: 'mathml' }), CSS, new Map())), []);
});

// Worked steps are typeset in the browser from the engine's TeX; the fonts keep what that TeX
// can draw only if fonts.mjs's sample uses every command the engine writes.
test("the runtime sample uses every TeX command the engine's sources write", () => {
  const commands = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.(cpp|h)$/.test(entry.name)) {
        // Two backslashes in C++ source are one in the string; one-letter names are C escapes.
        for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(/\\\\([a-zA-Z]{2,})/g)) commands.add(name);
      }
    }
  };
  walk(path.join(ROOT, 'engine/src'));
  assert.ok(commands.has('frac') && commands.has('lceil'));
  const sample = RUNTIME_TEX.join(' ');
  assert.deepEqual([...commands].filter((name) => !new RegExp(`\\\\${name}(?![a-zA-Z])`).test(sample)).sort(), []);
});

// Bold keeps only the letters of the words the engine bolds (fonts.mjs): the sample must bold
// the same words as the sharded-matmul steps, or a renamed collective falls back to a system font.
test('the runtime sample bolds every word the engine bolds', () => {
  const steps = fs.readFileSync(path.join(ROOT, 'engine/src/sharding/sharded_matmul_steps.cpp'), 'utf8');
  const list = /for \(const char\* op : \{([^}]*)\}\)/.exec(steps);
  assert.ok(list, 'the list of bolded operation names in sharded_matmul_steps.cpp');
  const words = [...list[1].matchAll(/"([A-Za-z]+)"/g)].map((m) => m[1]);
  assert.ok(words.includes('AllGather'));
  const bolded = RUNTIME_TEX.join(' ').match(/\\textbf\{([^}]*)\}/)[1].split(' ');
  assert.deepEqual(words.filter((w) => !bolded.includes(w)), []);
});
