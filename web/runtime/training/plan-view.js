// <sb-training-plan>'s pictures after the calculator form: the three questions step by step
// (plan-steps.js), then, in a section a reader opens, tokens per chip against the number
// of pods, on log axes, with FSDP's, the mix's and DCN's thresholds as lines and the
// recommended count marked. Pure: runs in the builder and the browser; every number comes from
// the engine's training-plan result (its by_pods table and threshold outputs).
import { si } from '../core/format.js';
import { logAxis, ticksSVG, frameSVG, plotArea } from '../core/axes.js';
import { escapeHTML as esc } from '../core/escape.js';
import { walkthroughHTML } from './plan-steps.js';
import { registerLead } from '../core/render.js';
import { drawWhenOpen, foldHTML, setHTML } from './fold.js';

// The plan's answer, drawn before its form (render.js folds its other results and its table):
// the mesh, the tokens each chip gets, and the pods the batch keeps compute-bound with their mesh.
export const PLAN_LEAD = ['mesh', 'tokens_per_chip', 'pods_recommended', 'pods_mesh'];
registerLead('training-plan', PLAN_LEAD);

const WIDTH = 640;
const HEIGHT = 340;
const MARGIN = { left: 64, right: 24, top: 40, bottom: 56 };
const GOOD = 'var(--_compute, #1a7f37)';
const BAD = 'var(--_comm, #c62828)';
// Each threshold's line: its output, its name in the key, its colour and dash.
const LINES = [
  { key: 'critical_batch', label: 'FSDP alone', color: 'var(--_memory, #9a5b00)', dash: '2 4' },
  { key: 'mixed_batch', label: 'FSDP + TP mixed', color: 'var(--_accent, #2557a7)', dash: '8 4' },
  { key: 'dcn_per_chip', label: 'DP over DCN, per chip of a pod', color: 'var(--_fg, #222)', dash: '1 3' },
];

const compute = (row) => row.bound.startsWith('compute');

function pointLabel(row) {
  return `${si(row.pods, 'pods')}: ${si(row.tokens_per_chip, 'tokens')} per chip, ` +
    `${si(row.tokens_per_pod, 'tokens')} per pod, ${row.bound}, ${row.fsdp_degree} × ${row.tp_degree} in each pod` +
    `${row.recommended === 'yes' ? ', the recommended count' : ''}`;
}

export function podsPlotSVG(result) {
  const title = 'Tokens per chip against the number of pods, with the thresholds each must stay above';
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" class="pods-plot" aria-label="${esc(title)}"><title>${esc(title)}</title>`;
  const rows = Array.isArray(result?.by_pods) ? result.by_pods : [];
  if (!rows.length) return `${open}</svg>`;
  const area = plotArea(WIDTH, HEIGHT, MARGIN);
  const { left, right, top, bottom, w } = area;
  const pods = rows.map((r) => r.pods);
  const lines = LINES.filter((l) => result[l.key] > 0);
  const ys = [...rows.map((r) => r.tokens_per_chip), ...lines.map((l) => result[l.key])];
  // Room either side of the first and last counts, so their points and labels sit inside.
  const x = logAxis([Math.min(...pods) / 1.25, Math.max(...pods) * 1.25], [left, right]);
  const y = logAxis([Math.min(...ys) / 1.8, Math.max(...ys) * 1.8], [bottom, top]);
  const yt = y.ticks(y.ticks(1).length > 5 ? 2 : 1);
  const parts = [
    ticksSVG(x, pods, { side: 'bottom', edge: bottom, across: [top, bottom], label: (v) => String(v), minor: (_, i) => pods.length > 6 && i % 2 === 1 }),
    ticksSVG(y, yt, { side: 'left', edge: left, across: [left, right], label: (v) => si(v, '') }),
  ];
  const k = result.pods_recommended;
  parts.push(`<g class="recommended" data-pods="${esc(k)}"><line x1="${x(k)}" y1="${top}" x2="${x(k)}" y2="${bottom}" stroke="currentColor" stroke-opacity="0.7" stroke-dasharray="3 3"/>` +
    `<text x="${x(k) + 6}" y="${top - 8}" fill="currentColor" font-weight="600">recommended: ${esc(si(k, 'pods'))}</text></g>`);
  for (const l of lines) {
    const at = y(result[l.key]);
    parts.push(`<g class="threshold" data-threshold="${esc(l.key)}"><line x1="${left}" y1="${at}" x2="${right}" y2="${at}" stroke="${l.color}" stroke-width="2" stroke-dasharray="${l.dash}"/>` +
      `<title>${esc(`${l.label}: ${si(result[l.key], 'tokens')} per chip`)}</title></g>`);
  }
  const d = rows.map((r, i) => `${i ? 'L' : 'M'}${x(r.pods)},${y(r.tokens_per_chip)}`).join(' ');
  parts.push(`<path class="curve" d="${d}" fill="none" stroke="currentColor" stroke-opacity="0.6" stroke-width="1.5"/>`);
  for (const r of rows) {
    const label = pointLabel(r);
    const chosen = r.recommended === 'yes';
    parts.push(`<circle class="pt${chosen ? ' chosen' : ''}" data-pods="${esc(r.pods)}" tabindex="0" role="img" aria-label="${esc(label)}" ` +
      `cx="${x(r.pods)}" cy="${y(r.tokens_per_chip)}" r="${chosen ? 8 : 6}" fill="${compute(r) ? GOOD : BAD}" stroke="currentColor" stroke-width="${chosen ? 2.5 : 1}">` +
      `<title>${esc(label)}</title></circle>`);
  }
  parts.push(frameSVG(area),
    `<text class="axis-title" x="${left + w / 2}" y="${HEIGHT}" dy="-0.25em" text-anchor="middle" fill="currentColor">pods over DCN</text>`,
    `<text class="axis-title" x="8" y="${top - 8}" fill="currentColor">tokens per chip</text>`);
  return `${open}${parts.join('')}</svg>`;
}

