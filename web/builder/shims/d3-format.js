// What d3-scale imports from d3-format, which only its tickFormat methods call. The site never
// asks a scale for its tick format: core/axes.js labels ticks with the engine's formatter
// (format.js), so the same rule writes every number. d3-format's locale tables and formatter
// (5 kB of code, 2 kB brotli) were on every chapter page; a call now says why it fails.
// build.mjs resolves 'd3-format' here; the browser tests draw every plot with it bundled.
function unbundled() {
  throw new Error("d3-format is not bundled: label ticks with the engine's formatter (web/runtime/core/axes.js)");
}
export const format = unbundled;
export const formatPrefix = unbundled;
export const formatSpecifier = unbundled;
export const precisionFixed = unbundled;
export const precisionPrefix = unbundled;
export const precisionRound = unbundled;
