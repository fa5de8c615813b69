// Published runs beside the engine's prediction: each training run of
// reference/published-runs.json (a copy of ../shared/reference/; its format: that folder's README; serving
// runs: published-inference.mjs) mapped to the training calculator's inputs and
// computed by the engine at build time, with the training search's rank of the run's layout on
// its cluster. The figures measured are the reference file's; every other number is the engine's.
//
// How a run maps (the reference's words on the left, the training calculator's on the right):
//   model "id" -> model=id (a preset); model { config } -> the engine's reading of that config.json
//   hardware.chips -> shape = the GPU count (a TPU: hardware.shape, or the shape the search's best
//     layout of those degrees takes on one slice, since a torus needs one)
//   layout dp (fsdp 1) -> fsdp=dp zero=1: the runs shard their optimizer state over data
//     parallelism (Megatron's distributed optimizer, Llama 3's FSDP), which is our FSDP at ZeRO-1;
//     layout fsdp -> fsdp at zero=3, a dp beside it stays dp; tp, pp, ep as they are; cp > 1 has no
//     counterpart (the row says so); virtual_stages > 1 runs as plain 1F1B
//   seq -> T; global_batch_sequences (or per_chip_batch_sequences x chips) x seq -> B in tokens
//   microbatches (pipelines): the run's, or one sequence a microbatch (the most whole sequences
//     allow, so the smallest bubble), as Megatron-style trainers run a micro batch of 1
//   grad_accum: the fewest accumulation steps that fit in HBM (no step time changes with it; a
//     run that states no micro batch has fitted somehow)
//   remat: REMAT below; dtype -> dtype
// Anything the engine does not know (a chip, a preset, a format, a remat policy) becomes a row
// saying so; a run the file gets wrong (a missing field, a count that is not a whole number)
// fails the build naming the run and the field.
import fs from 'node:fs';
import path from 'node:path';
import { REFERENCE_DIR } from './reference.mjs';
import { parseArgs } from './args.mjs';

export const RUNS_FILE = 'published-runs.json';
// The search's list the rank is read from: as many as a reader could scan.
export const SEARCH_TOP = 100;

// The reference's remat words against the training calculator's policies. Megatron's selective
// recompute redoes attention's softmax core and keeps the matmul outputs; MaxText's
// save_dot_except_mlpwi keeps every matmul output but the MLP's input projections, nearest to
// keeping the big matmuls; full recompute keeps each layer's input.
export const REMAT = {
  none: 'none',
  selective: 'big-matmuls',
  save_dot_except_mlpwi: 'big-matmuls',
  minimal: 'big-matmuls',
  full: 'block',
};

const DEGREES = ['dp', 'fsdp', 'tp', 'pp', 'ep', 'cp', 'virtual_stages'];
const MEASURED = ['tokens_per_s_per_chip', 'mfu', 'tflops_per_chip', 'output_tokens_per_s'];
const TERA = 1e12; // the reference gives TFLOP/s; the engine FLOP/s

