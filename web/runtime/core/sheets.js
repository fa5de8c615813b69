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

// The browser bundle carries no sheet's text (web/builder/linked-sheets.mjs): a sheet left empty
// is read from its file beside the bundle, assets/css/NAME.css, which the build writes.
const fileOf = (name) => new URL(`css/${name}.css`, import.meta.url).href;

// The text of a loaded same-origin stylesheet, as the browser parsed it.
function rulesText(styleSheet) {
  return [...styleSheet.cssRules].map((rule) => rule.cssText).join('\n');
}

// Fills constructed sheet `s` from file `url`: from a <link> to it that `root` or the document
// already has (a book page's shadow roots link every sheet, so nothing is fetched twice), else
// with a fetch (an embed on another page; the assets allow any origin).
function fillFromFile(s, url, root) {
  const fetchIt = () => fetch(url).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${url}: ${r.status}`))))
    .then((text) => s.replace(text))
    .catch((err) => console.warn(`a stylesheet could not load: ${err.message ?? err}`));
  const linked = (r) => [...(r?.querySelectorAll?.('link[rel="stylesheet"]') ?? [])].find((l) => l.href === url);
  const link = linked(root) ?? linked(root?.ownerDocument ?? globalThis.document);
  if (!link) return void fetchIt();
  const fromLink = () => {
    try {
      s.replaceSync(rulesText(link.sheet));
    } catch {
      fetchIt();
    }
  };
  if (link.sheet) fromLink();
  else {
    link.addEventListener('load', fromLink, { once: true });
    link.addEventListener('error', fetchIt, { once: true });
  }
}

const built = new Map();
function sheet(name, root) {
  let s = built.get(name);
  if (!s) {
    s = new CSSStyleSheet();
    const text = SHEETS[known(name)];
    if (text) s.replaceSync(text);
    else fillFromFile(s, fileOf(name), root);
    built.set(name, s);
  }
  return s;
}

// Adds the named sheets to a shadow root or document, keeping those it has. Where constructed
// sheets are missing (Safari before 16.4) a <style> element does the job, but only without a CSP
// (a <link> to the sheet's file, where the bundle left its text out).
export function adoptSheets(root, names) {
  if (typeof CSSStyleSheet === 'function' && 'adoptedStyleSheets' in root && 'replaceSync' in CSSStyleSheet.prototype) {
    const have = root.adoptedStyleSheets;
    const missing = names.map((name) => sheet(name, root)).filter((s) => !have.includes(s));
    if (missing.length) root.adoptedStyleSheets = [...have, ...missing];
    return;
  }
  const host = root.head ?? root;
  for (const name of names) {
    if (host.querySelector?.(`[data-sheet="${known(name)}"]`)) continue;
    const text = SHEETS[name];
    const style = (root.ownerDocument ?? root).createElement(text ? 'style' : 'link');
    style.dataset.sheet = name;
    if (text) style.textContent = text;
    else Object.assign(style, { rel: 'stylesheet', href: fileOf(name) });
    host.prepend(style);
  }
}