// The key under the plot, in the page's text so it wraps on a phone: each threshold with its
// value, then what the points' colours mean.
function keyHTML(result) {
  const items = LINES.filter((l) => result[l.key] > 0).map((l) => `<li><svg class="swatch" viewBox="0 0 28 10" aria-hidden="true">` +
    `<line x1="1" y1="5" x2="27" y2="5" stroke="${l.color}" stroke-width="3" stroke-dasharray="${l.dash}"/></svg>` +
    `${esc(l.label)}: ${esc(si(result[l.key], 'tokens'))} per chip</li>`);
  const dot = (color, text) => `<li><svg class="swatch dot" viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" cy="5" r="4" fill="${color}"/></svg>${esc(text)}</li>`;
  items.push(dot(GOOD, 'compute-bound'), dot(BAD, 'communication-bound'));
  return `<ul class="legend">${items.join('')}</ul>`;
}

function podsHTML(result) {
  return '<p class="note">Each point is one count of pods of this size, with the batch split evenly over them: green where every chip stays above the lower of the two in-pod thresholds and every pod above DCN\'s. The recommended count, ringed, is the most pods that stay green and split the sequences evenly.</p>' +
    `<div class="plot">${podsPlotSVG(result)}</div>${keyHTML(result)}`;
}

// The three questions show, one step at a time; the pods plot is a section a reader opens.
export function planExtrasHTML(result) {
  if (!result) return '<div class="plan-extras" data-plan-extras data-extras></div>';
  return '<div class="plan-extras" data-plan-extras data-extras>' +
    `<div data-plan-steps>${walkthroughHTML(result)}</div>` +
    foldHTML('pods-plot', 'Pods against the thresholds', `<div data-pods>${podsHTML(result)}</div>`) + '</div>';
}

// After each result: the steps redrawn (the host's data-step keeps the reader's place), and the
// pods plot if its section is open, else when it opens (fold.js).
export function updatePlanExtras(root, result) {
  const extras = root.querySelector('[data-plan-extras]');
  const steps = extras?.querySelector('[data-plan-steps]');
  if (!steps) {
    if (extras) extras.outerHTML = planExtrasHTML(result);
    return;
  }
  setHTML(steps, walkthroughHTML(result));
  const pods = extras.querySelector('[data-pods]');
  drawWhenOpen(pods?.closest('details'), () => setHTML(pods, podsHTML(result)));
}
