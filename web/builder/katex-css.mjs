// KaTeX's stylesheet cut to the rules the site's math can use: the rules whose classes appear
// in the built pages' formulas or in the formulas typeset in the browser (fonts.mjs renders
// those for the fonts too). KaTeX's sizing rules alone (every reset-sizeN.sizeM pair) were half
// the sheet and most pages use three of them. A rule stays when any one of its selectors has
// only used classes; @font-face rules all stay (a face costs nothing until a glyph needs it).
const ALWAYS = ['katex-error']; // typeset with throwOnError: false, a bad formula shows in it

const classesIn = (html, into) => {
  for (const [, list] of html.matchAll(/class="([^"]*)"/g)) for (const c of list.split(/\s+/)) if (c) into.add(c);
  return into;
};

export function subsetKatexCss(css, htmls) {
  const used = new Set(ALWAYS);
  for (const html of htmls) classesIn(html, used);
  const kept = [];
  for (const [rule, selectors] of css.replace(/\/\*[^]*?\*\//g, '').matchAll(/([^{}]+)\{[^{}]*\}/g)) {
    const keep = selectors.trim().startsWith('@') ||
      selectors.split(',').some((one) => [...one.matchAll(/\.([\w-]+)/g)].every(([, c]) => used.has(c)));
    if (keep) kept.push(rule.trim());
  }
  return kept.join('');
}
