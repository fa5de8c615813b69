// <sb-kv-allocator>'s picture beside the calculator form: the chips' HBM as three bars, the
// weights and then the caches of as many requests as fit, padded to the context limit, in
// pages, and in pages with the prefix shared; each bar splits the caches into the tokens they
// hold and the room they waste. Pure: runs in the builder and the browser; every number
// comes from the engine's kv-allocator result.
import { si, displayText } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead } from '../core/render.js';

export const KV_LEAD = ['padded_requests', 'paged_requests', 'gain', 'shared_requests', 'compute_saved'];
registerLead('kv-allocator', KV_LEAD);

const SPAN = 624;
const BAR = 30;
const PARTS = [['weights', 'weights'], ['used', 'KV cache in use'], ['waste', 'KV cache reserved, unused'], ['free', 'free']];

// One bar's parts in bytes, from n requests holding `held` bytes of which `used` hold tokens.
function bar(r, caption, n, held, used) {
  return { caption, n, parts: { weights: r.weights, used, waste: Math.max(0, held - used), free: Math.max(0, r.budget - held) } };
}

export function memoryBars(r) {
  const bars = [
    bar(r, 'Padded to the context limit', r.padded_requests, r.padded_requests * r.padded_bytes, r.padded_requests * r.kv_per_request),
    bar(r, 'Paged', r.paged_requests, r.paged_requests * r.paged_bytes, r.paged_requests * r.kv_per_request),
  ];
  if (Number.isFinite(r.shared_requests)) {
    const n = r.shared_requests;
    const held = n * r.paged_bytes - r.bytes_saved;
    bars.push(bar(r, 'Paged, prefix shared', n, held, held - n * (r.paged_bytes - r.kv_per_request)));
  }
  return bars;
}

// Each bar is its caption in the page's text (so it stays readable on a phone) over an SVG of
// the bar alone, stretched to the column.
export function memoryBarsHTML(r) {
  const title = `The chips' HBM, ${si(r.hbm, 'B')}: weights, then the requests' KV caches under each allocator`;
  const rows = memoryBars(r).map((b, i) => {
    let x = 0;
    const rects = PARTS.map(([key, label]) => {
      const w = Math.max(0, (SPAN * b.parts[key]) / r.hbm);
      const rect = `<rect class="part ${key}" x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="${BAR}">` +
        `<title>${esc(`${b.caption}: ${label} ${si(b.parts[key], 'B')}`)}</title></rect>`;
      x += w;
      return rect;
    }).join('');
    const caption = `${b.caption}: ${displayText(b.n, 'requests')}`;
    return `<li class="bar" data-bar="${i}"><span class="caption">${esc(caption)}</span>` +
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SPAN} ${BAR}" preserveAspectRatio="none" aria-hidden="true">${rects}` +
      `<rect class="outline" x="0" y="0" width="${SPAN}" height="${BAR}" fill="none" stroke="currentColor" vector-effect="non-scaling-stroke"/></svg></li>`;
  });
  return `<ul class="memory-bars" aria-label="${esc(title)}">${rows.join('')}</ul>`;
}

// The key, in the page's text so it wraps on a phone.
function keyHTML() {
  return `<ul class="legend">${PARTS.map(([key, label]) => `<li><svg class="swatch" viewBox="0 0 14 14" aria-hidden="true"><rect class="part ${key}" width="14" height="14"/></svg>${esc(label)}</li>`).join('')}</ul>`;
}

export function kvExtrasHTML(result) {
  if (!result) return '<div class="inference-extras" data-extras></div>';
  const lines = memoryBars(result).map((b) =>
    `<li>${esc(b.caption)}: ${displayText(b.n, 'requests')}, ${si(b.parts.used, 'B')} in use, ${si(b.parts.waste, 'B')} reserved and unused</li>`);
  return '<div class="inference-extras" data-extras>' +
    '<h4 class="results">Where the HBM goes</h4>' +
    `${memoryBarsHTML(result)}${keyHTML()}` +
    `<ul class="visually-hidden">${lines.join('')}</ul></div>`;
}
