// The engine's JS API around one instantiated module (engine.mjs loads one; loadEngine()
// resolves to what wrapModule returns): { list, schema, calculate, sweep, solve,
// chips, models, ..., simulate, simulateSystolic, simulateCollective, simulatePipeline,
// shardingLayout } (the simulations in simulations.mjs).
// Results are plain objects; bad input throws a CalculatorError with code, field, message and,
// for an error inside a text input (a sharding spec), the offending character's position.
//
// What goes in (checked here, before anything is copied into the module; checks.mjs):
// - An input value (calculate, sweep, solve and prepare inputs, the simulations' and
//   shardingLayout's fields) is a number or text; null or undefined means the default.
//   Anything else (an array, a BigInt, a boolean, a symbol, an object) is refused naming the
//   input, never stringified. Parameters that are numbers (solve's target, lo and hi, format's
//   value, exerciseGrade's part, exerciseCheck's seeds) must be JS numbers.
// - Lengths: names (calculator, input, output, exercise id, unit, style) at most 100
//   characters; an input's text at most 1000; at most 256 names in an inputs or request
//   object; an answer (exerciseGrade, parseAnswer) at most 200 characters, counted in code
//   points as the engine counts them; an exercise file at most 1,000,000; a config.json at
//   most 262,144 (the engine's cap counts bytes, so it may refuse a shorter text); a sweep at
//   most 10000 values; vary and outputs at most 64 names; simulateCollective values at most 65536
//   numbers in all; exerciseCheck at most 1000 seeds.
// - Work, capped in the module itself so an embedding page gets the same protection:
//   simulateSystolic takes max_pe_steps up to 1e9 (its default) and refuses any shape over the
//   engine's work budget (kMaxSimWork, which also counts each cycle's bookkeeping, so a
//   990^3 GEMM on a 1 x 1 array is refused at once); simulateCollective records at most
//   kMaxSimStateValues numbers; simulatePipeline runs at most max_items work items (default and
//   most kMaxPagePipelineItems, 2^16: each becomes a JS object) and records at most 2^20 stage
//   entries of frames; exerciseCheck runs at most kMaxCheckCalculations (5000) calculations; a
//   sweep evaluates at most 10000 points, a solve at most 200; shardingLayout draws at most
//   4096 devices.
import * as check from './checks.mjs';
import { CalculatorError, fail, limits, need, unwrap } from './checks.mjs';
import { simulationApi } from './simulations.mjs';

export { CalculatorError };

// list, schema, calculate, chips, models and solve answer with JSON text from the engine's
// one marshaller (scalebook/core/json.h): { error } or the payload.
function parsed(text) {
  const result = JSON.parse(text);
  if (result.error) throw new CalculatorError(result.error);
  return result;
}

