// KaTeX places every box of a formula with a style attribute (height, top, margins), and a page
// under a CSP with style-src 'self' ignores style attributes. So the attributes become classes:
// each distinct declaration list gets a class named from its hash, and a rule that a stylesheet
// carries (the build writes one file for the site; in the browser a constructed sheet takes the
// rules of formulas typeset there). `!important` keeps the rule as strong as the attribute was
// against KaTeX's own stylesheet (`.katex .vlist > span` sets height 0, for one).

// FNV-1a, 32 bits, in base 36: short, and the same name for the same declarations everywhere.
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

const ENTITIES = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>' };
const unescape = (text) => text.replace(/&(?:amp|quot|#x27|#39|lt|gt);/g, (e) => ENTITIES[e]);

// The CSS rule of class `name` for a style attribute's declarations.
export function ruleFor(name, declarations) {
  const body = declarations.split(';').map((d) => d.trim()).filter(Boolean)
    .map((d) => (/!important$/.test(d) ? d : `${d} !important`)).join(';');
  return `.${name}{${body}}`;
}

// Every style="..." of `html` replaced by a class (added to the tag's class attribute if it has
// one); `rules` (class name -> rule) collects the rules the page needs. Attribute values never
// hold ">" here: KaTeX and the runtime's views escape it.
export function hoistStyles(html, rules) {
  return html.replace(/<([a-zA-Z][\w:-]*)(\s[^>]*?)?\sstyle=(?:"([^"]*)"|'([^']*)')([^>]*)>/g, (tag, name, before = '', double, single, after) => {
    const declarations = unescape(double ?? single).trim();
    if (!declarations) return `<${name}${before}${after}>`;
    const cls = `s-${hash(declarations)}`;
    if (!rules.has(cls)) rules.set(cls, ruleFor(cls, declarations));
    const attrs = `${before}${after}`;
    const withClass = /\sclass=["']/.test(attrs)
      ? attrs.replace(/\sclass=(["'])(.*?)\1/, (m, q, list) => ` class=${q}${list ? `${list} ` : ''}${cls}${q}`)
      : `${attrs} class="${cls}"`;
    return `<${name}${withClass}>`;
  });
}

// In the browser: hoists into one constructed sheet adopted by the document (light DOM only:
// KaTeX's HTML output is typeset there; shadow roots show MathML).
const added = new Map();
let sheet = null;
export function hoistIntoDocument(html) {
  if (typeof document === 'undefined' || typeof CSSStyleSheet !== 'function' || !('adoptedStyleSheets' in document)) return html;
  const rules = new Map();
  const out = hoistStyles(html, rules);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  for (const [cls, rule] of rules) {
    if (added.has(cls)) continue;
    added.set(cls, rule);
    sheet.insertRule(rule, sheet.cssRules.length);
  }
  return out;
}
