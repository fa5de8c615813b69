// The engine's JS API: loadEngine() resolves (once) to { list, schema, calculate, sweep, solve,
// chips, models, ..., simulateSystolic, simulateCollective, shardingLayout }.
// Results are plain objects; bad input throws a CalculatorError with code, field, message and,
// for an error inside a text input (a sharding spec), the offending character's position.
import createScalebookEngine from './generated/scalebook-engine.mjs';

export class CalculatorError extends Error {
  constructor({ code, field, message, position }) {
    super(message);
    this.name = 'CalculatorError';
    this.code = code;
    this.field = field;
    if (position !== undefined) this.position = position;
  }
}

function unwrap(result) {
  if (!result.ok) throw new CalculatorError(result.error);
  return result;
}

// list, schema, calculate, chips, models and solve answer with JSON text from the engine's
// one marshaller (scalebook/core/json.h): { error } or the payload.
function parsed(text) {
  const result = JSON.parse(text);
  if (result.error) throw new CalculatorError(result.error);
  return result;
}

function isPlainObject(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

// A sweep's values as one typed array, so they cross into WASM in one copy; anything but
// numbers (a string, a BigInt, a nested list) is refused here rather than coerced.
function numberList(values) {
  if (!Array.isArray(values) || values.length > 10000 || values.some((v) => typeof v !== 'number')) {
    throw new CalculatorError({
      code: 'invalid_argument',
      field: 'values',
      message: Array.isArray(values) && values.length > 10000
        ? `a sweep takes 1 to 10000 values, got ${values.length}`
        : 'values must be a list of numbers',
    });
  }
  return Float64Array.from(values);
}

function checkInputs(inputs) {
  if (!isPlainObject(inputs)) {
    throw new CalculatorError({
      code: 'invalid_argument',
      field: '',
      message: 'inputs must be an object of name: value',
    });
  }
}

// A prepared calculation's JS face: the module's Prepared object behind a checked evaluate.
function preparedCalculation(module, handle, vary) {
  const names = handle.outputs();
  const count = vary.length;
  let live = true;
  return {
    outputs: names,
    evaluate(x, into = new Float64Array(names.length)) {
      if (!live) throw new CalculatorError({ code: 'invalid_argument', field: '', message: 'this prepared calculation was released' });
      const typed = x instanceof Float64Array;
      if (!(typed || Array.isArray(x)) || x.length !== count || (!typed && x.some((v) => typeof v !== 'number'))) {
        throw new CalculatorError({ code: 'invalid_argument', field: 'x', message: `x must be ${count} number(s), one per varying input (${vary.join(', ')})` });
      }
      if (!(into instanceof Float64Array) || into.length !== names.length) {
        throw new CalculatorError({ code: 'invalid_argument', field: 'into', message: `into must be a Float64Array of ${names.length}` });
      }
      module.HEAPF64.set(x, handle.inputs() / 8);
      const error = handle.evaluate();
      if (error) throw new CalculatorError(JSON.parse(error).error);
      const at = handle.results() / 8;
      into.set(module.HEAPF64.subarray(at, at + names.length));
      return into;
    },
    release() {
      if (live) handle.delete();
      live = false;
    },
  };
}

// Wraps an instantiated module; exported so tests can wrap other builds of it.
export function wrapModule(module) {
  return {
    list: () => JSON.parse(module.list()),
    chips: () => JSON.parse(module.chips()),
    // The model catalog: [{ id, name, params, params_active, notes, fields: [{ name, value, unit,
    // description, note }] }], the shapes the transformer calculator's `model` input names.
    models: () => JSON.parse(module.models()),
    schema(name) {
      return parsed(module.schema(String(name))).schema;
    },
    // The outputs keyed by name, with `steps` (the worked solution) unless { steps: false },
    // the numbers-only path that builds no LaTeX: the default for anything run many times.
    calculate(name, inputs = {}, { steps = true } = {}) {
      checkInputs(inputs);
      const result = parsed(module.calculate(String(name), inputs, Boolean(steps)));
      return steps ? { ...result.outputs, steps: result.steps } : result.outputs;
    },
    // One input of a calculator over `values` (numbers in its unit), numbers only: returns
    // { values: Float64Array, series: { output: Float64Array } } (NaN where an output is none);
    // `outputs` picks which (default every number output). A bad point throws, naming it.
    sweep(name, { inputs = {}, over, values, outputs = [] } = {}) {
      checkInputs(inputs);
      const numbers = values instanceof Float64Array ? values : numberList(values);
      if (!Array.isArray(outputs) || outputs.some((o) => typeof o !== 'string')) {
        throw new CalculatorError({ code: 'invalid_argument', field: 'outputs', message: 'outputs must be a list of output names' });
      }
      return unwrap(module.sweep(String(name), inputs, String(over ?? ''), numbers, outputs)).sweep;
    },
    // A calculation prepared once and evaluated many times, numbers only: `inputs` fixed and
    // checked now, `vary` (number inputs or dimensions) given per call. Returns { outputs
    // (names), evaluate(x, into?) -> Float64Array (one per output, NaN where none), release() }.
    // Each evaluation copies x into the module and the results out, allocating nothing in
    // the engine; a bad value throws a CalculatorError naming its input.
    prepare(name, { inputs = {}, vary = [], outputs = [] } = {}) {
      checkInputs(inputs);
      for (const [field, list] of [['vary', vary], ['outputs', outputs]]) {
        if (!Array.isArray(list) || list.length > 64 || list.some((o) => typeof o !== 'string')) {
          throw new CalculatorError({ code: 'invalid_argument', field, message: `${field} must be a list of input or output names` });
        }
      }
      const handle = unwrap(module.prepare(String(name), inputs, vary, outputs)).prepared;
      return preparedCalculation(module, handle, vary);
    },
    // The smallest `over` in [lo, hi] at which `output` reaches `target` (the output taken to
    // grow with it): { at (null: never), output_at, at_lo, evaluations }.
    solve(name, { inputs = {}, over, output, target, lo, hi } = {}) {
      checkInputs(inputs);
      return parsed(module.solve(String(name), inputs, String(over ?? ''), String(output ?? ''),
        Number(target), Number(lo), Number(hi))).solve;
    },
    // Exercises: `file` is the text of one exercises/*.json file.
    exerciseVariant(file, id, seed = 0) {
      return parsed(module.exerciseVariant(String(file), String(id), seed)).variant;
    },
    exerciseGrade(file, id, seed, part, answer) {
      return parsed(module.exerciseGrade(String(file), String(id), seed, Number(part), String(answer ?? ''))).grade;
    },
    exerciseCheck(file, seeds = 20) {
      const { problems, ids } = unwrap(module.exerciseCheck(String(file), Number(seeds)));
      return { problems, ids };
    },
    format(value, unit = '', style = 'si') {
      return unwrap(module.format(Number(value), String(unit), String(style))).text;
    },
    parseAnswer(text) {
      return unwrap(module.parseAnswer(String(text ?? ''))).quantity;
    },
    // The cycle-stepped systolic array. request: { M, N, K, rows, cols, dataflow, convention }
    // (the systolic calculator's inputs, checked by its schema) plus first_frame and max_frames
    // (the cycles to record, default none) and max_pe_steps (the step budget). Returns
    // { cycles, macs, pe_steps, c: rows of C, frames: [{ cycle, macs, pes: { weight, activation,
    // psum, shadow: Float64Array, flags: Uint8Array } }] (row-major PEs), frames_truncated }.
    simulateSystolic(request = {}) {
      if (!isPlainObject(request)) {
        throw new CalculatorError({
          code: 'invalid_argument',
          field: '',
          message: 'request must be an object of name: value',
        });
      }
      return unwrap(module.simulateSystolic(request)).simulation;
    },
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
    simulateCollective(request = {}) {
      if (!isPlainObject(request)) {
        throw new CalculatorError({
          code: 'invalid_argument',
          field: '',
          message: 'request must be an object of name: value',
        });
      }
      if (request.values != null && !Array.isArray(request.values)) {
        throw new CalculatorError({
          code: 'invalid_argument',
          field: 'values',
          message: 'values must be a list of whole numbers, or a list of rows of them',
        });
      }
      const sim = unwrap(module.simulateCollective(request)).simulation;
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
    },
    // Which block of an array each device holds, for the sharding picture. request:
    // { array: 'A[I_XY, J]', mesh: 'X=2, Y=2' } (mesh also {X: 2, Y: 2} or a slice shape 2x2).
    // Returns { mesh: [{ name, size }], array (its name), dims: [{ name, axes: ['X', 'Y'],
    // pieces }], unreduced: ['Z'], devices: [{ id, coords, pieces }], partition_spec }.
    // Devices are row-major over the mesh axes in order (id = index; coords one per mesh axis);
    // pieces has one index per dimension, mixed radix over its axes in subscript order (X major
    // for I_XY, so I_XY and I_YX differ). At most 4096 devices. Errors are CalculatorErrors
    // with field 'array' or 'mesh' and, inside a text, the offending character's position.
    shardingLayout(request = {}) {
      if (!isPlainObject(request)) {
        throw new CalculatorError({
          code: 'invalid_argument',
          field: '',
          message: 'request must be an object of name: value',
        });
      }
      return unwrap(module.shardingLayout(request)).layout;
    },
  };
}

// How the module finds its .wasm: under Node (the builder, the tests) the file is read and
// handed over; in a browser it is fetched beside the bundle that holds this code
// (dist/assets/scalebook-engine.wasm) and compiled while it streams.
export async function moduleOptions(wasmFile = 'scalebook-engine.wasm') {
  if (typeof process !== 'undefined' && process.versions?.node) {
    const { readFile } = await import('node:fs/promises');
    return { wasmBinary: await readFile(new URL(`./generated/${wasmFile}`, import.meta.url)) };
  }
  return { locateFile: (file) => new URL(file, import.meta.url).href };
}

let cached = null;

export function loadEngine() {
  if (!cached) {
    cached = moduleOptions().then(createScalebookEngine).then(wrapModule);
    // A failed instantiation is not cached: the next call tries again.
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}