// A sweep's values as one typed array, so they cross into WASM in one copy; anything but
// numbers (a string, a BigInt, a nested list) is refused here rather than coerced.
function numberList(values) {
  const many = (Array.isArray(values) || values instanceof Float64Array) && values.length > limits.list;
  if (many) fail('values', `a sweep takes 1 to ${limits.list} values, got ${values.length}`);
  if (values instanceof Float64Array) return values;
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'number')) {
    fail('values', 'values must be a list of numbers');
  }
  return Float64Array.from(values);
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
  const explains = typeof module.explains !== 'function' || module.explains();
  return {
    // False for a numbers-only module: calculate() then takes { steps: false } only.
    explains,
    // False for a module a book page gets that leaves prepare() out (a partial one).
    prepares: typeof module.prepare === 'function',
    list: () => JSON.parse(module.list()),
    chips: () => JSON.parse(module.chips()),
    // The model catalog: [{ id, name, params, params_active, notes, fields: [{ name, value, unit,
    // description, note }] }], the shapes the transformer calculator's `model` input names.
    models() {
      need(module, 'models');
      return JSON.parse(module.models());
    },
    // A custom model from a Hugging Face config.json's text: the models() entry's form plus
    // mapping ([{ field, key (null: a default), value, note }]), unmapped ([{ key, kind: 'not
    // modelled' | 'ignored' | 'unknown', reason }]) and inputs ({ model: 'custom', L, D, ... }:
    // what any calculator with a model input takes). A bad config throws naming the key.
    modelFromConfig(text) {
      need(module, 'modelFromConfig');
      return parsed(module.modelFromConfig(check.text(text, 'config', limits.config))).model;
    },
    schema(name) {
      return parsed(module.schema(check.text(name, 'calculator'))).schema;
    },
    // The outputs keyed by name (null where one has no value, and then `absent`: { output:
    // reason } says why), with `steps` (the worked solution) unless { steps: false },
    // the numbers-only path that builds no LaTeX: the default for anything run many times.
    // `progress(fraction)`, if given, hears how much of its counted work a long calculation
    // (training-search) has done, from 0 to 1; what it throws is ignored.
    // A numbers-only module (explains: false; a chapter's own, engine.mjs) refuses steps.
    calculate(name, inputs = {}, { steps = true, progress = null } = {}) {
      const calculator = check.text(name, 'calculator');
      const fixed = check.inputs(inputs);
      if (steps && !explains) {
        parsed(module.calculate(calculator, fixed, false)); // an unknown calculator or a bad input says so first
        fail('steps', "worked steps are not in this engine module, which computes numbers only; loadEngine('scalebook-engine') explains", 'not_found');
      }
      const text = typeof progress === 'function'
        ? module.calculateWithProgress(calculator, fixed, Boolean(steps), (f) => { try { progress(f); } catch { /* the listener's problem */ } })
        : module.calculate(calculator, fixed, Boolean(steps));
      const result = parsed(text);
      return steps ? { ...result.outputs, steps: result.steps } : result.outputs;
    },
    // One input of a calculator over `values` (numbers in its unit), numbers only: returns
    // { values: Float64Array, series: { output: Float64Array } } (NaN where an output is none);
    // `outputs` picks which (default every number output). A bad point throws, naming it.
    sweep(name, { inputs = {}, over, values, outputs = [] } = {}) {
      const calculator = check.text(name, 'calculator');
      const fixed = check.inputs(inputs);
      const numbers = numberList(values);
      const picked = check.names(outputs, 'outputs');
      return unwrap(module.sweep(calculator, fixed, check.text(over, 'over', limits.name, ''), numbers, picked)).sweep;
    },
    // A calculation prepared once and evaluated many times, numbers only: `inputs` fixed and
    // checked now, `vary` (number inputs or dimensions) given per call. Returns { outputs
    // (names), evaluate(x, into?) -> Float64Array (one per output, NaN where none), release() }.
    // Each evaluation copies x into the module and the results out, allocating nothing in
    // the engine; a bad value throws a CalculatorError naming its input.
    prepare(name, { inputs = {}, vary = [], outputs = [] } = {}) {
      if (typeof module.prepare !== 'function') {
        fail('', "prepare is not in this engine module, which holds only what its book page's elements call; loadEngine('scalebook-engine') prepares", 'not_found');
      }
      const calculator = check.text(name, 'calculator');
      const fixed = check.inputs(inputs);
      const varying = check.names(vary, 'vary');
      const handle = unwrap(module.prepare(calculator, fixed, varying, check.names(outputs, 'outputs'))).prepared;
      return preparedCalculation(module, handle, varying);
    },
    // The smallest `over` in [lo, hi] at which `output` reaches `target` (the output taken to
    // grow with it): { at (null: never), output_at, at_lo, evaluations }.
    solve(name, { inputs = {}, over, output, target, lo, hi } = {}) {
      const calculator = check.text(name, 'calculator');
      const fixed = check.inputs(inputs);
      const [x, y] = [check.text(over, 'over', limits.name, ''), check.text(output, 'output', limits.name, '')];
      // Absent numbers go in as NaN, so the engine reports them in its own order (calculator first).
      const [t, l, h] = [check.number(target, 'target', NaN), check.number(lo, 'lo', NaN), check.number(hi, 'hi', NaN)];
      return parsed(module.solve(calculator, fixed, x, y, t, l, h)).solve;
    },
    // Exercises: `file` is the text of one exercises/*.json file.
    // Only a module with the exercises domain grades (the whole engine; engine.mjs's loadGrader).
    exerciseVariant(file, id, seed = 0) {
      need(module, 'exerciseVariant');
      const text = check.text(file, 'file', limits.file);
      return parsed(module.exerciseVariant(text, check.text(id, 'id'), check.seed(seed))).variant;
    },
    // An answer over limits.answer characters is refused here, before it is copied in.
    exerciseGrade(file, id, seed, part, answer) {
      need(module, 'exerciseGrade');
      const [text, exercise] = [check.text(file, 'file', limits.file), check.text(id, 'id')];
      const [s, p, a] = [check.seed(seed), check.number(part, 'part'), check.answer(answer)];
      return parsed(module.exerciseGrade(text, exercise, s, p, a)).grade;
    },
    exerciseCheck(file, seeds = 20) {
      need(module, 'exerciseCheck');
      const text = check.text(file, 'file', limits.file);
      const n = check.number(seeds, 'seeds');
      if (!(Number.isInteger(n) && n >= 0 && n <= 1000)) fail('seeds', `seeds must be a whole number from 0 to 1000, got ${n}`, 'out_of_range');
      const { problems, ids } = unwrap(module.exerciseCheck(text, n));
      return { problems, ids };
    },
    format(value, unit = '', style = 'si') {
      const x = check.number(value, 'value');
      return unwrap(module.format(x, check.text(unit, 'unit', limits.name, ''), check.text(style, 'style', limits.name, 'si'))).text;
    },
    // Many numbers in one call, as a page formats a whole result: values[i] (numbers) with
    // units[i] (text, '' for none) in `style`, or 'value' for the count-or-quantity rule a
    // result's table shows (the engine's display_text). Returns the texts in order.
    formatMany(values, units, style = 'value') {
      if (!Array.isArray(values)) fail('values', `values must be an array of numbers, got ${typeof values}`);
      if (!Array.isArray(units) || units.length !== values.length) {
        fail('units', `units must be an array of texts as long as values (${values.length})`);
      }
      if (values.length > limits.list) fail('values', `values must hold at most ${limits.list} numbers, got ${values.length}`);
      if (values.length === 0) return [];
      const numbers = values.map((v, i) => String(check.number(v, `values[${i}]`)));
      const names = units.map((u, i) => {
        const unit = check.text(u, `units[${i}]`, limits.name);
        if (unit.includes('\n')) fail(`units[${i}]`, `units[${i}] must be one line`);
        return unit;
      });
      const st = check.text(style, 'style', limits.name, 'value');
      return unwrap(module.formatMany(numbers.join('\n'), names.join('\n'), st)).text.split('\n');
    },
    parseAnswer(text) {
      need(module, 'parseAnswer');
      return unwrap(module.parseAnswer(check.answer(text))).quantity;
    },
    ...simulationApi(module),
    // Which block of an array each device holds, for the sharding picture. request:
    // { array: 'A[I_XY, J]', mesh: 'X=2, Y=2' } (mesh also {X: 2, Y: 2} or a slice shape 2x2).
    // Returns { mesh: [{ name, size }], array (its name), dims: [{ name, axes: ['X', 'Y'],
    // pieces }], unreduced: ['Z'], devices: [{ id, coords, pieces }], partition_spec }.
    // Devices are row-major over the mesh axes in order (id = index; coords one per mesh axis);
    // pieces has one index per dimension, mixed radix over its axes in subscript order (X major
    // for I_XY, so I_XY and I_YX differ). At most 4096 devices. Errors are CalculatorErrors
    // with field 'array' or 'mesh' and, inside a text, the offending character's position.
    shardingLayout(request = {}) {
      need(module, 'shardingLayout');
      const clean = {};
      for (const [key, v] of check.fields(request, '', 'request')) {
        if (v != null) clean[key] = check.scalar(v, key);
      }
      return unwrap(module.shardingLayout(clean)).layout;
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
