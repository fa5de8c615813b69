// <sb-training-search>'s own parts beside the generic calculator form: the Pareto front of
// memory per chip against step time as an SVG, and where a row opens in chapter 5's explorer.
// Pure: runs in the builder and the browser; every number comes from the engine's result.
import { si } from '../core/format.js';
import { logAxis, linearAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead, registerOwnTables } from '../core/render.js';
import { drawWhenOpen, foldHTML, setHTML } from './fold.js';

// The search's answer, drawn before its form (render.js folds its other results): the best
// layout and its choices, its step time, bound, MFU ceiling and memory per chip.
export const SEARCH_LEAD = ['best', 'best_choices', 'step_time', 'bound', 'mfu_ceiling', 'mem_total'];
registerLead('training-search', SEARCH_LEAD);

const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { left: 96, right: 24, top: 40, bottom: 60 };

// The training calculator's inputs that reproduce a row, as a query for the explorer: the
// search's own model, chip and batch, and the row's layout words ("shape=4x4x4 zero=3 ...").
export function explorerQuery(inputs, words) {
  const params = new URLSearchParams({ load: 'explorer' });
  for (const name of ['model', 'chip', 'B', 'T', 'grad_accum', 'optimizer', 'offload', 'dtype', 'dtype_params', 'dtype_grads', 'dtype_optimizer']) {
    if (inputs?.[name] !== undefined && inputs[name] !== '') params.set(name, String(inputs[name]));
  }
  for (const word of String(words ?? '').split(/\s+/)) {
    const eq = word.indexOf('=');
    // fsdp_axes="X'YZ" is quoted for a shell; the form takes what is inside.
    if (eq > 0) params.set(word.slice(0, eq), word.slice(eq + 1).replace(/^"(.*)"$/, '$1'));
  }
  return params.toString();
}

