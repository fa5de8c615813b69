// Markdown and KaTeX in the browser, for exercise variants (seed != 0). Loaded on demand with
// import(): the book's problem is typeset at build time, so a chapter's first load never pulls
// KaTeX (about 270 kB) unless a reader asks for a variant. Options match the site builder's.
import MarkdownIt from 'markdown-it';
import mathPlugin from '@vscode/markdown-it-katex';
import { katexHTML, renderTexHTML } from './tex-speech.js';
import { hoistIntoDocument } from './hoist-styles.js';

// Curly quotes only, as the builder: the replacements would turn a part "(c)" into ©.
const md = new MarkdownIt({ typographer: true }).disable('replacements')
  .use(mathPlugin.default ?? mathPlugin, { katex: katexHTML });

// An exercise prompt (Markdown with $math$) as inline HTML, as the builder renders it. KaTeX's
// style attributes become classes of a document sheet (hoist-styles.js), as the build's do.
export function renderPrompt(markdown) {
  return hoistIntoDocument(md.renderInline(String(markdown ?? '')));
}

// One worked-solution step's LaTeX. A bad formula shows as KaTeX's red source, not an exception.
export function renderTex(latex) {
  return hoistIntoDocument(renderTexHTML(String(latex ?? ''), { throwOnError: false }));
}
