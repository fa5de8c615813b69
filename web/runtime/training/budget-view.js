// <sb-training-budget>'s pictures beside the calculator form: the parameters by block and the
// memory floor by part, each one stacked bar. Pure: runs in the builder and the browser; every
// number comes from the engine's training-budget result.
import { si } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';

const WIDTH = 640;
const BAR = { left: 8, right: 632, top: 34, height: 34 };
const COLORS = ['var(--_compute, #1a7f37)', 'var(--_accent, #2557a7)', 'var(--_memory, #9a5b00)', 'var(--_comm, #c62828)'];

// parts: [[label, value]], unit: for the labels; title: what the bar shows, with its total.
function stackedBarSVG(parts, unit, title) {
  const total = parts.reduce((sum, [, v]) => sum + (v > 0 ? v : 0), 0);
  const span = BAR.right - BAR.left;
  let x = BAR.left;
  const rects = [];
  const keys = [];
  parts.forEach(([label, value], i) => {
    const w = total > 0 ? (span * Math.max(0, value)) / total : 0;
    const share = total > 0 ? Math.round((100 * value) / total) : 0;
    const text = `${label} ${si(value, unit)} (${share}%)`;
    rects.push(`<rect x="${x.toFixed(1)}" y="${BAR.top}" width="${w.toFixed(1)}" height="${BAR.height}" fill="${COLORS[i % COLORS.length]}"><title>${esc(text)}</title></rect>`);
    // The key: one line a part, under the bar, in em so a phone's larger text keeps them apart.
    keys.push(`<g><rect x="${BAR.left}" y="${BAR.top + BAR.height + 12 + i * 24}" width="14" height="14" fill="${COLORS[i % COLORS.length]}"/>` +
      `<text x="${BAR.left + 22}" y="${BAR.top + BAR.height + 24 + i * 24}" fill="currentColor">${esc(text)}</text></g>`);
    x += w;
  });
  const height = BAR.top + BAR.height + 16 + parts.length * 24;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" role="img" class="stacked" aria-label="${esc(title)}">` +
    `<title>${esc(title)}</title><text x="${BAR.left}" y="20" fill="currentColor" font-weight="600">${esc(title)}</text>` +
    `${rects.join('')}${keys.join('')}</svg>`;
}

export function budgetBarsHTML(result) {
  if (!result) return '<div class="budget-bars" data-budget-bars data-extras></div>';
  const params = stackedBarSVG([
    ['MLP', result.params_mlp], ['attention', result.params_attention],
    ['embeddings', result.params_embedding], ['norms', result.params_norm],
  ], 'params', `Parameters by block: ${si(result.params_model, 'params')}`);
  const memory = stackedBarSVG([
    ['checkpoints', result.mem_checkpoints], ['optimizer state', result.mem_optimizer], ['weights', result.mem_params],
  ], 'B', `Memory floor: ${si(result.mem_total, 'B')}, at least ${result.chips_min} chips of ${si(result.hbm_capacity, 'B')}`);
  return `<div class="budget-bars" data-budget-bars data-extras>${params}${memory}</div>`;
}
