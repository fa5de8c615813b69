// Markdown to HTML: markdown-it, KaTeX at build time, engine values, directives.
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
import mathPlugin from '@vscode/markdown-it-katex';
import { katexHTML } from '../runtime/core/tex-speech.js';
import { BuildError, lineOf } from './errors.mjs';
import { substituteValues } from './values.mjs';
import { extractDirectives, insertBlocks } from './directives.mjs';
import { checkSource } from './source-checks.mjs';

// Typographer for curly quotes only: its replacements turn a question's part "(c)" into ©.
// Formulas as KaTeX's HTML with their words for screen readers (tex-speech.js says why).
const md = new MarkdownIt({ html: true, typographer: true })
  .disable('replacements')
  .use(mathPlugin.default ?? mathPlugin, { katex: katexHTML })
  .use(anchor, { tabIndex: false });
// Before text_join, while an escaped "\$" is still a token of its own and not a stray "$".
md.core.ruler.before('text_join', 'sb_source_checks', checkSource);

// The math plugin renders a bad formula as a katex-error element instead of throwing;
// the build fails on it, at the formula's line.
function checkMath(html, source, file, firstLine) {
  const error = /class="[^"]*katex-error[^"]*" title="([^"]*)">([^<]*)/.exec(html);
  if (!error) return;
  const latex = error[1].replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"').replaceAll('&#039;', "'");
  const message = error[2].replaceAll('&#039;', "'").split('\n')[0];
  throw new BuildError(file, firstLine - 1 + lineOf(source, latex.trim()), message);
}

export function renderInline(engine, markdown, file, line) {
  const source = substituteValues(engine, markdown, file, line);
  const html = md.renderInline(source, { file, line });
  checkMath(html, markdown, file, line);
  return html;
}

// Renders one chapter; returns { html, title, headings: [{level, id, text}] }.
export function renderChapter(ctx, markdown, file) {
  const withValues = substituteValues(ctx.engine, markdown, file);
  const pageCtx = {
    ...ctx,
    calculators: new Map(),
    renderMarkdown: (text, f, line) => renderInline(ctx.engine, text, f, line),
  };
  const { markdown: withPlaceholders, blocks } = extractDirectives(pageCtx, withValues, file);
  const env = { file, line: 1 };
  const tokens = md.parse(withPlaceholders, env);
  const headings = [];
  let title = null;
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const text = tokens[i + 1].content.replace(/<[^>]*>/g, '');
    if (token.tag === 'h1' && !title) title = text;
    headings.push({ level: Number(token.tag.slice(1)), id: token.attrGet('id'), text });
  });
  if (!title) throw new BuildError(file, 1, 'a chapter needs a # title');
  const html = md.renderer.render(tokens, md.options, env);
  checkMath(html, markdown, file, 1);
  return { html: insertBlocks(html, blocks), title, headings };
}
