// KaTeX's stylesheet and fonts for dist/assets/katex/, each font cut down to the characters the
// site can show in it: a first visit fetched 43-87 kB of math fonts, nearly all of it glyphs no
// page draws. Per font the subset keeps
//  - every character the built pages' formulas draw in that font (font-usage.mjs), and
//  - what math typeset in the browser may draw: exercise variants re-typeset their prompt and
//    worked steps with new values (web/runtime/core/typeset.js). The exercise files' math is
//    typeset here with every {{value}} standing for any letter or digit, so each font keeps
//    the letters a value can bring into it; the TeX the engine writes into worked steps
//    (RUNTIME_TEX) is typeset here too, in both display and inline style; every font keeps
//    ASCII's digits and punctuation (numbers land anywhere), and the fonts the engine's own
//    words and names land in (LETTER_FONTS) keep every ASCII letter.
// A character missing from a subset would not fail: the browser would draw it in another font,
// which is why the safety set is generous rather than exact.
//
// Only woff2 is written, and the stylesheet's woff and ttf fallbacks are dropped: every browser
// that runs the site's ES2020 modules and WebAssembly reads woff2, so the fallbacks were bytes
// no reader fetched.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import subsetFont from 'subset-font';
import { renderTexHTML } from '../runtime/core/tex-speech.js';
import { addUsedChars, readKatexCss } from './font-usage.mjs';
import { prune } from './compress.mjs';
import { subsetKatexCss } from './katex-css.mjs';

const ASCII = String.fromCharCode(...Array.from({ length: 95 }, (_, i) => 32 + i));
export const LETTERS = ASCII.replace(/[^A-Za-z]/g, '');
// Printable ASCII but its letters, and the no-break space (KaTeX's "~" and "\ ").
export const SAFE = ASCII.replace(/[A-Za-z]/g, '') + '\u00a0';
// Where worked steps put text the build cannot list: \text{} labels and chip names, math
// variables, \texttt{} PartitionSpecs with the reader's axis names. Bold holds only the
// collective names (RUNTIME_TEX), so KaTeX_Main-Bold drops the rest of the alphabet (5 kB).
export const LETTER_FONTS = ['KaTeX_Main-Regular', 'KaTeX_Math-Italic', 'KaTeX_Typewriter-Regular'];
// What a {{value}} of an exercise's math is typeset as: any letter or digit it may become.
const ANY_VALUE = `${LETTERS}0123456789.`;

// The Greek letters FreeType's auto-hinter (Chromium on Linux) measures Greek heights and stems
// on (afblue.dat): a subset holding alpha without them draws it a pixel off (chapter 5 did).
// The Latin ones are in printable ASCII.
export const HINTING_GREEK = 'ΓΒΕΖΘΟΩΔΞβθδζλξαειοπστωγημρφχψ';

// Every TeX command the engine writes into worked steps (engine/src; fonts.test.mjs checks the
// list against the sources), in the settings where they change font: fractions and \left..\right
// around them pick KaTeX_Size1-4 delimiters, display style the large operators.
export const RUNTIME_TEX = [
  String.raw`T_\text{bw} = \frac{a}{b} \cdot \max(a, b) \times \min(a, b) \le b \ge c \ne d \approx e \to f \Rightarrow g \iff h`,
  String.raw`a \in b \notin c \mid d \infty \ell \alpha \quad a \bmod b \log_2 x \lim_{x \to \infty} x`,
  String.raw`\left\lceil \frac{a}{b} \right\rceil \left\lfloor \frac{a}{b} \right\rfloor \lceil x \rceil \lfloor x \rfloor`,
  String.raw`\left( \frac{\frac{a}{b}}{\frac{c}{d}} \right) \left\lceil \frac{\frac{a}{b}}{\frac{c}{d}} \right\rceil \left\lfloor \frac{\frac{a}{b}}{c} \right\rfloor`,
  String.raw`X = 2^{\operatorname{round}(\log_2 \sqrt{\frac{a}{b}})} \textstyle\sum x \sum_i x \tfrac{1}{2} 1 \big/ x`,
  String.raw`\textbf{AllGather ReduceScatter AllReduce Slice} \texttt{P('x', None)}`,
  String.raw`\arg\max_k \frac{E(k)}{k c} \alpha + \dots + \alpha^k \frac{a}{\ldots}`,
];

// Every $...$ and $$...$$ in an exercise file's strings, each {{name}} as any value it may take.
function exerciseMath(text) {
  const out = [];
  const walk = (value) => {
    if (typeof value === 'string') {
      for (const [, display, inline] of value.matchAll(/\$\$([^]+?)\$\$|\$((?:\\\$|[^$])+)\$/g)) {
        out.push({ tex: (display ?? inline).replace(/\{\{[^}]*\}\}/g, ANY_VALUE), displayMode: display !== undefined });
      }
    } else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(JSON.parse(text));
  return out;
}

