// <sb-training-search model="llama-3-70b" chips="8192" B="4194304" T="4096">: chapter 6's
// configuration search as the calculator form, its tables (sortable by any column, each row a
// link that opens it in chapter 5's explorer) and the Pareto plot. The search runs in a worker
// on the book's own pages, so the page keeps responding; past 100 ms a line says it is
// searching and offers to stop.
import { SbCalculator } from '../core/sb-calculator.js';
import { SearchRunner } from './search-runner.js';
import { searchExtrasHTML, updateSearchExtras, toggleRows, SEARCH_LEAD } from './search-view.js';
import './search-css.js';

// Chapter 5's page, where the explorer (the training calculator with id="explorer") lives.
const EXPLORER = new URL('../05-training.html', import.meta.url);
const SHOW_AFTER = 100; // ms

export class SbTrainingSearch extends SbCalculator {
  static calculator = 'training-search';
  static lead = SEARCH_LEAD;
  #runner = null;
  #timer = 0;
  #started = 0;

  start(engine) {
    this.#runner = new SearchRunner(engine);
    this.addEventListener('sb-change', (event) => {
      if (event.target === this) this.#decorate(event.detail.inputs, event.detail.result);
    });
    super.start(engine);
    this.#wireSorting();
  }

  #fraction = null; // the running search's share of its work done, as the worker last said

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#runner?.cancel();
    clearInterval(this.#timer);
  }

  afterFormHTML(result) {
    // The links get the search's inputs when the result arrives (sb-change, #decorate).
    return searchExtrasHTML(result, { explorer: EXPLORER.href });
  }

  compute(inputs) {
    this.#fraction = null;
    return this.#runner.run(this.calculator, inputs, { onProgress: (f) => { this.#fraction = f; } });
  }

  busy(on) {
    const status = this.shadowRoot?.querySelector('[data-search-status]');
    clearInterval(this.#timer);
    if (!status) return;
    if (!on) {
      status.textContent = '';
      return;
    }
    this.#started = performance.now();
    this.#timer = setInterval(() => {
      const ms = performance.now() - this.#started;
      if (ms < SHOW_AFTER || status.querySelector('button')) {
        const seconds = status.querySelector('[data-elapsed]');
        if (seconds) seconds.textContent = progressText(this.#fraction, ms);
        const bar = status.querySelector('progress');
        if (bar && this.#fraction !== null) bar.value = this.#fraction;
        return;
      }
      status.innerHTML = 'Searching every configuration… <progress max="1" aria-label="Search progress"></progress> ' +
        '<span data-elapsed></span><button type="button" data-stop>Stop</button>';
      status.querySelector('[data-stop]').addEventListener('click', () => {
        this.#runner.cancel();
        clearInterval(this.#timer);
        status.textContent = 'Stopped: the tables show the last search that finished.';
      });
    }, 50);
  }

  // After each result: the tables (their layouts link to the explorer) and the plot, those in a
  // closed section when it opens.
  #decorate(inputs, result) {
    updateSearchExtras(this.shadowRoot, result, { inputs, explorer: EXPLORER.href });
  }

  // A header's button sorts its table's rows by that column, numbers by their exact values; the
  // fastest table's last button shows all its rows or its first few.
  #wireSorting() {
    this.shadowRoot.addEventListener('click', (event) => {
      const more = event.target.closest?.('button[data-more]');
      if (more) {
        toggleRows(more);
        return;
      }
      const button = event.target.closest?.('th button.sort');
      if (!button) return;
      const th = button.closest('th');
      const table = th.closest('table');
      const heads = [...table.querySelectorAll('thead th')];
      const ascending = th.getAttribute('aria-sort') !== 'ascending';
      for (const other of heads) other.setAttribute('aria-sort', 'none');
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      sortRows(table, heads.indexOf(th), ascending);
    });
  }
}

// "42% · 1.3 s", or the time alone until the search has said how far it is.
export function progressText(fraction, ms) {
  const seconds = `${(ms / 1000).toFixed(1)} s`;
  return fraction === null || fraction === undefined ? seconds : `${Math.floor(fraction * 100)}% · ${seconds}`;
}

function sortRows(table, index, ascending) {
  const body = table.tBodies[0];
  const key = (row) => {
    const cell = row.cells[index];
    if (!cell) return '';
    return cell.dataset.value !== undefined ? Number(cell.dataset.value) : cell.textContent;
  };
  const rows = [...body.rows];
  rows.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const order = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : String(ka).localeCompare(String(kb));
    return ascending ? order : -order;
  });
  body.append(...rows);
}
