// What the form-widget directives (chapter 3's sharding, planner and collective simulation)
// share: checking settings, writing the element with its attributes (each input's name by
// attributeName, the runtime's one rule), the declarative shadow root, and the bare element's
// placeholder for an engine built without the calculator or simulation a directive needs (a
// branch before the engine's); the element then renders itself in the browser.
import { escapeHtml } from '../errors.mjs';
import { dimensionNames } from '../../runtime/core/widget-form.js';
import { attributeName } from '../../runtime/core/widget-dom.js';
import { declarativeShadow } from '../../runtime/core/sheets.js';
import '../sheets.mjs'; // every domain's CSS and its elements' sheets, which declarativeShadow reads

const DIMENSION = /^[A-Z][A-Za-z0-9]{0,15}$/;

export function hasCalculator(engine, name) {
  return engine.list().some((c) => c.name === name);
}

// Checks the settings: `fixed` by name, and sizes of the dimensions the spec names (any
// dimension-like name when the spec is unknown at build time).
export function checkSettings(args, { name, fixed, spec = undefined, dimensions = false }, fail) {
  if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ${name} key=value ...`);
  const dims = spec === undefined ? null : dimensionNames(spec);
  for (const key of Object.keys(args.named)) {
    if (fixed.includes(key)) continue;
    if (dimensions && DIMENSION.test(key)) {
      if (!dims || dims.includes(key)) continue;
      fail(`${key} is not a dimension of ${spec}; its dimensions are ${dims.join(', ') || 'none'}`);
    }
    fail(`${name} has no setting "${key}"; use ${fixed.join(', ')}${dimensions ? ' and a size for each dimension (I=1024)' : ''}`);
  }
  if (args.named.sums !== undefined && !['yes', 'no'].includes(args.named.sums)) fail(`sums must be yes or no, got "${args.named.sums}"`);
}

// <tag> with one attribute per setting, in the order given.
export function element(tag, named, inner) {
  const attributes = Object.entries(named).map(([k, v]) => ` ${attributeName(k)}="${escapeHtml(v)}"`).join('');
  return `<${tag}${attributes}>${inner}</${tag}>`;
}

// The declarative shadow root of element `tag`, with its stylesheets.
export const shadow = declarativeShadow;

export function placeholder(what) {
  return `<p class="sb-placeholder" data-static="none">${escapeHtml(what)} loads with the page.</p>`;
}
