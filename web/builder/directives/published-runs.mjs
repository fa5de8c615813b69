// ::published-runs [kind=training|inference] [hardware=gpu|tpu] [ids=ID,ID,...]
// The published runs of reference/published-runs.json that match, each mapped to the
// training calculator or, a serving run, the inference calculator (../published-runs.mjs and
// ../published-inference.mjs say how) beside what its authors measured, as one
// static table in <sb-published-runs>: no engine at read time, every predicted number computed
// here at build time, every measured one read from the reference file.
import { escapeHtml } from '../errors.mjs';
import { safeHref } from '../../runtime/core/safe-url.js';
import { compareRun, hardwareOf, measuredFlops, ratios, readPublishedRuns } from '../published-runs.mjs';
import { compareInference } from '../published-inference.mjs';

const SETTINGS = ['kind', 'hardware', 'ids'];
const KINDS = ['training', 'inference'];
const HARDWARE = ['gpu', 'tpu'];
// Below this share of the prediction a measurement is called off the ceiling; above its
// inverse, over it. Closer than that is agreement for a model without kernels' overheads.
const AGREE = 0.9;
// A rank past this many is worth a word on why the search prefers others.
const NEAR_TOP = 10;

// The runs the settings pick, in the file's order; fails naming a bad setting.
export function pickRuns(engine, runs, named, fail) {
  for (const key of Object.keys(named)) if (!SETTINGS.includes(key)) fail(`no setting "${key}"; use ${SETTINGS.join(', ')}`);
  if (named.kind !== undefined && !KINDS.includes(named.kind)) fail(`kind must be ${KINDS.join(' or ')}, not "${named.kind}"`);
  if (named.hardware !== undefined && !HARDWARE.includes(named.hardware)) fail(`hardware must be ${HARDWARE.join(' or ')}, not "${named.hardware}"`);
  const ids = named.ids === undefined ? null : named.ids.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of ids ?? []) if (!runs.some((r) => r.id === id)) fail(`ids: no run "${id}" in the reference file`);
  const picked = runs.filter((r) => (!ids || ids.includes(r.id)) && (!named.kind || r.kind === named.kind) &&
    (!named.hardware || hardwareOf(engine, r.hardware.chip) === named.hardware));
  if (!picked.length) fail('no published run matches these settings');
  return picked;
}

function directive(ctx, args, fail) {
  if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ::published-runs key=value ...`);
  let runs;
  try {
    runs = readPublishedRuns(ctx.referenceDir);
  } catch (error) {
    fail(error.message);
  }
  const picked = pickRuns(ctx.engine, runs, args.named, fail);
  let rows;
  try {
    rows = picked.map((run) => (run.kind === 'inference' ? compareInference : compareRun)(ctx.engine, run));
  } catch (error) {
    fail(error.message);
  }
  const attributes = SETTINGS.filter((k) => args.named[k] !== undefined).map((k) => ` ${k}="${escapeHtml(args.named[k])}"`).join('');
  return `<sb-published-runs${attributes}>${publishedRunsTable(ctx.engine, rows, args.named)}</sb-published-runs>`;
}

// A source's text as a link where it names an arXiv paper or a GitHub repository and file.
export function sourceLink(source) {
  const arxiv = /arXiv (\d{4}\.\d{4,5})/.exec(source);
  if (arxiv) return `https://arxiv.org/abs/${arxiv[1]}`;
  const repo = /^([\w.-]+\/[\w.-]+): ([\w./-]+)/.exec(source);
  return repo ? `https://github.com/${repo[1]}/blob/HEAD/${repo[2]}` : '';
}

const ordinal = (n) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : { 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th';
  return `${n}${suffix}`;
};

