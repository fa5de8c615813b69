// The stylesheets of the elements, by name. A page served with a strict Content-Security-Policy
// (style-src 'self', as scripts/serve sends) refuses every <style> block and style attribute,
// shadow roots included, but not a stylesheet linked from its own origin nor one built in
// script. So the markup carries no CSS: the build links each sheet from assets/css/ in the
// shadow roots it draws (declarativeShadow), and an element adopts constructed sheets into its own
// root (adoptSheets), which also spares it a flash of unstyled content whenever it redraws.
import { SHADOW_CSS } from './styles.js';

// Name -> CSS text. `shadow`, every element's base, is here; each domain's sheets are added by
// their own module (registerSheets, at the end of each *-css.js), which the elements using
// them import: a page loads only the CSS of the elements it has. The builder imports them all.
export const SHEETS = { shadow: SHADOW_CSS };

// The sheets of each element's shadow root, by tag, as each domain declares them beside its
// CSS; any other element takes `shadow` alone. The build's declarative roots and the elements'
// own read this one table, which core fills but never lists.
const ELEMENT_SHEETS = {};

// `sheets`: name -> CSS text; `elements`: tag -> the sheet names of its shadow root, in order.
export function registerSheets(sheets, elements = {}) {
  Object.assign(SHEETS, sheets);
  Object.assign(ELEMENT_SHEETS, elements);
}

export const sheetsOf = (tag) => ELEMENT_SHEETS[tag] ?? ['shadow'];

function known(name) {
  if (!Object.hasOwn(SHEETS, name)) throw new Error(`no stylesheet named "${name}"`);
  return name;
}

// The build's declarative shadow root of element `tag` (pages live beside assets/).
export function declarativeShadow(tag, html, base = 'assets/css/') {
  const links = sheetsOf(tag).map((name) => `<link rel="stylesheet" href="${base}${name}.css">`).join('');
  return `<template shadowrootmode="open">${links}${html}</template>`;
}

const built = new Map();
function sheet(name) {
  let s = built.get(name);
  if (!s) {
    s = new CSSStyleSheet();
    s.replaceSync(SHEETS[known(name)]);
    built.set(name, s);
  }
  return s;
}

// Adds the named sheets to a shadow root or document, keeping those it has. Where constructed
// sheets are missing (Safari before 16.4) a <style> element does the job, but only without a CSP.
export function adoptSheets(root, names) {
  if (typeof CSSStyleSheet === 'function' && 'adoptedStyleSheets' in root && 'replaceSync' in CSSStyleSheet.prototype) {
    const have = root.adoptedStyleSheets;
    const missing = names.map(sheet).filter((s) => !have.includes(s));
    if (missing.length) root.adoptedStyleSheets = [...have, ...missing];
    return;
  }
  const host = root.head ?? root;
  for (const name of names) {
    if (host.querySelector?.(`style[data-sheet="${known(name)}"]`)) continue;
    const style = (root.ownerDocument ?? root).createElement('style');
    style.dataset.sheet = name;
    style.textContent = SHEETS[name];
    host.prepend(style);
  }
}
