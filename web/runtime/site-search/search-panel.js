// The search itself, loaded on demand by search-box.js (a chunk of its own, with MiniSearch):
// fetches assets/search-index.json, indexes its sections, and shows up to MAX_RESULTS of them
// as links under the box as the reader types. Down and Up move through the results (and back
// to the box), Enter follows the one focused (in the box: the first), Escape closes them. The
// number found is announced politely once typing pauses. Built with the DOM and classes only
// (no style attributes, no HTML strings): the pages run under a strict Content-Security-Policy.
import MiniSearch from 'minisearch';
import { MAX_RESULTS, SEARCH_OPTIONS } from './search-options.js';
import { snippet } from './search-snippet.js';

// Beside the bundle and its chunks: assets/search-index.json.
const INDEX_URL = new URL('./search-index.json', import.meta.url);

async function loadIndex() {
  const response = await fetch(INDEX_URL);
  if (!response.ok) throw new Error(`${INDEX_URL}: ${response.status}`);
  const documents = await response.json();
  const index = new MiniSearch(SEARCH_OPTIONS);
  // In slices, between which the page stays responsive (all at once is a 100-200 ms task).
  await index.addAllAsync(documents, { chunkSize: 16 });
  return { index, documents: new Map(documents.map((d) => [d.id, d])) };
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function resultLink(doc, terms) {
  const link = element('a', 'search-result');
  link.href = doc.href;
  link.append(element('span', 'search-where', `${doc.chapter}. ${doc.chapterTitle}${doc.exercise ? ' · exercise' : ''}`),
    element('span', 'search-title', doc.title));
  const text = element('span', 'search-snippet');
  for (const piece of snippet(doc.text, terms)) {
    text.append(piece.match ? element('mark', '', piece.text) : document.createTextNode(piece.text));
  }
  if (doc.text) link.append(text);
  return link;
}

const countText = (n) => (n === 0 ? 'No section matches' : `${n} section${n === 1 ? '' : 's'} match${n === 1 ? 'es' : ''}`);

class SearchPanel {
  #input;
  #box; // the results' container
  #announcer;
  #loaded;
  #data = null;
  #query = '';

  constructor(form, announcer) {
    this.#input = form.querySelector('input[type="search"]');
    this.#box = form.querySelector('[data-search-results]');
    this.#box.id ||= `${this.#input.id}-results`;
    this.#input.setAttribute('aria-controls', this.#box.id);
    this.#announcer = announcer;
    this.#loaded = loadIndex().then((data) => { this.#data = data; }, (error) => {
      this.#status('The search could not be loaded.');
      throw error;
    });
    this.#input.addEventListener('input', () => this.update());
    // Coming back to the box from elsewhere on the page reopens its results (not from a result:
    // Escape there closes them and comes back here).
    this.#input.addEventListener('focus', (event) => {
      if (!form.contains(event.relatedTarget) && this.#input.value.trim()) this.update();
    });
    form.addEventListener('keydown', (event) => this.#key(event));
    form.addEventListener('focusout', (event) => {
      if (event.relatedTarget && !form.contains(event.relatedTarget)) this.close();
    });
    document.addEventListener('pointerdown', (event) => { if (!form.contains(event.target)) this.close(); });
    this.#box.addEventListener('click', (event) => { if (event.target.closest('a')) this.close(); });
  }

  get #links() {
    return [...this.#box.querySelectorAll('a.search-result')];
  }

  #status(text) {
    this.#box.replaceChildren(element('p', 'search-status', text));
    this.#box.hidden = false;
  }

  // Searches for what the box holds and shows the results (or closes them when it is empty).
  async update() {
    const query = this.#input.value.trim();
    this.#query = query;
    if (!query) {
      this.#announcer.cancel();
      this.close();
      return;
    }
    if (!this.#data) {
      this.#status('Loading the search…');
      try {
        await this.#loaded;
      } catch {
        return;
      }
      if (query !== this.#query) return; // the reader typed on meanwhile
    }
    const found = this.#data.index.search(query);
    if (!found.length) {
      this.#status(countText(0));
    } else {
      const list = element('ol', 'search-list');
      for (const result of found.slice(0, MAX_RESULTS)) {
        const item = element('li');
        item.append(resultLink(this.#data.documents.get(result.id), result.terms));
        list.append(item);
      }
      const shown = found.length > MAX_RESULTS ? `, the first ${MAX_RESULTS} shown` : '';
      this.#box.replaceChildren(element('p', 'search-status', `${countText(found.length)}${shown}`), list);
      this.#box.hidden = false;
    }
    this.#announcer.say(countText(found.length));
  }

  close() {
    this.#box.hidden = true;
  }

  // Enter in the box: the first result, once the search has run.
  async follow() {
    await this.update();
    const first = this.#links[0];
    if (first && !this.#box.hidden) {
      this.close();
      window.location.assign(first.href);
    }
  }

  #key(event) {
    if (event.key === 'Escape') {
      if (this.#box.hidden) return; // a second Escape clears the box, as the browser does
      event.preventDefault();
      this.close();
      this.#input.focus();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = this.#links;
    if (this.#box.hidden || !links.length) return;
    event.preventDefault();
    const at = links.indexOf(document.activeElement); // -1: the box
    const next = event.key === 'ArrowDown' ? Math.min(at + 1, links.length - 1) : at - 1;
    (next < 0 ? this.#input : links[next]).focus();
  }
}

// Takes over the search box; what was typed before this chunk arrived is searched at once.
// `announcer` (core/announce.js) comes from the bundle, so that no chunk is split off for it.
export function attachSearch(form, announcer) {
  const panel = new SearchPanel(form, announcer);
  if (form.querySelector('input[type="search"]').value.trim()) panel.update();
  return panel;
}
