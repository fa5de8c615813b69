// An esbuild plugin: the browser bundle leaves out the text of the elements' stylesheets (each
// web/runtime/**/*-css.js and core/styles.js). The build writes every sheet to assets/css/NAME.css
// too, and a book page links those files from the shadow roots it draws, so a reader fetched each
// sheet twice, once as CSS and once inside the JS (about 9 kB brotli on chapter 5). In the
// browser, sheets.js reads a sheet the bundle left empty from its file instead: from the page's
// own <link> when it has one (no request), else with a fetch beside the bundle (an embed).
// Node (the builder, the tests) imports the modules as written, text and all.
import fs from 'node:fs/promises';

// Index just past the template literal whose opening backtick is at `start`.
function skipTemplate(source, start) {
  let i = start + 1;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') i += 2;
    else if (c === '`') return i + 1;
    else if (c === '$' && source[i + 1] === '{') i = skipExpression(source, i + 2);
    else i += 1;
  }
  throw new Error('unterminated template literal');
}

// Index just past the `}` that closes a ${...} whose body starts at `start`.
function skipExpression(source, start) {
  let depth = 1;
  let i = start;
  while (i < source.length) {
    const c = source[i];
    if (c === '`') {
      i = skipTemplate(source, i);
      continue;
    }
    if (c === '"' || c === "'") {
      i += 1;
      while (i < source.length && source[i] !== c) i += source[i] === '\\' ? 2 : 1;
    } else if (c === '{') depth += 1;
    else if (c === '}' && --depth === 0) return i + 1;
    i += 1;
  }
  throw new Error('unterminated ${...}');
}

// `source` with every `const NAME = \`...\`` (a sheet's text, or a piece of one) set to ''.
export function withoutSheetText(source) {
  let out = '';
  let last = 0;
  for (const m of source.matchAll(/\bconst\s+[A-Z][A-Z0-9_]*\s*=\s*`/g)) {
    if (m.index < last) continue; // inside a literal already left out
    const open = m.index + m[0].length - 1;
    out += `${source.slice(last, open)}''`;
    last = skipTemplate(source, open);
  }
  return out + source.slice(last);
}

export const SHEET_MODULES = /[\\/]web[\\/]runtime[\\/](?:[\w-]+[\\/][\w-]+-css|core[\\/]styles)\.js$/;

export const linkedSheets = {
  name: 'linked-sheets',
  setup(build) {
    build.onLoad({ filter: SHEET_MODULES }, async (args) => ({
      contents: withoutSheetText(await fs.readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};