// Reads and checks the reference file; an Error naming the file (and the run and field) otherwise.
export function readPublishedRuns(dir = REFERENCE_DIR) {
  const file = path.join(dir, RUNS_FILE);
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`::published-runs compares the runs of ${file}, which could not be read ` +
      `(${error.code ?? error.message}): see reference/README.md`, { cause: error });
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON: ${error.message}`, { cause: error });
  }
  if (!Array.isArray(data)) throw new Error(`${file}: expected a list of runs`);
  const ids = new Set();
  return data.map((run, i) => {
    const checked = checkRun(run, i, file);
    if (ids.has(checked.id)) throw new Error(`${file}: run "${checked.id}": id is used twice`);
    ids.add(checked.id);
    return checked;
  });
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v) => Number.isInteger(v) && v > 0;
const isPositive = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;

function checkRun(run, i, file) {
  const where = isObject(run) && typeof run.id === 'string' && run.id ? `run "${run.id}"` : `run ${i + 1}`;
  const bad = (field, want) => {
    throw new Error(`${file}: ${where}: ${field} ${want}`);
  };
  if (!isObject(run)) bad('(the entry)', 'must be an object');
  if (typeof run.id !== 'string' || !run.id) bad('id', 'must be a non-empty string');
  if (run.kind !== 'training' && run.kind !== 'inference') bad('kind', `must be "training" or "inference", not ${JSON.stringify(run.kind)}`);
  if (typeof run.source !== 'string' || !run.source) bad('source', 'must name where the run was published');
  if (typeof run.model === 'string') {
    if (!run.model) bad('model', 'must be a preset name or { "config": {...} }');
  } else if (!isObject(run.model) || !isObject(run.model.config)) {
    bad('model', 'must be a preset name or { "config": {...} }');
  }
  if (!isObject(run.hardware)) bad('hardware', 'must be { "chip", "chips" }');
  if (typeof run.hardware.chip !== 'string' || !run.hardware.chip) bad('hardware.chip', 'must be a catalog id');
  if (!isCount(run.hardware.chips)) bad('hardware.chips', `must be a whole number of chips, not ${JSON.stringify(run.hardware.chips)}`);
  if (run.hardware.shape !== undefined && typeof run.hardware.shape !== 'string') bad('hardware.shape', 'must be a shape such as "8x8x8"');
  if (run.layout !== null) {
    if (!isObject(run.layout)) bad('layout', 'must be an object of degrees, or null');
    for (const [key, value] of Object.entries(run.layout)) {
      if (key === 'microbatches') {
        if (value !== null && !isCount(value)) bad('layout.microbatches', `must be a whole number or null, not ${JSON.stringify(value)}`);
      } else if (!DEGREES.includes(key)) {
        bad(`layout.${key}`, `is not a degree; use ${DEGREES.join(', ')}, microbatches`);
      } else if (!isCount(value)) {
        bad(`layout.${key}`, `must be a whole number, not ${JSON.stringify(value)}`);
      }
    }
    const product = ['dp', 'fsdp', 'tp', 'pp', 'ep', 'cp'].reduce((p, k) => p * (run.layout[k] ?? 1), 1);
    // A serving run's layout is one replica's; the chips may hold several.
    const fits = run.kind === 'training' ? product === run.hardware.chips : run.hardware.chips % product === 0;
    if (!fits) {
      const want = run.kind === 'training' ? `not hardware.chips ${run.hardware.chips}` : `which does not divide hardware.chips ${run.hardware.chips}`;
      bad('layout', `multiplies to ${product} chips (dp x fsdp x tp x pp x ep x cp), ${want}`);
    }
  }
  if (typeof run.dtype !== 'string' || !run.dtype) bad('dtype', 'must be a number format such as "bf16"');
  if (run.kind === 'training') {
    if (!isCount(run.seq)) bad('seq', `must be a whole number of tokens, not ${JSON.stringify(run.seq)}`);
    const global = run.global_batch_sequences;
    const perChip = run.per_chip_batch_sequences;
    if ((global === undefined) === (perChip === undefined)) bad('global_batch_sequences', 'or per_chip_batch_sequences: give exactly one');
    if (global !== undefined && !isCount(global)) bad('global_batch_sequences', `must be a whole number, not ${JSON.stringify(global)}`);
    if (perChip !== undefined && !isCount(perChip)) bad('per_chip_batch_sequences', `must be a whole number, not ${JSON.stringify(perChip)}`);
    if (typeof run.remat !== 'string' || !run.remat) bad('remat', 'must name the recompute policy ("none", "full", "selective", ...)');
  } else {
    for (const key of ['input_len', 'output_len']) if (!isCount(run[key])) bad(key, `must be a whole number of tokens, not ${JSON.stringify(run[key])}`);
    if (run.batch !== null && !isCount(run.batch)) bad('batch', `must be a whole number or null, not ${JSON.stringify(run.batch)}`);
    if (run.kv_dtype !== undefined && (typeof run.kv_dtype !== 'string' || !run.kv_dtype)) bad('kv_dtype', 'must be a number format such as "bf16"');
  }
  if (!isObject(run.measured) || !MEASURED.some((k) => run.measured[k] !== undefined)) {
    bad('measured', `must give at least one of ${MEASURED.join(', ')}`);
  }
  for (const [key, value] of Object.entries(run.measured)) {
    if (!MEASURED.includes(key)) bad(`measured.${key}`, `is not a figure the table compares; use ${MEASURED.join(', ')}`);
    if (!isPositive(value) || (key === 'mfu' && value > 1)) bad(`measured.${key}`, `must be a positive number${key === 'mfu' ? ' at most 1' : ''}, not ${JSON.stringify(value)}`);
  }
  return run;
}

// A GPU has an NVLink domain in the catalog; a chip the catalog lacks is judged by its id.
export function hardwareOf(engine, chipId) {
  const chip = engine.chips().find((c) => c.id === chipId);
  if (!chip) return /^tpu/.test(chipId) ? 'tpu' : 'gpu';
  return fieldOf(chip, 'nvlink_domain_gpus') ? 'gpu' : 'tpu';
}

export const fieldOf = (chip, name) => chip.fields.find((f) => f.name === name)?.value ?? null;

// The degrees of a layout as the training calculator and search write it ("fsdp 64 (N') x tp 8
// (G) x pp 16 (N) on 8192 split N16"); null for a layout over DCN slices.
export function layoutDegrees(text) {
  const [inSlice, rest = ''] = String(text).split(' on ');
  if (/\(DCN\)/.test(rest)) return null;
  const degrees = { dp: 1, fsdp: 1, tp: 1, pp: 1, ep: 1 };
  for (const [, name, n] of inSlice.matchAll(/\b(dp|fsdp|tp|pp|ep) (\d+)/g)) degrees[name] = Number(n);
  return degrees;
}

const sameDegrees = (a, b) => a && b && Object.keys(a).every((k) => a[k] === b[k]);

// What the engine cannot take, as the row's words; null when it can. `calculator` is the one the
// run maps to; its dtype inputs are the formats it takes.
export function unknownsOf(engine, run, calculator) {
  if (!engine.chips().some((c) => c.id === run.hardware.chip)) return `the engine's chip catalog has no "${run.hardware.chip}"`;
  if (typeof run.model === 'string' && !engine.models().some((m) => m.id === run.model)) return `the engine has no model preset "${run.model}"`;
  const dtypes = engine.schema(calculator).inputs.find((i) => i.name === 'dtype').choices;
  for (const dtype of [run.dtype, run.kv_dtype].filter((d) => d !== undefined)) {
    if (!dtypes.includes(dtype)) return `the ${calculator} calculator has no number format "${dtype}" (it takes ${dtypes.join(', ')})`;
  }
  if (run.kind !== 'training') return null;
  if (!Object.hasOwn(REMAT, run.remat)) return `remat "${run.remat}" has no counterpart among the training calculator's policies (mapped: ${Object.keys(REMAT).join(', ')})`;
  if ((run.layout?.cp ?? 1) > 1) return `context parallelism (cp ${run.layout.cp}) has no counterpart in the training calculator`;
  return null;
}

