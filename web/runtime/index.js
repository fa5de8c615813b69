// The browser runtime's entry point: defines every <sb-*> element and re-exports the engine
// loader, so one script tag serves the book's pages and anyone embedding a calculator.
//
// An element's code is fetched only when the page has one (its static HTML shows meanwhile):
// each element's import (its domain's elements.js, listed by domains.js) is its own chunk, so
// chapter 1 never downloads the training views. The builder preloads the chunks of the
// elements a page holds (web/builder/build.mjs).
import { SbCalculator } from './core/sb-calculator.js';
import { watchScrollable } from './core/scroll-focus.js';
import { watchCurrentSection } from './core/current-section.js';
import { watchSearch } from './site-search/search-box.js';
import { useWorker } from './core/long-runner.js';
import { watchLazyFolds } from './core/lazy-folds.js';
import './hardware/my-chip-hook.js'; // every calculator's chip list offers the reader's own chip
import { ELEMENTS } from './domains.js'; // every domain's elements, as each declares them

import { useDomains } from '../../bindings/wasm/engine.mjs';

export { loadEngine, CalculatorError } from '../../bindings/wasm/engine.mjs';
// The base of every calculator element, for a page that defines its own.
export { SbCalculator };

const SELECTOR = Object.keys(ELEMENTS).join(',');
const asked = new Set();

// Defines `tag` once its code arrives; a page may load the bundle twice (a blog post with two
// embeds), so a tag already defined is left alone. A chunk that fails to load is asked for
// again when another such element appears.
function define(tag) {
  if (asked.has(tag) || customElements.get(tag)) return;
  asked.add(tag);
  const { engineDomain, worker, load } = ELEMENTS[tag];
  // An embedding page (no builder's tag) then loads the smallest engine module for its elements.
  if (engineDomain) useDomains([engineDomain]);
  if (worker) useWorker(tag, worker); // its long calculations run in its domain's worker
  load().then(
    (element) => { if (!customElements.get(tag)) customElements.define(tag, element); },
    () => asked.delete(tag),
  );
}

function defineWithin(root) {
  for (const node of root.querySelectorAll(SELECTOR)) define(node.localName);
}

defineWithin(document);
// The closed sections the build left for later fill as they open (lazy-folds.js).
watchLazyFolds(SELECTOR);
// Elements added later (a page that builds its widgets from script) are defined as they come.
const watcher = new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      if (Object.hasOwn(ELEMENTS, node.localName)) define(node.localName);
      if (node.firstElementChild) defineWithin(node);
    }
  }
  if (asked.size === Object.keys(ELEMENTS).length) watcher.disconnect();
});
watcher.observe(document.documentElement, { childList: true, subtree: true });

// Page-level behaviour, for the book's pages (an embedding page has none of their boxes).
watchScrollable();
watchCurrentSection();
watchSearch();
