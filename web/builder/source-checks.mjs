// A markdown-it core rule that fails the build where the source meant markup but markdown-it
// and the math plugin left plain text: a $ that opened or closed no formula, a $$ with no
// closing line, a {{ with no }}, TeX outside math. Without it each would reach the page as raw
// text. The file and first line come in the parse env: { file, line }.
import { BuildError } from './errors.mjs';

const TEX_COMMAND = /\\[a-zA-Z]+/;

function excerpt(text, at) {
  const start = Math.max(0, at - 40);
  const cut = `${start > 0 ? '…' : ''}${text.slice(start, at + 40)}${at + 40 < text.length ? '…' : ''}`;
  return cut.trim();
}

// A problem in a run of text, or null. An escaped character ("\$") arrives as a space.
function problemIn(text) {
  const dollar = text.indexOf('$');
  if (dollar >= 0) {
    return `math left untypeset in "${excerpt(text, dollar)}": inline math is $...$ within one ` +
      'paragraph, with no letter or digit just outside either $ (write $128 \\times 128$, not ' +
      '128$\\times$128); a dollar sign is \\$';
  }
  const braces = text.indexOf('{{');
  if (braces >= 0) {
    return `"{{" has no closing "}}" on its line in "${excerpt(text, braces)}" (an engine value is ` +
      '{{calculator.output key=value | format}} on one line)';
  }
  const tex = TEX_COMMAND.exec(text);
  if (tex) return `TeX "${tex[0]}" outside math in "${excerpt(text, tex.index)}": put the formula between $ signs`;
  return null;
}

// One inline token's children: the 0-based line of the first problem within it, and the
// message. Text is checked a line at a time, as markdown-it leaves it: text tokens, and
// text_special ones for backslashes ("\$" is an escape, "\t" of "\times" is kept as written).
function inlineProblem(children) {
  let line = 0;
  let run = '';
  let open = null; // the line of a "\(" escape, waiting for its "\)"
  for (const child of [...children, { type: 'end', content: '' }]) {
    if (child.type === 'text') {
      run += child.content;
      continue;
    }
    if (child.type === 'text_special') {
      run += child.content === child.markup ? child.content : ' ';
      if (child.markup === '\\(') open ??= line;
      if (child.markup === '\\)' && open !== null) {
        return { line: open, message: 'TeX "\\(...\\)" math: write inline math as $...$' };
      }
      continue;
    }
    const message = problemIn(run);
    if (message) return { line, message };
    run = '';
    if (child.type === 'softbreak' || child.type === 'hardbreak') line += 1;
    line += (child.content.match(/\n/g) ?? []).length;
  }
  return null;
}

// The closing line of a $$ block is the last line markdown-it gave it; unclosed, the block runs
// to the end of the document (or of its list item) and that line holds no $$.
function unclosedBlock(token, lines) {
  const [first, end] = token.map;
  if (/\$\$.*\$\$/.test(lines[first])) return false;
  return end - 1 === first || !(lines[end - 1] ?? '').includes('$$');
}

export function checkSource(state) {
  const { file, line: firstLine = 1 } = state.env ?? {};
  if (!file) return;
  const lines = state.src.split('\n');
  let blockLine = 0;
  for (const token of state.tokens) {
    if (token.map) blockLine = token.map[0];
    if (token.type === 'math_block' && unclosedBlock(token, lines)) {
      throw new BuildError(file, firstLine + blockLine,
        '$$ has no closing $$ (display math is a paragraph of its own between $$ lines)');
    }
    if (token.type !== 'inline' || !token.children) continue;
    const problem = inlineProblem(token.children);
    if (problem) throw new BuildError(file, firstLine + blockLine + problem.line, problem.message);
  }
}