export function modelInputs(engine, run, file) {
  if (typeof run.model === 'string') return { model: run.model };
  try {
    return engine.modelFromConfig(JSON.stringify(run.model.config)).inputs;
  } catch (error) {
    throw new Error(`${file}: run "${run.id}": model.config: ${error.message}`, { cause: error });
  }
}

export const calculate = (engine, name, inputs) => engine.calculate(name, inputs, { steps: false });

// One run's row: { run, hardware, unsupported } or the prediction beside the measurement.
export function compareRun(engine, run, { file = RUNS_FILE } = {}) {
  const hardware = hardwareOf(engine, run.hardware.chip);
  const unsupported = unknownsOf(engine, run, 'training');
  if (unsupported) return { run, hardware, unsupported };
  const chip = engine.chips().find((c) => c.id === run.hardware.chip);
  const chips = run.hardware.chips;
  const sequences = run.global_batch_sequences ?? run.per_chip_batch_sequences * chips;
  const model = modelInputs(engine, run, file);
  const common = { ...model, chip: chip.id, B: sequences * run.seq, T: run.seq, dtype: run.dtype };
  const mapping = [];
  const layout = run.layout ?? {};
  const degrees = { dp: 1, fsdp: 1, tp: 1, pp: 1, ep: 1 };
  const inputs = { ...common, remat: REMAT[run.remat] };
  if (REMAT[run.remat] !== run.remat) mapping.push(`remat "${run.remat}" runs as ${REMAT[run.remat]}`);
  if ((layout.fsdp ?? 1) > 1) {
    Object.assign(degrees, { fsdp: layout.fsdp, dp: layout.dp ?? 1 });
    inputs.zero = '3';
  } else if ((layout.dp ?? 1) > 1) {
    degrees.fsdp = layout.dp;
    inputs.zero = '1';
    mapping.push(`dp ${layout.dp} with its optimizer state sharded maps to fsdp ${layout.dp} at ZeRO-1`);
  }
  Object.assign(degrees, { tp: layout.tp ?? 1, pp: layout.pp ?? 1, ep: layout.ep ?? 1 });
  for (const [k, v] of Object.entries(degrees)) if (v > 1) inputs[k] = v;
  if ((layout.virtual_stages ?? 1) > 1) mapping.push(`${layout.virtual_stages} virtual stages a GPU run as plain 1F1B`);

  // The search on the run's cluster: the rank of its degrees, its best, and a TPU's shape.
  const multiNode = chips > (fieldOf(chip, hardware === 'gpu' ? 'nvlink_domain_gpus' : 'chips_per_host') ?? chips);
  let search = null;
  if (multiNode || (hardware === 'tpu' && !run.hardware.shape) || !run.layout) {
    search = calculate(engine, 'training-search', { ...common, chips, top: SEARCH_TOP });
  }
  const single = (entry) => layoutDegrees(entry.layout) !== null;
  const matchAt = search && run.layout ? search.top.findIndex((e) => sameDegrees(layoutDegrees(e.layout), degrees)) : -1;
  const oneSlice = search?.top.find(single);
  if (search && !oneSlice) return { run, hardware, unsupported: `the search's top ${search.top.length} holds no layout on one slice to take a shape from` };
  if (!run.layout) {
    // No layout published: the search's best on one slice stands in for it.
    const best = oneSlice;
    Object.assign(inputs, parseArgs(best.inputs).named);
    Object.assign(degrees, layoutDegrees(best.layout));
    mapping.push(`no layout published: the search's best on one slice, ${best.layout}`);
  } else if (hardware === 'gpu') {
    inputs.shape = String(chips);
  } else if (run.hardware.shape) {
    inputs.shape = run.hardware.shape;
  } else {
    const like = matchAt >= 0 && single(search.top[matchAt]) ? search.top[matchAt] : oneSlice;
    inputs.shape = parseArgs(like.inputs).named.shape;
    mapping.push(`no slice shape published: ${inputs.shape}, the shape of the search's ${like === search.top[matchAt] ? 'best with these degrees' : 'best layout on one slice'}`);
  }

  const shards = degrees.dp * degrees.fsdp * degrees.ep;
  const perShard = sequences / shards;
  if (degrees.pp > 1 && inputs.microbatches === undefined) {
    inputs.microbatches = layout.microbatches ?? perShard;
    if (!layout.microbatches) mapping.push(`${perShard} microbatches of one sequence`);
  }
  let result;
  try {
    result = fewestAccumulation(engine, inputs, perShard / (inputs.microbatches ?? 1));
  } catch (error) {
    return { run, hardware, unsupported: `the training calculator refuses the mapped inputs: ${error.message}` };
  }
  if (result.grad_accum > 1) mapping.push(`${result.grad_accum} accumulation steps, the fewest that fit in HBM`);
  const predicted = {
    step_time: result.step_time,
    tokens_per_s_per_chip: inputs.B / result.step_time / chips,
    mfu: result.mfu,
    tflops_per_chip: result.mfu * result.peak_flops,
  };
  const rank = multiNode && run.layout ? {
    at: matchAt >= 0 ? matchAt + 1 : null,
    entry: matchAt >= 0 ? search.top[matchAt] : null,
    best: search.best, bestStepTime: search.step_time, of: search.top.length,
  } : null;
  return {
    run, hardware, chip, inputs: result.inputs, mapping, predicted, rank,
    fits: result.fits === 'yes', memory: result.mem_total, hbm: result.hbm_capacity,
    peakFlops: result.peak_flops, layout: result.layout,
  };
}

