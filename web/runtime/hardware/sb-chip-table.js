// <sb-chip-table chips="tpu-v5e,h100" fields="peak_flops_bf16,hbm_bandwidth">: the hardware
// catalog as a table sorted by clicking a heading. The builder emits the whole table in a
// declarative shadow root, so it reads before any script; this element only adds sorting
// (rows are moved, not re-rendered). Outside the book (no static table) it renders from the engine.
import { SbWidget } from '../core/widget-base.js';
import { chipTableModel, chipTableHTML, rowsFromDOM, sortRows } from './chip-table-view.js';
import './catalog-css.js';

const list = (text) => (text ? text.split(',').map((s) => s.trim()).filter(Boolean) : null);

export class SbChipTable extends SbWidget {
  static loading = 'Loading the catalog…';
  static failure = 'the catalog failed to load';

  #wired = false;

  // The static table needs no engine: only sorting is added (rows are moved). Without it the
  // table is rendered from the engine's catalog.
  connectedCallback() {
    if (!this.shadowRoot) super.connectedCallback();
    if (this.#wired) return;
    this.#wired = true;
    this.shadowRoot.addEventListener('click', (event) => {
      const button = event.target.closest?.('button[data-sort]');
      if (button) this.sortBy(button.dataset.sort);
    });
  }

  start(engine) {
    try {
      const model = chipTableModel(engine.chips(), { chips: list(this.getAttribute('chips')), fields: list(this.getAttribute('fields')) });
      this.shadowRoot.innerHTML = chipTableHTML(model);
    } catch (err) {
      this.showFatal(err?.message ?? String(err));
    }
  }

  // Sorts by a column ('name' or a field); a second click on the same column reverses it.
  sortBy(column) {
    const table = this.shadowRoot?.querySelector('table');
    if (!table) return;
    const th = table.querySelector(`thead th[data-column="${CSS.escape(column)}"]`);
    if (!th) return;
    const direction = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
    for (const other of table.querySelectorAll('thead th[aria-sort]')) other.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', direction);
    const tbody = table.tBodies[0];
    for (const row of sortRows(rowsFromDOM(tbody), column, direction)) tbody.append(row.tr);
  }
}
