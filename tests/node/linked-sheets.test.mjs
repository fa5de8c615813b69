// The browser bundle leaves the elements' stylesheet text out (web/builder/linked-sheets.mjs):
// every literal of a sheet module becomes '' and the rest of the module stays as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { withoutSheetText, SHEET_MODULES } from '../../web/builder/linked-sheets.mjs';

test('a sheet module keeps its imports and registration, and loses its text, nested pieces included', () => {
  const source = [
    "import { registerSheets } from '../core/sheets.js';",
    "// a comment with a `backtick`",
    'const PART = `.a { color: red; }`;',
    'export const X_CSS = `${PART} .b { x: ${[1, 2].map((n) => `.c${n} {}`).join("}")} }`;',
    "registerSheets({ x: X_CSS }, { 'sb-x': ['shadow', 'x'] });",
  ].join('\n');
  assert.equal(withoutSheetText(source), [
    "import { registerSheets } from '../core/sheets.js';",
    "// a comment with a `backtick`",
    "const PART = '';",
    "export const X_CSS = '';",
    "registerSheets({ x: X_CSS }, { 'sb-x': ['shadow', 'x'] });",
  ].join('\n'));
});

test('the plugin takes every domain\'s *-css.js and core/styles.js, and no element', () => {
  assert.match('/r/web/runtime/training/split-css.js', SHEET_MODULES);
  assert.match('/r/web/runtime/core/styles.js', SHEET_MODULES);
  assert.doesNotMatch('/r/web/runtime/training/sb-training-split.js', SHEET_MODULES);
  assert.doesNotMatch('/r/web/runtime/core/sheets.js', SHEET_MODULES);
});

test('every sheet module of the runtime comes out as valid code with no CSS left in it', async () => {
  const dirs = fs.readdirSync(new URL('../../web/runtime/', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory());
  const files = dirs.flatMap((d) => fs.readdirSync(new URL(`../../web/runtime/${d.name}/`, import.meta.url))
    .map((f) => new URL(`../../web/runtime/${d.name}/${f}`, import.meta.url).pathname))
    .filter((file) => SHEET_MODULES.test(file));
  assert.ok(files.length >= 18, `${files.length} sheet modules`);
  const esbuild = await import('esbuild');
  for (const file of files) {
    const out = withoutSheetText(fs.readFileSync(file, 'utf8'));
    await esbuild.transform(out, { loader: 'js' }); // throws on a syntax error
    assert.doesNotMatch(out.replace(/\/\/.*$/gm, ''), /\{[^}]*:[^}]*;\s*\}|`/, file);
  }
});