// The HTML of what math typeset in the browser may show: the engine's TeX in both styles, and
// the exercise files' math with any value.
function browserMath(exerciseTexts) {
  const formulas = [
    ...RUNTIME_TEX.flatMap((tex) => [{ tex, displayMode: true }, { tex, displayMode: false }]),
    ...exerciseTexts.flatMap(exerciseMath),
  ];
  return formulas.map(({ tex, displayMode }) => renderTexHTML(tex, { displayMode, throwOnError: false }));
}

// font file name (no extension) -> the characters to keep, from the built pages' HTML and the
// exercise files' texts.
export function fontChars(css, { pages, exerciseTexts }) {
  const faces = readKatexCss(css);
  const used = new Map();
  for (const html of pages) addUsedChars(html, faces, used);
  for (const html of browserMath(exerciseTexts)) addUsedChars(html, faces, used);
  for (const { file } of faces.faces) {
    if (!used.has(file)) used.set(file, new Set());
    for (const ch of SAFE) used.get(file).add(ch);
    if (LETTER_FONTS.includes(file)) for (const ch of LETTERS) used.get(file).add(ch);
    if ([...used.get(file)].some((ch) => /\p{Script=Greek}/u.test(ch))) for (const ch of HINTING_GREEK) used.get(file).add(ch);
  }
  return used;
}

// Without TrueType hinting instructions, as webfont services serve to most browsers: Chromium
// on Linux hints with FreeType's auto-hinter (HINTING_GREEK above) and macOS ignores them, so
// they were bytes (a fifth of each text font, three fifths of each Size font) that changed
// only some Windows readers' pixels, at small sizes.
const SUBSET_OPTIONS = { targetFormat: 'woff2', noHinting: true };

// The subset of one font, from the cache when the same font was cut to the same characters
// before: harfbuzz takes about half a second over the twenty fonts, and the characters change
// only when a formula brings a new one.
export async function subset(original, text, cacheDir) {
  const key = crypto.createHash('sha256').update(original).update(text).update(JSON.stringify(SUBSET_OPTIONS)).digest('hex');
  const cached = cacheDir && path.join(cacheDir, `${key}.woff2`);
  if (cached && fs.existsSync(cached)) {
    const now = new Date();
    fs.utimesSync(cached, now, now); // still in use: kept past the next prune
    return fs.readFileSync(cached);
  }
  const out = await subsetFont(original, text, SUBSET_OPTIONS);
  if (cached) {
    // A temporary name first: two builds at once never read half a file.
    const tmp = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, out);
    fs.renameSync(tmp, cached);
  }
  return out;
}

// Writes katex.min.css (woff2 sources only, the rules the site uses: katex-css.mjs), the same
// rules without the @font-face ones as katex-rules.min.css (for a page whose own sheet declares
// the fonts: page-fonts.mjs), and the subset woff2 fonts under `outDir`.
// Returns [{ file, before, after, chars }] (bytes; chars: the characters kept).
export async function writeKatexAssets(katexDist, outDir, { pages, exerciseTexts }, { cacheDir = null } = {}) {
  if (cacheDir) {
    fs.mkdirSync(cacheDir, { recursive: true });
    prune(cacheDir);
  }
  const css = fs.readFileSync(path.join(katexDist, 'katex.min.css'), 'utf8');
  fs.mkdirSync(path.join(outDir, 'fonts'), { recursive: true });
  const woff2Only = css.replace(/(url\([^)]*\.woff2\) format\(["']woff2["']\))(?:,url\([^)]*\) format\(["'](?:woff|truetype)["']\))+/g, '$1');
  const rules = subsetKatexCss(woff2Only, [...pages, ...browserMath(exerciseTexts)]);
  fs.writeFileSync(path.join(outDir, 'katex.min.css'), rules + '\n');
  fs.writeFileSync(path.join(outDir, 'katex-rules.min.css'), rules.replace(/@font-face\{[^}]*\}/g, '') + '\n');
  const chars = fontChars(css, { pages, exerciseTexts });
  return Promise.all([...chars].map(async ([file, set]) => {
    const original = fs.readFileSync(path.join(katexDist, 'fonts', `${file}.woff2`));
    const cut = await subset(original, [...set].sort().join(''), cacheDir);
    fs.writeFileSync(path.join(outDir, 'fonts', `${file}.woff2`), cut);
    return { file, before: original.length, after: cut.length, chars: set };
  }));
}
