// <sb-speculative>'s pictures beside the calculator form: the speedup against the draft
// length, with the length asked for and the best one marked, and a strip of draft-and-verify
// rounds like the book's FIG 18, each drafted token accepted (✓) or rejected (✗) by a fixed
// sequence of draws against alpha. Pure: runs in the builder and the browser; every number
// comes from the engine's speculative result (its rounds table).
import { si, formatValue } from '../core/format.js';
import { linearAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead } from '../core/render.js';

export const SPECULATIVE_LEAD = ['speedup', 't_per_token', 'tokens', 'best_k', 'best_speedup'];
registerLead('speculative', SPECULATIVE_LEAD);

const WIDTH = 640;
const HEIGHT = 320;
const MARGIN = { left: 70, right: 20, top: 36, bottom: 60 };
const num = (x) => formatValue(x, '', 'num');

export function speedupPlotSVG(result) {
  const rows = result?.rounds ?? [];
  const title = 'Speedup over ordinary decoding against the draft length k';
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" class="speedup-plot" aria-label="${esc(title)}"><title>${esc(title)}</title>`;
  if (!rows.length) return `${open}</svg>`;
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  const { left, right, top, bottom, w } = area;
  const x = linearAxis([1, Math.max(2, rows.length)], [left, right]);
  const y = linearAxis([0, Math.max(1.2, ...rows.map((r) => r.speedup)) * 1.1], [bottom, top]);
  const parts = [
    ticksSVG(x, x.ticks(Math.min(rows.length, 8)).filter(Number.isInteger), { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => String(v) }),
    ticksSVG(y, y.ticks(5), { side: 'left', edge: left, across: [left, right], label: (v) => `${num(v)}×` }),
    `<line class="unity" x1="${left}" y1="${y(1)}" x2="${right}" y2="${y(1)}" stroke="currentColor" stroke-dasharray="6 4"/>`,
    `<text x="${right - 4}" y="${y(1) - 6}" text-anchor="end" fill="currentColor" class="small">ordinary decoding</text>`,
    `<path class="curve" d="${rows.map((r, i) => `${i ? 'L' : 'M'}${x(r.k)},${y(r.speedup)}`).join(' ')}" fill="none" stroke="var(--_accent, #2557a7)" stroke-width="2.5"/>`,
  ];
  for (const r of rows) {
    const cls = `pt${r.chosen === 'yes' ? ' chosen' : ''}${r.best === 'yes' ? ' best' : ''}`;
    const words = `k = ${r.k}: ${num(r.tokens)} tokens a round, ${si(r.t_per_token, 's')} a token, ${num(r.speedup)}× faster`;
    parts.push(`<circle class="${cls}" cx="${x(r.k)}" cy="${y(r.speedup)}" r="${r.chosen === 'yes' || r.best === 'yes' ? 6 : 3}"><title>${esc(words)}</title></circle>`);
  }
  const chosen = rows.find((r) => r.chosen === 'yes');
  const best = rows.find((r) => r.best === 'yes');
  if (best) parts.push(`<text class="mark-label" x="${x(best.k)}" y="${y(best.speedup) - 12}" text-anchor="middle" fill="currentColor">best k = ${best.k}</text>`);
  if (chosen && chosen !== best) parts.push(`<text class="mark-label" x="${x(chosen.k)}" y="${y(chosen.speedup) + 22}" text-anchor="middle" fill="currentColor">k = ${chosen.k}</text>`);
  parts.push(frameSVG(area),
    `<text class="axis-title" x="${left + w / 2}" y="${HEIGHT}" dy="-0.4em" text-anchor="middle" fill="currentColor">draft length k (tokens)</text>`,
    `<text class="axis-title" x="8" y="${top - 12}" fill="currentColor">speedup</text>`);
  return `${open}${parts.join('')}</svg>`;
}

// A small fixed generator (mulberry32), so a page draws the same rounds every time and the
// build's drawing matches the browser's. Each round uses k draws whatever alpha is, so raising
// alpha only ever turns a ✗ into a ✓.
function draws(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROUNDS = 5;
const SHOWN = 12; // drafts drawn per round; a longer draft says how many more there are

// Rounds of k drafts against acceptance alpha: each round's marks ('ok', 'no', 'skip') and the
// tokens it yields (the accepted drafts plus the target's own).
export function sampleRounds(alpha, k, rounds = ROUNDS) {
  const next = draws(0x5eed);
  const out = [];
  for (let r = 0; r < rounds; r++) {
    const marks = [];
    let going = true;
    for (let i = 0; i < k; i++) {
      const u = next();
      if (!going) marks.push('skip');
      else if (u < alpha) marks.push('ok');
      else { marks.push('no'); going = false; }
    }
    out.push({ marks, tokens: marks.filter((m) => m === 'ok').length + 1, bonus: going });
  }
  return out;
}

const GLYPH = { ok: '✓', no: '✗', skip: '·' };

function roundHTML({ marks, tokens, bonus }, i) {
  const accepted = tokens - 1;
  const words = `Round ${i + 1}: ${accepted} of ${marks.length} drafts accepted${bonus ? '' : `, draft ${accepted + 1} rejected`}; ` +
    `the target adds ${bonus ? 'a bonus token' : 'its correction'}: ${tokens} token${tokens === 1 ? '' : 's'}`;
  const cells = marks.slice(0, SHOWN).map((m) => `<span class="tok ${m}" aria-hidden="true">${GLYPH[m]}</span>`);
  if (marks.length > SHOWN) cells.push(`<span class="more" aria-hidden="true">+${marks.length - SHOWN}</span>`);
  cells.push(`<span class="tok target" aria-hidden="true">${bonus ? '+1' : 'fix'}</span>`);
  return `<li class="round" aria-label="${esc(words)}"><span class="label" aria-hidden="true">${i + 1}</span>${cells.join('')}` +
    `<span class="yield" aria-hidden="true">${tokens}</span></li>`;
}

// alpha and k are read back from the table: the k = 1 row yields 1 + alpha tokens, and the
// row asked for is marked.
export function stripHTML(result) {
  const rows = result?.rounds ?? [];
  const chosen = rows.find((r) => r.chosen === 'yes');
  if (!rows.length || !chosen) return '';
  const alpha = Math.min(1, Math.max(0, rows[0].tokens - 1));
  const rounds = sampleRounds(alpha, chosen.k);
  const total = rounds.reduce((s, r) => s + r.tokens, 0);
  return '<h4 class="results">Draft, then verify</h4>' +
    `<p class="note">Each row is one round: the draft model proposes ${chosen.k} token${chosen.k === 1 ? '' : 's'}, one target step checks them. ` +
    'Accepted drafts (✓) are kept up to the first rejection (✗); the drafts after it (·) are thrown away, and the target adds one token of its own, ' +
    'its correction or, when every draft passed, a bonus token.</p>' +
    `<ol class="strip" aria-label="${ROUNDS} rounds of speculative decoding">${rounds.map(roundHTML).join('')}</ol>` +
    `<p class="summary" data-summary>These ${ROUNDS} rounds gave ${total} tokens, ${num(total / ROUNDS)} a round; the expectation is ${num(result.tokens)}.</p>`;
}

export function speculativeExtrasHTML(result) {
  if (!result) return '<div class="inference-extras" data-extras></div>';
  return '<div class="inference-extras" data-extras>' +
    '<h4 class="results">Speedup against the draft length</h4>' +
    `<div class="plot">${speedupPlotSVG(result)}</div>${stripHTML(result)}</div>`;
}