// rows: the result's pareto table; best: the result's fastest (its step_time and mem_total).
export function paretoSVG(rows, best) {
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  const { left, right, top, bottom, w } = area;
  const title = 'Memory per chip against step time: the configurations no other beats on both';
  if (!Array.isArray(rows) || !rows.length) {
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" class="pareto"><title>${esc(title)}</title>` +
      `<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" fill="currentColor">no configuration fits</text></svg>`;
  }
  const mems = rows.map((r) => r.mem_total);
  const times = rows.map((r) => r.step_time);
  const lo = Math.min(...mems) / 1.5;
  const hi = Math.max(...mems) * 1.5;
  const x = logAxis([lo, hi], [left, right]);
  const y = linearAxis([0, Math.max(...times) * 1.1], [bottom, top]);
  const xticks = x.ticks(1).length >= 2 ? x.ticks(1) : [lo, hi];
  const parts = [ticksSVG(x, xticks, { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => si(v, 'B') }),
    ticksSVG(y, y.ticks(5), { side: 'left', edge: left, across: [left, right], label: (v) => si(v, 's') })];
  const d = rows.map((r, i) => `${i ? 'L' : 'M'}${x(r.mem_total)},${y(r.step_time)}`).join(' ');
  parts.push(`<path class="front" d="${d}" fill="none" stroke="var(--_accent, #2557a7)" stroke-width="1.5" stroke-dasharray="4 3"/>`);
  rows.forEach((r) => {
    const fastest = best && r.step_time === best.step_time && r.mem_total === best.mem_total;
    const label = `${r.layout}, ${r.choices}: ${si(r.step_time, 's')} a step, ${si(r.mem_total, 'B')} per chip, ${r.bound}-bound`;
    parts.push(`<circle class="point${fastest ? ' fastest' : ''}" tabindex="0" role="img" aria-label="${esc(label)}" ` +
      `cx="${x(r.mem_total)}" cy="${y(r.step_time)}" r="${fastest ? 7 : 5}" fill="var(${fastest ? '--_compute, #1a7f37' : '--_accent, #2557a7'})">` +
      `<title>${esc(label)}</title></circle>`);
  });
  parts.push(frameSVG(area),
    `<text class="axis-title" x="${left + w / 2}" y="${HEIGHT}" dy="-0.25em" text-anchor="middle" fill="currentColor">memory per chip</text>`,
    `<text class="axis-title" x="8" y="${top - 14}" fill="currentColor">step time</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" class="pareto">` +
    `<title>${esc(title)}</title>${parts.join('')}</svg>`;
}

const TABLES = [
  ['top', 'The fastest configurations, best first'],
  ['families', 'The fastest of each family'],
  ['pareto', 'The Pareto front: no other configuration is both faster and smaller'],
];
// The generic renderer leaves the engine's three tables to these (a result is drawn once).
registerOwnTables('training-search', TABLES.map(([name]) => name));
const NUMBER_COLUMNS = [['step_time', 'Step time', 's'], ['mfu_ceiling', 'MFU ceiling', ''], ['mem_total', 'Memory per chip', 'B']];

function sortHead(label, numeric) {
  return `<th scope="col" aria-sort="none"${numeric ? ' class="num"' : ''}><button type="button" class="sort">${esc(label)}</button></th>`;
}

// One of the search's tables, compact: the layout (a link that opens it in the explorer, with
// why it beats the next under it), its choices, bound and numbers; every header sorts.
export function searchTableHTML(name, rows, { inputs = {}, explorer = '05-training.html' } = {}) {
  const family = name === 'families';
  const head = (family ? sortHead('Family') : '') + sortHead('Layout') + sortHead('Choices') + sortHead('Bound') +
    NUMBER_COLUMNS.map(([, label]) => sortHead(label, true)).join('');
  const body = (Array.isArray(rows) ? rows : []).map((row) => {
    const href = `${explorer}?${explorerQuery(inputs, row.inputs)}#explorer`;
    const why = row.why ? `<span class="why">${esc(row.why)}</span>` : '';
    const numbers = NUMBER_COLUMNS.map(([key, , unit]) =>
      `<td class="num" data-value="${Number(row[key])}">${esc(si(row[key], unit))}</td>`).join('');
    return `<tr>${family ? `<td>${esc(row.family)}</td>` : ''}` +
      `<td><a href="${esc(href)}" title="Open in the chapter 5 explorer">${esc(row.layout)}</a>${why}</td>` +
      `<td>${esc(row.choices)}</td><td><span class="badge badge-${esc(row.bound)}">${esc(row.bound)}</span></td>${numbers}</tr>`;
  }).join('');
  const empty = `<tr><td colspan="${family ? 7 : 6}">none</td></tr>`;
  return `<table class="result-table search-table" data-search-table="${esc(name)}"><thead><tr>${head}</tr></thead>` +
    `<tbody>${body || empty}</tbody></table>`;
}

// The fastest table shows its first rows; a button shows the rest (the whole table, so its
// headers sort every row). The other tables and the plot are sections a reader opens.
export const FIRST_ROWS = 3;

function regionLabel(title, inputs) {
  const { model, chips, shape } = inputs ?? {};
  const which = [model, chips ? `${chips} chips` : shape].filter(Boolean).join(', ');
  return which ? `${title} (${which})` : title;
}

function moreText(count, expanded) {
  return expanded ? `Show the first ${FIRST_ROWS}` : `Show all ${count} configurations`;
}

// The button under the fastest table, when it has more rows than it shows.
function moreHTML(count) {
  const hidden = count > FIRST_ROWS ? '' : ' hidden';
  return `<button type="button" class="more" data-more aria-expanded="false" aria-controls="search-top"${hidden}>${esc(moreText(count, false))}</button>`;
}

// Each table's region is named for its search too (two searches on a page need two names).
export function searchTablesHTML(result, options = {}) {
  return TABLES.map(([name, title]) => {
    const box = `<div class="table-box" tabindex="0" role="region" aria-label="${esc(regionLabel(title, options.inputs))}" data-search-box="${esc(name)}"` +
      `${name === 'top' ? ' id="search-top" data-rows="first"' : ''}>${searchTableHTML(name, result?.[name], options)}</div>`;
    if (name !== 'top') return foldHTML(`search-${name}`, title, box);
    const rows = Array.isArray(result?.[name]) ? result[name].length : 0;
    return `<h4 class="results">${esc(title)}</h4>${box}${moreHTML(rows)}`;
  }).join('');
}

// The top table's button shows every row or the first few again.
export function toggleRows(button) {
  const box = button.parentElement.querySelector('[data-search-box="top"]');
  const expanded = button.getAttribute('aria-expanded') !== 'true';
  box.dataset.rows = expanded ? 'all' : 'first';
  button.setAttribute('aria-expanded', String(expanded));
  button.textContent = moreText(box.querySelector('tbody').rows.length, expanded);
}

// After each result: each table's rows (its section's open state and the top table's button
// kept), a closed section's when it opens, and the plot if its section is open (fold.js).
export function updateSearchExtras(root, result, options = {}) {
  const tables = root.querySelector('[data-search-tables]');
  if (!tables) return;
  for (const [name, title] of TABLES) {
    const box = tables.querySelector(`[data-search-box="${name}"]`);
    if (!box) continue;
    const label = regionLabel(title, options.inputs);
    if (box.getAttribute('aria-label') !== label) box.setAttribute('aria-label', label);
    drawWhenOpen(box.closest('details'), () => setHTML(box, searchTableHTML(name, result?.[name], options)));
  }
  const more = tables.querySelector('[data-more]');
  if (more) {
    const rows = Array.isArray(result?.top) ? result.top.length : 0;
    more.hidden = rows <= FIRST_ROWS;
    more.textContent = moreText(rows, more.getAttribute('aria-expanded') === 'true');
  }
  const plot = root.querySelector('[data-plot]');
  const best = { step_time: result?.step_time, mem_total: result?.mem_total };
  drawWhenOpen(plot?.closest('details'), () => setHTML(plot, paretoSVG(result?.pareto, best)));
}

// What follows the form: the status line (core/long-status.js runs it), the tables and the
// Pareto plot. The layouts link to the explorer; options: { inputs, explorer } (the search's
// inputs, the explorer page's URL).
export function searchExtrasHTML(result, options) {
  const best = result ? { step_time: result.step_time, mem_total: result.mem_total } : null;
  return `<div class="search-extras"><p class="long-status" data-search-status data-long-status role="status" aria-live="polite"></p>` +
    `<div data-search-tables>${searchTablesHTML(result, options)}</div>` +
    foldHTML('search-plot', 'Memory per chip against step time',
      `<p class="note">Each point is a configuration no other beats on both; the green one is the fastest. Hover or focus a point for its layout.</p>` +
      `<div class="plot" data-plot>${paretoSVG(result?.pareto, best)}</div>`) + '</div>';
}