export function publishedRunsTable(engine, rows, named = {}) {
  const f = {
    int: (x) => engine.format(x, '', 'int'),
    si: (x, unit) => engine.format(x, unit, 'si'),
    pct: (x) => `${engine.format(x * 100, '', 'num')}%`,
  };
  const hw = { gpu: ' on GPUs', tpu: ' on TPUs' }[named.hardware] ?? '';
  const kind = { training: 'training', inference: 'serving' }[named.kind] ?? 'training and serving';
  const caption = `Published ${kind} runs${hw}: what their authors measured ` +
    'beside what the engine predicts for the same model, chips, layout and batch';
  const head = '<thead><tr><th scope="col">Run</th><th scope="col">Figure</th><th scope="col">Predicted</th>' +
    '<th scope="col">Measured</th><th scope="col">Measured / predicted</th></tr></thead>';
  const body = rows.map((row) => {
    if (row.unsupported) return unsupportedBody(engine, row);
    return row.kind === 'inference' ? servingBody(engine, row, f) : runBody(engine, row, f);
  }).join('');
  const training = rows.some((row) => !row.unsupported && row.kind !== 'inference');
  return `<table class="sb-published-runs"><caption>${escapeHtml(caption)}</caption>${head}${body}</table>` +
    (!training ? '' : '<p class="sb-published-runs-note">MFU and TFLOP/s count the model\'s own FLOPs (forward and backward, ' +
    'no recompute) against the chip\'s dense peak in the run\'s number format; a source may count otherwise, ' +
    'so tokens per second per chip is the figure to trust first.</p>');
}

function runTitle(engine, run) {
  const chip = engine.chips().find((c) => c.id === run.hardware.chip);
  const model = typeof run.model === 'string' ? engine.models().find((m) => m.id === run.model)?.name ?? run.model : 'a model from its config.json';
  const href = safeHref(sourceLink(run.source));
  const source = href ? `<a href="${escapeHtml(href)}">${escapeHtml(run.source)}</a>` : escapeHtml(run.source);
  return `<strong>${escapeHtml(model)}</strong> on ${engine.format(run.hardware.chips, '', 'int')} × ` +
    `${escapeHtml(chip?.name ?? run.hardware.chip)}, ${escapeHtml(run.dtype)}<br><cite>${source}</cite>` +
    (run.note ? `<br><small>${escapeHtml(run.note)}</small>` : '');
}

function unsupportedBody(engine, row) {
  return `<tbody><tr><th scope="row">${runTitle(engine, row.run)}</th><td colspan="4">Not compared: ` +
    `${escapeHtml(row.unsupported)}.</td></tr></tbody>`;
}

function runBody(engine, row, f) {
  const m = row.run.measured;
  const p = row.predicted;
  const r = ratios(row);
  const figures = [
    figure('Step time', f.si(p.step_time, 's'), null, null, f),
    figure('Tokens/s per chip', f.int(p.tokens_per_s_per_chip), m.tokens_per_s_per_chip && f.int(m.tokens_per_s_per_chip), r.tokens_per_s_per_chip, f),
    figure('TFLOP/s per chip', f.si(p.tflops_per_chip, 'FLOP/s'), m.tflops_per_chip && f.si(measuredFlops(row.run), 'FLOP/s'), r.tflops_per_chip, f),
    figure('MFU', f.pct(p.mfu), m.mfu && f.pct(m.mfu), r.mfu, f),
  ];
  if (row.rank) {
    const { at, entry, of } = row.rank;
    figures.push(wide(`Its layout in the search's top ${of}`, at
      ? `${ordinal(at)}: ${escapeHtml(entry.layout)}, ${escapeHtml(entry.choices)}, ${f.si(entry.step_time, 's')}`
      : `not in the top ${of}`));
    figures.push(wide('The search\'s best', `${escapeHtml(row.rank.best)}, ${f.si(row.rank.bestStepTime, 's')}`));
  }
  const command = `scalebook calc training ${cli(row.inputs)}`;
  return rowGroup(engine, row, figures, [command], notesOf(engine, row, r, f));
}

const dash = '<td>—</td>';
const wide = (label, html) => `<th scope="row">${label}</th><td colspan="3">${html}</td>`;
const cli = (inputs) => Object.entries(inputs).map(([k, v]) => `${k}=${v}`).join(' ');

