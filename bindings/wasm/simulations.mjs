// The simulations' JS face (api.mjs spreads it into the engine's API): simulate(name, request)
// reaches any simulation in the module's registry (scalebook/core/simulation.h), and the
// per-simulation names of old (simulateSystolic, ...) are thin calls of it. The engine's result
// tree crosses as flat typed arrays; SHAPES turns each into the objects pages have always read.
import * as check from './checks.mjs';
import { fail, limits, need, unwrap } from './checks.mjs';

// WorkKind's order in the engine (scalebook/training/pipeline.h).
const PIPELINE_KINDS = ['F', 'B', 'I', 'W'];

// A list field's numbers (or rows of numbers) flattened into one Float64Array, their count
// capped before any is read, so a million-element list costs nothing.
function listValues(values, field) {
  const expected = `${field} must be a list of whole numbers, or a list of rows of them`;
  if (!Array.isArray(values)) fail(field, expected);
  const max = limits.simValues;
  if (values.length > max) fail(field, `${field} must hold at most ${max} numbers, got ${values.length}`);
  const flat = [];
  for (const [i, item] of values.entries()) {
    const row = Array.isArray(item) ? item : [item];
    if (flat.length + row.length > max) fail(field, `${field} must hold at most ${max} numbers, got more`);
    for (const [j, v] of row.entries()) {
      if (typeof v !== 'number') fail(field, `${expected}; item ${Array.isArray(item) ? `${i}, ${j}` : i} is ${check.kind(v)}`);
      flat.push(v);
    }
  }
  return Float64Array.from(flat);
}

function collectiveShape(sim) {
  const rows = (flat) => Array.from({ length: sim.devices }, (_, d) =>
    Array.from(flat.subarray(d * sim.chunks, (d + 1) * sim.chunks)));
  const out = {
    op: sim.op,
    shape: sim.shape,
    devices: sim.devices,
    chunks: sim.chunks,
    steps: sim.steps.map(({ start, duration, phase, axis, moves }) => ({
      start,
      duration,
      phase,
      axis,
      moves: Array.from(moves.from, (from, i) => ({
        from,
        to: moves.to[i],
        chunk: moves.chunk[i],
        bytes: moves.bytes[i],
      })),
    })),
    states: sim.states.map(rows),
  };
  if (sim.sums) out.sums = sim.sums.map(rows);
  out.time = sim.time;
  out.closed_form = sim.closed_form;
  return out;
}

function pipelineShape(sim) {
  const { items } = sim;
  return {
    ...sim,
    items: Array.from(items.stage, (stage, i) => ({
      stage,
      microbatch: items.microbatch[i],
      chunk: items.chunk[i],
      kind: PIPELINE_KINDS[items.kind[i]],
      start: items.start[i],
      end: items.end[i],
    })),
  };
}

// Per simulation: the API name of old, its list field (given as numbers) and its result's shape.
const SHAPES = {
  systolic: { fn: 'simulateSystolic', shape: (sim) => ({ ...sim, c: sim.c.map((row) => Array.from(row)) }) },
  collective: { fn: 'simulateCollective', list: 'values', shape: collectiveShape },
  pipeline: { fn: 'simulatePipeline', shape: pipelineShape },
};

