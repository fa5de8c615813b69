// <sb-training-search model="llama-3-70b" chips="8192" B="4194304" T="4096">: chapter 6's
// configuration search as the calculator form, its tables (sortable by any column, each row a
// link that opens it in chapter 5's explorer) and the Pareto plot. Its schema says long_running,
// so SbCalculator runs it in the training domain's worker on the book's own pages (the page keeps
// responding) and, past 100 ms, the status line says it is searching and offers to stop.
import { SbCalculator } from '../core/sb-calculator.js';
import { searchExtrasHTML, updateSearchExtras, toggleRows, SEARCH_LEAD } from './search-view.js';
import './search-css.js';

// Chapter 5's page, where the explorer (the training calculator with id="explorer") lives.
const EXPLORER = new URL('../05-training.html', import.meta.url);

export class SbTrainingSearch extends SbCalculator {
  static calculator = 'training-search';
  static lead = SEARCH_LEAD;
  static statusWords = {
    working: 'Searching every configuration…',
    label: 'Search progress',
    stopped: 'Stopped: the tables show the last search that finished.',
  };

  start(engine) {
    super.start(engine);
    this.#wireSorting();
  }

  afterFormHTML(result) {
    // The links get the search's inputs when the result arrives (afterResult).
    return searchExtrasHTML(result, { explorer: EXPLORER.href });
  }

  // After each result (and when a section the build left for later fills): the tables (their
  // layouts link to the explorer) and the plot, those in a closed section when it opens.
  afterResult(result) {
    updateSearchExtras(this.shadowRoot, result, { inputs: this.inputs, explorer: EXPLORER.href });
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
