// The search box in the site header (<form data-search>, written by the builder's templates):
// shown once this script runs, since it cannot work without it. Nothing of the search is
// loaded with the page: the index and MiniSearch come in their own chunk (search-panel.js) the
// first time the reader focuses the box or types in it.

import { Announcer } from '../core/announce.js';

let panel = null;

// The panel's module, imported once; `form` is handed to it when it arrives.
function loadPanel(form) {
  panel ??= import('./search-panel.js').then((module) => module.attachSearch(form, new Announcer(form)), (error) => {
    const box = form.querySelector('[data-search-results]');
    const message = document.createElement('p');
    message.className = 'search-status';
    message.textContent = 'The search could not be loaded.';
    box.replaceChildren(message);
    box.hidden = false;
    throw error;
  });
  return panel;
}

export function watchSearch() {
  const run = () => {
    const form = document.querySelector('form[data-search]');
    const input = form?.querySelector('input[type="search"]');
    if (!input) return;
    form.hidden = false;
    const start = () => { loadPanel(form).catch(() => {}); };
    input.addEventListener('focus', start, { once: true });
    input.addEventListener('input', start, { once: true });
    // Enter before the panel has arrived waits for it (the panel handles later ones).
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      loadPanel(form).then((search) => search.follow(), () => {});
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}
