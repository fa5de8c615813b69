// The hardware catalog as a sortable table: pure functions shared by the builder (the static
// table) and <sb-chip-table> (sorting). Every value and note comes from engine.chips(); this
// file only picks columns, formats and orders.
import { formatValue, displayText } from '../core/format.js';
import { escapeHTML } from '../core/escape.js';

// The columns shown when ::chip-table names none (critical intensity is not a catalog field).
export const DEFAULT_FIELDS = [
  'peak_flops_bf16', 'peak_flops_fp8', 'peak_flops_int8', 'hbm_capacity', 'hbm_bandwidth',
  'vmem_capacity', 'l2_capacity', 'ici_link_bandwidth', 'ici_links_per_chip',
  'nvlink_bandwidth', 'pod_chips', 'price_per_hour',
];

// { rows, columns } for the chosen chips (ids, catalog order if none) and fields, or throws an
// Error naming the unknown id or field.
export function chipTableModel(catalog, { chips = null, fields = null } = {}) {
  const known = catalog.map((c) => c.id);
  const ids = chips ?? known;
  for (const id of ids) {
    if (!known.includes(id)) throw new Error(`unknown chip "${id}"; choose from ${known.join(', ')}`);
  }
  const fieldNames = catalog[0]?.fields.map((f) => f.name) ?? [];
  const names = fields ?? DEFAULT_FIELDS;
  for (const name of names) {
    if (!fieldNames.includes(name)) throw new Error(`unknown field "${name}"; choose from ${fieldNames.join(', ')}`);
  }
  const columns = names.map((name) => {
    const field = catalog[0].fields.find((f) => f.name === name);
    return { name, unit: field.unit, description: field.description };
  });
  const rows = ids.map((id) => {
    const chip = catalog.find((c) => c.id === id);
    const cells = names.map((name) => {
      const field = chip.fields.find((f) => f.name === name);
      return { name, value: field.value, unit: field.unit, note: field.note ?? '' };
    });
    return { id, name: chip.name, vendor: chip.vendor, cells };
  });
  return { rows, columns };
}

// The sort key of a row for a column: 'name', or a field name. Unknown values are null.
export function sortKey(row, column) {
  if (column === 'name') return row.name;
  const cell = row.cells.find((c) => c.name === column);
  return cell?.value ?? null;
}

// Rows ordered by one column: numbers numerically, text alphabetically, unknown values last
// in either direction; ties keep their catalog order (Array.prototype.sort is stable).
export function sortRows(rows, column, direction = 'ascending') {
  const sign = direction === 'descending' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = sortKey(a, column);
    const y = sortKey(b, column);
    if (x === null || y === null) return (x === null) - (y === null);
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
    return sign * String(x).localeCompare(String(y), 'en', { numeric: true });
  });
}

// The engine's display text: SI (197 TFLOP/s) for quantities, every digit for whole counts
// (4,096 chips, 6 links), since 3 significant digits would make a pod "4100 chips".
export function cellText(cell) {
  if (cell.value === null || cell.value === undefined) return '—';
  return typeof cell.value === 'number' ? displayText(cell.value, cell.unit ?? '') : formatValue(cell.value, cell.unit, 'si');
}

// A value cell: the note is the native tooltip (title) and also sits in the cell, hidden until
// the cell has focus (tab or tap), so keyboards, touch and screen readers all reach it.
function cellHTML(cell, rowIndex, columnIndex) {
  const text = escapeHTML(cellText(cell));
  const kind = typeof cell.value === 'number' ? ' data-kind="number"' : '';
  const sortValue = cell.value === null || cell.value === undefined ? '' : ` data-value="${escapeHTML(cell.value)}"${kind}`;
  if (!cell.note) return `<td data-field="${escapeHTML(cell.name)}"${sortValue}>${text}</td>`;
  const id = `note-${rowIndex}-${columnIndex}`;
  return `<td data-field="${escapeHTML(cell.name)}"${sortValue} tabindex="0" title="${escapeHTML(cell.note)}" ` +
    `aria-describedby="${id}">${text}<span class="note" id="${id}" role="tooltip">${escapeHTML(cell.note)}</span></td>`;
}

function headerHTML(name, label, unit, sort) {
  const aria = sort?.column === name ? ` aria-sort="${sort.direction}"` : '';
  const unitHTML = unit ? `<span class="unit">${escapeHTML(unit)}</span>` : '';
  return `<th scope="col" data-column="${escapeHTML(name)}"${aria}><button type="button" data-sort="${escapeHTML(name)}">` +
    `<span class="label">${escapeHTML(label)}</span>${unitHTML}<span class="arrow" aria-hidden="true"></span></button></th>`;
}

// Rows read back from a rendered table body, for sorting in place.
export function rowsFromDOM(tbody) {
  return [...tbody.rows].map((tr) => ({
    id: tr.dataset.chip,
    name: tr.cells[0].dataset.value,
    tr,
    cells: [...tr.cells].slice(1).map((td) => {
      const raw = td.dataset.value;
      const value = raw === undefined ? null : td.dataset.kind === 'number' ? Number(raw) : raw;
      return { name: td.dataset.field, value };
    }),
  }));
}

// The <table> (inside its scrolling wrapper); `sort` = { column, direction } if sorted.
export function chipTableHTML({ rows, columns }, sort = null) {
  const ordered = sort ? sortRows(rows, sort.column, sort.direction) : rows;
  const head = [headerHTML('name', 'Chip', '', sort), ...columns.map((c) => headerHTML(c.name, c.description, c.unit, sort))];
  const body = ordered.map((row, r) => `<tr data-chip="${escapeHTML(row.id)}"><th scope="row" data-value="${escapeHTML(row.name)}">` +
    `${escapeHTML(row.name)}</th>${row.cells.map((cell, c) => cellHTML(cell, r, c)).join('')}</tr>`);
  return `<div class="table-wrap" role="region" aria-label="Hardware catalog" tabindex="0">` +
    `<table class="chip-table"><caption>The hardware catalog: click a heading to sort; hover, tap or focus a value for its source.</caption>` +
    `<thead><tr>${head.join('')}</tr></thead><tbody>${body.join('')}</tbody></table></div>`;
}