export function simulationApi(module) {
  const names = () => (typeof module.simulations === 'function' ? module.simulations() : []);
  let known = null;
  // `fn`: what a missing simulation's error names (the caller's function).
  function simulate(name, request = {}, fn = `simulate('${name}')`) {
    need(module, 'simulate');
    const id = check.text(name, 'simulation');
    const spec = Object.hasOwn(SHAPES, id) ? SHAPES[id] : null;
    known ??= names();
    if (spec && !known.includes(id)) need(module, fn);
    const clean = {};
    for (const [key, v] of check.fields(request, '', 'request')) {
      if (v != null) clean[key] = key === spec?.list ? listValues(v, key) : check.scalar(v, key);
    }
    const sim = unwrap(module.simulate(id, clean)).simulation;
    return spec ? spec.shape(sim) : sim;
  }
  return {
    // The names of the simulations this module holds, sorted.
    simulations: () => [...(known ??= names())],
    // Any simulation by name: request and result as the named wrappers below describe them; an
    // unknown name is a CalculatorError (field 'simulation') listing the module's simulations.
    simulate: (name, request) => simulate(name, request),
    // The cycle-stepped systolic array. request: { M, N, K, rows, cols, dataflow, convention }
    // (the systolic calculator's inputs, checked by its schema) plus first_frame and max_frames
    // (the cycles to record, default none) and max_pe_steps (the step budget). Returns
    // { cycles, macs, pe_steps, c: rows of C, frames: [{ cycle, macs, pes: { weight, activation,
    // psum, shadow: Float64Array, flags: Uint8Array } }] (row-major PEs), frames_truncated }.
    simulateSystolic: (request = {}) => simulate('systolic', request, 'simulateSystolic'),
    // The four collectives step by step (engine/include/scalebook/collective_sim.h).
    // request: { op: 'all-gather' | 'reduce-scatter' | 'all-reduce' | 'all-to-all',
    //   shape: '8' (a ring or a line) or '4x4' (a 2D torus, run along X then along Y),
    //   bytes (V, the whole array), wraparound: 'yes' | 'no', bidirectional: 'yes' | 'no',
    //   bandwidth (B/s per link, one way), latency (s, the least a step takes),
    //   values? (whole numbers: one per device, or devices x devices rows: device d's
    //   contribution to chunk c, or for an AllToAll the value of block d -> c) }.
    // Absent fields: all-gather on '8', yes, yes, the collective calculator's default bytes,
    // the tpu-v5e link. Returns { op, shape: [n...], devices, chunks (devices, or devices^2
    // blocks src * devices + dst for an AllToAll), steps: [{ start, duration,
    // phase: 'all-gather' | 'reduce-scatter' | 'all-to-all', axis: 0 | 1,
    // moves: [{ from, to, chunk, bytes }] }], states: [devices x chunks arrays; states[0]
    // before the first step, states[k + 1] after step k; the share of chunk c held on device
    // d], sums (only with values: per state, device d's partial sum of chunk c), time (the
    // steps' durations summed), closed_form (the collective calculator's time; on a 2D torus
    // the phases make time the larger) }.
    simulateCollective: (request = {}) => simulate('collective', request, 'simulateCollective'),
    // A pipeline-parallel training step played schedule by schedule
    // (engine/include/scalebook/training/pipeline.h). request: the pipeline calculator's inputs
    // { stages, microbatches, schedule: 'naive' | 'gpipe' | '1f1b' | 'interleaved' |
    // 'zero-bubble', virtual_stages, forward_cost, backward_input_cost, backward_weight_cost,
    // transfer_time } (checked by its schema, its defaults) plus first_frame and max_frames
    // (the frames to record, default none) and max_items (the work budget, 1 to 65536, its
    // default; a page lowers it to what it draws). Returns { schedule, items: [{ stage, microbatch,
    // chunk, kind: 'F' | 'B' | 'I' | 'W', start, end }] (stage by stage, each in the order it
    // runs them; B is the whole backward, I and W its input- and weight-gradient halves),
    // stages: [{ busy, idle, peak_activations }], step_time, ideal_time, bubble_fraction,
    // peak_activations, closed_form_bubble (null where none is stated), closed_form_peak,
    // frame_count (intervals between events; 0 unless frames are asked for), frames: [{ time,
    // duration, running: Float64Array (per stage, an index into items or -1 when idle),
    // activations: Float64Array (per stage, microbatch activations held) }],
    // frames_truncated }.
    simulatePipeline: (request = {}) => simulate('pipeline', request, 'simulatePipeline'),
  };
}

