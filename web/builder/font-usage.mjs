// Which KaTeX font file draws each character of KaTeX's HTML output, worked out the way the
// browser does: KaTeX's own stylesheet (katex.min.css) sets font-family, -weight and -style by
// class (mathnormal -> KaTeX_Math italic, mathbf -> KaTeX_Main bold, delimsizing size3 ->
// KaTeX_Size3, ...), children inherit, and the @font-face rules name the file for each family,
// weight and style. Read from the stylesheet rather than a hand-made table, so a KaTeX update
// that moves a class to another font moves the subsets with it.

const FONT_PROPS = ['family', 'weight', 'style'];
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

const weightOf = (value) => ({ normal: 400, bold: 700 })[value] ?? Number(value);

// The font declarations of one rule body: { family?, weight?, style? }.
function declarations(body) {
  const out = {};
  for (const decl of body.split(';')) {
    const colon = decl.indexOf(':');
    const name = decl.slice(0, colon).trim();
    const value = decl.slice(colon + 1).trim();
    if (name === 'font-family') out.family = value;
    else if (name === 'font-weight') out.weight = weightOf(value);
    else if (name === 'font-style') out.style = value;
    else if (name === 'font') {
      // The shorthand resets style and weight; the family list follows the size.
      const m = value.match(/^(.*?)\s*[\d.]+(?:em|rem|px|%|pt)(?:\/\S+)?\s+(.+)$/);
      if (!m) continue;
      const words = m[1].split(/\s+/);
      out.style = words.includes('italic') ? 'italic' : 'normal';
      out.weight = words.map(weightOf).find((w) => w !== 400 && !Number.isNaN(w)) ?? 400;
      out.family = m[2];
    }
  }
  return out;
}

// ".katex .delimsizing.mult .delim-size1>span" -> compounds right to left, each with the
// combinator to its left: [{ tag, classes, combinator }]. Null for selectors that need more
// than tags, classes, ' ' and '>' (pseudo-elements, attributes): none of KaTeX's font rules do.
function parseSelector(text) {
  const parts = text.trim().replace(/\s*>\s*/g, ' > ').split(/\s+/);
  const compounds = [];
  let combinator = ' ';
  for (const part of parts) {
    if (part === '>') { combinator = '>'; continue; }
    const m = part.match(/^([a-z][a-z0-9]*)?((?:\.[\w-]+)*)$/i);
    if (!m) return null;
    compounds.push({ tag: m[1]?.toLowerCase() ?? null, classes: m[2].split('.').filter(Boolean), combinator });
    combinator = ' ';
  }
  return compounds.reverse();
}

// Parses a stylesheet's font rules and @font-face rules.
export function readKatexCss(css) {
  const rules = [];
  const faces = [];
  let order = 0;
  for (const [, selectorText, body] of css.replace(/\/\*[^]*?\*\//g, '').matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selectors = selectorText.trim();
    if (selectors.startsWith('@font-face')) {
      const d = declarations(body);
      const file = body.match(/url\(["']?(?:[^)"']*\/)?([^/)"']+)\.woff2["']?\)/)?.[1];
      if (file) faces.push({ family: d.family.replace(/["']/g, ''), weight: d.weight ?? 400, style: d.style ?? 'normal', file });
      continue;
    }
    const decl = declarations(body);
    if (!FONT_PROPS.some((p) => p in decl)) continue;
    for (const one of selectors.split(',')) {
      const compounds = parseSelector(one);
      if (!compounds) continue;
      const specificity = compounds.reduce((s, c) => s + 10 * c.classes.length + (c.tag ? 1 : 0), 0);
      rules.push({ compounds, decl, specificity, order: order++ });
    }
  }
  return { rules, faces };
}

const matchesCompound = (c, el) => (!c.tag || c.tag === el.tag) && c.classes.every((k) => el.classes.has(k));

// Does the selector match the last element of `stack` (its ancestors before it)?
function matches(compounds, stack, at = stack.length - 1, i = 0) {
  if (!matchesCompound(compounds[i], stack[at])) return false;
  if (i === compounds.length - 1) return true;
  if (compounds[i].combinator === '>') return at > 0 && matches(compounds, stack, at - 1, i + 1);
  for (let up = at - 1; up >= 0; up--) if (matches(compounds, stack, up, i + 1)) return true;
  return false;
}

// The element's font: the winning rule per property, else the parent's.
function computed(rules, stack, parent) {
  const out = { ...parent };
  const best = {};
  for (const rule of rules) {
    if (!matches(rule.compounds, stack)) continue;
    for (const p of FONT_PROPS) {
      if (!(p in rule.decl)) continue;
      const b = best[p];
      if (!b || rule.specificity > b.specificity || (rule.specificity === b.specificity && rule.order > b.order)) best[p] = rule;
    }
  }
  for (const p of FONT_PROPS) if (best[p]) out[p] = best[p].decl[p];
  return out;
}

// The face the browser picks for a family, weight and style: the exact one, else the same
// style, else any (KaTeX_Size1 has only a regular face; bold is then synthesised from it).
function faceFor(faces, font) {
  const family = font.family?.split(',')[0].trim().replace(/["']/g, '');
  const own = faces.filter((f) => f.family === family);
  const styled = own.filter((f) => f.style === font.style);
  const pool = styled.length ? styled : own;
  return (pool.find((f) => f.weight === font.weight) ?? pool.find((f) => (f.weight >= 600) === (font.weight >= 600)) ?? pool[0])?.file;
}

const decode = (text) => text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, name) => {
  if (name[0] === '#') return String.fromCodePoint(name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
  return ENTITIES[name] ?? m;
});

// Adds to `used` (font file name without extension -> Set of characters) every character of
// every KaTeX formula (<span class="katex">...</span>) in `html`. KaTeX's markup is regular:
// every element it writes is closed or self-closing.
export function addUsedChars(html, { rules, faces }, used) {
  const root = /<span class="katex(?: [^"]*)?">/g;
  for (let m = root.exec(html); m; m = root.exec(html)) {
    const stack = [];
    const fonts = [{}];
    const tokens = /<(\/?)([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>|([^<]+)/g;
    tokens.lastIndex = m.index;
    for (let t = tokens.exec(html); t; t = tokens.exec(html)) {
      const [, close, tag, attrs, selfClosing, text] = t;
      if (text !== undefined) {
        const file = faceFor(faces, fonts[fonts.length - 1]);
        if (!file) continue;
        if (!used.has(file)) used.set(file, new Set());
        for (const ch of decode(text)) used.get(file).add(ch);
      } else if (close) {
        stack.pop();
        fonts.pop();
        if (!stack.length) break;
      } else if (!selfClosing) {
        const classes = new Set(attrs.match(/\bclass="([^"]*)"/)?.[1].split(/\s+/).filter(Boolean) ?? []);
        stack.push({ tag: tag.toLowerCase(), classes });
        // MathML (KaTeX's MathML output, as the elements' worked steps are) takes the browser's
        // math font: MathML Core's user-agent sheet sets font-family: math on <math>.
        fonts.push(tag.toLowerCase() === 'math' ? { family: 'math' } : computed(rules, stack, fonts[fonts.length - 1]));
      }
    }
    root.lastIndex = tokens.lastIndex;
  }
  return used;
}