// The training calculator with the fewest accumulation steps (a divisor of what each shard's
// microbatch holds) that fit in HBM; the least if none does.
function fewestAccumulation(engine, inputs, sequencesPerMicro) {
  let first = null;
  for (let g = 1; g <= sequencesPerMicro; g++) {
    if (sequencesPerMicro % g) continue;
    const tried = g > 1 ? { ...inputs, grad_accum: g } : inputs;
    const result = calculate(engine, 'training', tried);
    const row = { ...result, inputs: tried, grad_accum: g };
    first ??= row;
    if (result.fits === 'yes') return row;
  }
  return first ?? { ...calculate(engine, 'training', inputs), inputs, grad_accum: 1 };
}

// The figures compared, measured / predicted, in the reference's units as the engine's.
export function ratios(row) {
  const m = row.run.measured;
  const p = row.predicted;
  const out = {};
  if (m.tokens_per_s_per_chip && p.tokens_per_s_per_chip) out.tokens_per_s_per_chip = m.tokens_per_s_per_chip / p.tokens_per_s_per_chip;
  if (m.tflops_per_chip && p.tflops_per_chip) out.tflops_per_chip = (m.tflops_per_chip * TERA) / p.tflops_per_chip;
  if (m.mfu && p.mfu) out.mfu = m.mfu / p.mfu;
  if (m.output_tokens_per_s) out.output_tokens_per_s = m.output_tokens_per_s / p.output_tokens_per_s;
  return out;
}

// The reference file's figures in the engine's units.
export const measuredFlops = (run) => (run.measured.tflops_per_chip ? run.measured.tflops_per_chip * TERA : null);
