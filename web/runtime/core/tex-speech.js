// KaTeX's HTML output with the formula in words for screen readers, in place of KaTeX's default
// of HTML plus a hidden MathML copy.
//
// Why HTML and not MathML alone: MathML would drop KaTeX's stylesheet and fonts, but Chromium
// draws MathML Core only, which has no columnalign, so every aligned derivation (chapter 4's)
// comes out with its = signs out of line, and the letters take whatever math font the system has.
// Why not both, as KaTeX does by default: the MathML copy was a third to a half of each chapter's
// HTML. The words ("T sub math equals FLOPs over FLOP/s") are a tenth of that and are read the
// same way by every screen reader. They sit in a span of KaTeX's own class katex-mathml, which
// its stylesheet hides from the eye and leaves to assistive technology, wherever the HTML output
// is styled at all.
//
// Why words by hand and not speech-rule-engine: it takes about 30 ms a formula, a minute a build.
import katex from 'katex';

const SYMBOLS = {
  '+': 'plus', '⋅': 'times', '×': 'times', '−': 'minus', '±': 'plus or minus', '=': 'equals', '≈': 'is about',
  '≤': 'is at most', '≥': 'is at least', '<': 'is less than', '>': 'is greater than', '≪': 'is much less than',
  '→': 'to', '⟹': 'implies', '⟺': 'if and only if', '∈': 'in', '∉': 'not in', '∂': 'partial',
  '∑': 'the sum', '∏': 'the product', '…': 'dots', '⋯': 'dots', '⌊': 'floor of', '⌋': 'end floor',
  '⌈': 'ceiling of', '⌉': 'end ceiling', '\u2061': '', '\u2062': '', '\u00a0': ' ',
};
const OPERATORS = new Set(['the sum', 'the product']);
const POWERS = { 2: 'squared', 3: 'cubed' };
const power = (p) => POWERS[p] ?? `to the power ${p}`;
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', '#039': "'", '#x27': "'" };

// KaTeX's MathML as a tree of { tag, children } and strings (its markup is regular: no comments,
// no CDATA, every element closed).
function parse(mathml) {
  const root = { tag: '', children: [] };
  const stack = [root];
  for (const [, close, tag, selfClosing, text] of mathml.matchAll(/<(\/?)([\w:-]+)[^>]*?(\/?)>|([^<]+)/g)) {
    const top = stack[stack.length - 1];
    if (text !== undefined) top.children.push(text.replace(/&(#?\w+);/g, (m, name) => ENTITIES[name] ?? m));
    else if (close) stack.pop();
    else {
      const node = { tag, children: [] };
      top.children.push(node);
      if (!selfClosing) stack.push(node);
    }
  }
  return root;
}

const joined = (parts) => parts.filter((p) => p).join(' ').replace(/\s+/g, ' ').trim();
const isWord = (words) => !words.includes(' ');

function speak(node) {
  if (typeof node === 'string') return node;
  const parts = node.children.map(speak);
  const [a = '', b = '', c = ''] = parts;
  switch (node.tag) {
    case 'annotation': return '';
    case 'mo': return SYMBOLS[a.trim()] ?? a;
    case 'mi': case 'mn': case 'mtext': return SYMBOLS[a] ?? a;
    case 'mfrac': return isWord(a) && isWord(b) ? `${a} over ${b}` : `the fraction ${a}, over ${b}, end fraction`;
    case 'msup': return `${a} ${power(b)}`;
    case 'msub': case 'munder': return OPERATORS.has(a) ? `${a} over ${b}` : `${a} ${node.tag === 'msub' ? 'sub' : 'under'} ${b}`;
    case 'msubsup': case 'munderover': return OPERATORS.has(a) ? `${a} from ${b} to ${c}` : `${a} sub ${b} ${power(c)}`;
    case 'mover': return `${a} over ${b}`;
    case 'msqrt': return `the square root of ${joined(parts)}`;
    case 'mroot': return `the ${b} root of ${a}`;
    case 'mtr': return `${joined(parts)};`;
    default: return joined(parts);
  }
}

// A formula in words, from KaTeX's MathML of it.
export function mathmlToSpeech(mathml) {
  return joined([speak(parse(mathml))]).replace(/ ;/g, ';').replace(/;$/, '');
}

// katex.renderToString with output 'html' and the words beside it; throws as KaTeX does.
export function renderTexHTML(latex, options = {}) {
  const html = katex.renderToString(latex, { ...options, output: 'html' });
  const words = mathmlToSpeech(katex.renderToString(latex, { ...options, output: 'mathml' }));
  const escaped = words.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return html.replace('<span class="katex">', `<span class="katex"><span class="katex-mathml">${escaped}</span>`);
}

// What markdown-it-katex calls as its `katex`: the same renderer, everywhere a page is typeset.
export const katexHTML = { renderToString: renderTexHTML };