// One figure's cells: its name, the prediction, the measurement and measured / predicted.
function figure(label, predicted, measured, ratio, f) {
  return `<th scope="row">${label}</th><td>${predicted}</td>${measured ? `<td>${measured}</td>` : dash}` +
    `${ratio ? `<td>${f.pct(ratio)}</td>` : dash}`;
}

// A run's row group: its title spanning the figures, then how it maps and where they part.
function rowGroup(engine, row, figures, commands, notes) {
  const mapped = [...row.mapping, `the calculator's inputs: ${commands.map(() => '%').join(' and ')}`]
    .map((s) => escapeHtml(s)).join('; ');
  let i = 0;
  const withCode = mapped.replace(/%/g, () => `<code>${escapeHtml(commands[i++])}</code>`);
  const all = [...figures, wide('How it maps', withCode)];
  if (notes.length) all.push(wide('Where they part', notes.map(escapeHtml).join(' ')));
  return `<tbody><tr><th scope="rowgroup" rowspan="${all.length}">${runTitle(engine, row.run)}<br><small>` +
    `${escapeHtml(row.layout)}</small></th>${all[0]}</tr>${all.slice(1).map((c) => `<tr>${c}</tr>`).join('')}</tbody>`;
}

function servingBody(engine, row, f) {
  const m = row.run.measured;
  const p = row.predicted;
  const r = ratios(row);
  const chips = row.run.hardware.chips;
  const figures = [
    figure(`Prefill of ${f.int(row.batch)} prompts`, f.si(p.t_prefill, 's'), null, null, f),
    figure('Decode step', f.si(p.t_decode, 's'), null, null, f),
    figure('Output tokens/s', f.int(p.output_tokens_per_s), m.output_tokens_per_s && f.int(m.output_tokens_per_s), r.output_tokens_per_s, f),
    figure('Output tokens/s per chip', f.int(p.output_tokens_per_s_per_chip),
      m.output_tokens_per_s && f.int(m.output_tokens_per_s / chips), r.output_tokens_per_s, f),
  ];
  const { batch, ...rest } = row.inputs;
  const base = `scalebook calc inference ${cli(rest)} batch=${batch}`;
  const commands = [`${base} phase=prefill T=${row.prompt}`, `${base} phase=decode S=${row.prompt + Math.round(row.output / 2)}`];
  return rowGroup(engine, row, figures, commands, notesOf(engine, row, r, f));
}

// Generated words where the prediction and the measurement part ways; none where they agree.
export function notesOf(engine, row, r, f) {
  const notes = [];
  const [label, ratio] = [['output tokens per second', r.output_tokens_per_s], ['tokens per second per chip', r.tokens_per_s_per_chip],
    ['TFLOP/s per chip', r.tflops_per_chip], ['MFU', r.mfu]].find(([, x]) => x !== undefined) ?? [];
  if (ratio !== undefined && ratio < AGREE) notes.push(`The model is a roofline ceiling: measured ${label} is ${f.pct(ratio)} of it.`);
  else if (ratio !== undefined && ratio > 1 / AGREE) notes.push(`Measured ${label} is ${f.pct(ratio)} of the prediction, above the ceiling: the source counts differently or the run does something the model does not.`);
  if (!row.fits) {
    notes.push(`As mapped, the model needs ${f.si(row.memory, 'B')} a chip against ${f.si(row.hbm, 'B')} of HBM: ` +
      'the run saves memory in a way the mapping does not capture.');
  }
  const links = row.hardware === 'gpu' ? 'NVLink and the NICs' : 'the ICI links';
  if (row.rank && (row.rank.at === null || row.rank.at > NEAR_TOP)) {
    const where = row.rank.at ? `ranks the published degrees ${ordinal(row.rank.at)}` : `leaves the published degrees out of its top ${row.rank.of}`;
    notes.push(`The search ${where}: the model runs ${links} at their datasheet bandwidth with no per-message ` +
      `latency, so layouts that move more bytes over more chips, like its best (${row.rank.best}, ` +
      `${f.si(row.rank.bestStepTime, 's')}), look cheaper than they would run.`);
  }
  return notes;
}

// This directive's element (directives.mjs gathers every domain's).
export const handlers = { 'published-runs': directive };
