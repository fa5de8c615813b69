// <sb-training-plan>'s walkthrough: chapter 6's three questions, then the mesh they lead to, as
// four steps a reader takes one at a time (Back and Next; the host's data-step says which is
// shown, so a redraw keeps the reader's place). Before the script runs, and to anything that
// reads the page without styles, all four are there in order. Pure: runs in the builder and
// the browser; every number and verdict is the engine's training-plan result.
import { si } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';

const yes = (v) => v === 'yes';
const tokens = (v) => esc(si(v, 'tokens'));
const chips = (v) => esc(si(v, 'chips'));

function verdict(ok, good, bad) {
  return `<p class="verdict ${ok ? 'good' : 'bad'}" data-verdict="${ok ? 'yes' : 'no'}"><strong>${ok ? 'Yes' : 'No'}.</strong> ${ok ? good : bad}</p>`;
}

// [title, body] of each step.
function stepsOf(r) {
  return [
    ['Does pure FSDP suffice?',
      `<p>The batch holds ${esc(si(r.sequences, 'sequences'))} and gives each chip ${tokens(r.tokens_per_chip)}. ` +
      `FSDP needs ${tokens(r.critical_batch)} a chip: α = ${esc(si(r.alpha, 'FLOP/B'))} shared among the axes it spans.</p>` +
      verdict(yes(r.fsdp_ok), 'Every chip computes longer than its weights take to gather: FSDP alone is compute-bound.',
        'Each chip would wait on the weight AllGathers and gradient ReduceScatters: FSDP alone is communication-bound.')],
    ['Can each chip take whole sequences?',
      `<p>${esc(si(r.sequences, 'sequences'))} for ${chips(r.chips_used)}: ` +
      `${yes(r.whole_sequences) ? 'at least one each' : `fewer than one each, so each sequence is split ${esc(si(r.sequence_degree, ''))} ways`}.</p>` +
      verdict(yes(r.whole_sequences), 'Batch sharding alone covers the data axis.',
        `The data axis is ${chips(r.data_degree)} of whole sequences times ${chips(r.sequence_degree)} of sequence sharding.`)],
    ['Does mixed FSDP + TP stay compute-bound?',
      `<p>Mixing needs ${tokens(r.mixed_batch)} a chip, against the ${tokens(r.tokens_per_chip)} it has ` +
      `(${esc(si(r.mixed_ratio, ''))} times the need, in square root). The best FSDP degree is X_opt = ${chips(r.x_opt)}, ` +
      `leaving Y = ${esc(si(r.y_opt, ''))}-way TP; TP stays useful up to ${chips(r.max_tp)}.</p>` +
      verdict(yes(r.mixed_ok), `Powers of two near the optimum: ${chips(r.fsdp_degree)} of FSDP by ${chips(r.tp_degree)} of TP.`,
        'Even the best mix waits on its links: more batch, or fewer chips.')],
    ['The mesh',
      `<p class="mesh" data-mesh>${esc(r.mesh)}</p>` +
      verdict(yes(r.dcn_ok), `Pods over DCN: each pod's ${tokens(r.tokens_per_slice)} are above DCN's ${tokens(r.dcn_batch)}, so data parallelism across pods is cheap.`,
        `Across pods, each pod's ${tokens(r.tokens_per_slice)} fall short of DCN's ${tokens(r.dcn_batch)}.`)],
  ];
}

export function walkthroughHTML(result) {
  if (!result || result.mesh === undefined) return '';
  const steps = stepsOf(result);
  const items = steps.map(([title, body], i) => {
    const back = i > 0 ? `<button type="button" data-go="${i}">← ${esc(steps[i - 1][0])}</button>` : '';
    const next = i < steps.length - 1 ? `<button type="button" data-go="${i + 2}">${esc(steps[i + 1][0])} →</button>` : '';
    return `<li class="step" data-step="${i + 1}"><h5 tabindex="-1"><span class="count">Step ${i + 1} of ${steps.length}: </span>${esc(title)}</h5>` +
      `${body}<p class="step-nav">${back}${next}</p></li>`;
  });
  return '<h4 class="results">The three questions, step by step</h4>' +
    `<ol class="walkthrough" data-walkthrough>${items.join('')}</ol>`;
}

// The host's data-step, set on connect and by the steps' buttons; focus moves to the step
// shown, so a screen reader reads it.
export function watchWalkthrough(host) {
  if (!host.dataset.step) host.dataset.step = '1';
  host.shadowRoot.addEventListener('click', (event) => {
    const go = event.target.closest?.('button[data-go]');
    if (!go) return;
    host.dataset.step = go.dataset.go;
    host.shadowRoot.querySelector(`.walkthrough > li[data-step="${go.dataset.go}"] h5`)?.focus();
  });
}
