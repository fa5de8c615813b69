// Every sheet, and the one classic script, go out minified by esbuild: their comments and spaces
// were a sixth of their brotli (chapter 5's CSS 17.5 -> 14.6 kB, 2026-12-05). Minified only,
// never lowered for older browsers: what the sheets say is what ships.
import * as esbuild from 'esbuild';

// loader: 'css' or 'js'.
export function minified(text, loader) {
  return esbuild.transformSync(text, { loader, minify: true }).code;
}
