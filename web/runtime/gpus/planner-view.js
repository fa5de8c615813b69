// <sb-gpu-planner>'s picture after the form: for each parallelism of the layout, one GPU's
// math time against its communication time a step (the engine's `strategies` table, each in
// the book's frame for it), as two bars on one scale, and whether the math hides the comms.
// Pure: runs in the builder and the browser; every number comes from the gpu-planner result.
import { si } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead } from '../core/render.js';

export const PLANNER_LEAD = ['tokens_per_gpu', 'dp_critical', 'tp_max', 'memory_per_gpu', 'fits'];
registerLead('gpu-planner', PLANNER_LEAD);

const SPAN = 600;
const BAR = 14;
const time = (t) => (Number.isFinite(t) ? si(t, 's') : 'none');

// The verdict's class: the engine says yes, no, or why the question does not arise.
function verdict(text) {
  const word = String(text ?? '').split(/[\s(]/)[0];
  return word === 'yes' || word === 'no' ? word : 'none';
}

function barsSVG(row, scale) {
  const w = (t) => (Number.isFinite(t) && scale > 0 ? Math.max(0, (SPAN * t) / scale) : 0).toFixed(1);
  return `<svg class="bars" viewBox="0 0 ${SPAN} ${2 * BAR + 4}" preserveAspectRatio="none" aria-hidden="true">` +
    `<rect class="math" x="0" y="0" width="${w(row.t_math)}" height="${BAR}"/>` +
    `<rect class="comms" x="0" y="${BAR + 4}" width="${w(row.t_comms)}" height="${BAR}"/>` +
    `<rect class="track" x="0" y="0" width="${SPAN}" height="${2 * BAR + 4}" vector-effect="non-scaling-stroke"/></svg>`;
}

function rowHTML(row, scale) {
  const unused = !(row.degree > 1);
  const kind = unused ? 'none' : verdict(row.compute_bound);
  const answer = unused ? 'not used' : kind === 'none' ? String(row.compute_bound ?? '') : kind === 'yes' ? 'compute-bound' : 'comms-bound';
  const span = Number.isFinite(row.nodes) && row.nodes > 1 ? `, over ${row.nodes} nodes` : '';
  return `<li class="strategy" data-strategy="${esc(row.strategy)}">` +
    `<span class="caption"><span><strong>${esc(row.strategy)}</strong> ${esc(String(row.degree))}-way${esc(span)}: ` +
    `math ${esc(time(row.t_math))}, comms ${esc(time(row.t_comms))}</span>` +
    `<span class="verdict ${kind}">${esc(answer)}</span></span>${barsSVG(row, scale)}</li>`;
}

function keyHTML() {
  const swatch = (cls) => `<svg class="swatch" viewBox="0 0 14 14" aria-hidden="true"><rect class="${cls}" width="14" height="14"/></svg>`;
  return `<ul class="legend"><li>${swatch('math')}math a step</li><li>${swatch('comms')}communication a step</li></ul>`;
}

export function plannerExtrasHTML(result) {
  const rows = Array.isArray(result?.strategies) ? result.strategies : [];
  if (!rows.length) return '<div class="gpu-extras" data-extras></div>';
  const scale = Math.max(...rows.flatMap((r) => [r.t_math, r.t_comms]).filter(Number.isFinite), 0);
  return '<div class="gpu-extras" data-extras>' +
    '<h4 class="results">Math against communication, one GPU a step</h4>' +
    `<ul class="strategies">${rows.map((r) => rowHTML(r, scale)).join('')}</ul>${keyHTML()}` +
    '<p class="note">Each strategy in the frame the chapter uses for it: the backward pass for data parallelism, ' +
    'the forward pass for the others. Bars share one scale.</p></div>';
}
