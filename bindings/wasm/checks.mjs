// What engine.mjs checks before a value enters the module. Embind converts a JS value inside a
// C++ call; a value whose conversion throws (Object.create(null), a Symbol, a throwing
// toString or getter) unwinds through WASM frames without restoring the module's stack, and
// some thousands of those leave the module dead. So every value is read here, in JS, into a
// number, a bounded string or a Float64Array, and the module only ever sees those. Lengths are
// capped here as well, so a pasted megabyte is refused before it is copied into the heap.
export class CalculatorError extends Error {
  constructor({ code, field, message, position }) {
    super(message);
    this.name = 'CalculatorError';
    this.code = code;
    this.field = field;
    if (position !== undefined) this.position = position;
  }
}

// The caps (the engine has its own, usually tighter; these bound what is copied in).
export const limits = Object.freeze({
  name: 100, // a calculator, input, output or exercise id, a unit, a style
  text: 1000, // an input's text (a sharding spec is at most 1000 characters)
  fields: 256, // names in one inputs or request object
  answer: 200, // an answer, in characters (code points), as the engine's kMaxAnswerChars
  file: 1_000_000, // an exercise file's text
  config: 262_144, // a config.json's text, the engine's kMaxConfigBytes (which counts bytes)
  list: 10000, // a sweep's values
  names: 64, // a list of input or output names
  simValues: 65536, // simulateCollective values: 256 devices x 256 chunks
});

export function fail(field, message, code = 'invalid_argument') {
  throw new CalculatorError({ code, field, message });
}

// What a value is, in words, without calling anything on it (no toString, no getters).
export function kind(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'number': return 'a number';
    case 'string': return 'text';
    case 'bigint': return 'a BigInt';
    case 'symbol': return 'a symbol';
    case 'boolean': return 'a boolean';
    case 'function': return 'a function';
    case 'undefined': return 'undefined';
    default: return 'an object';
  }
}

function tooLong(field, max, length, what = 'characters') {
  return fail(field, `${field} must be at most ${max} ${what}, got ${length}`);
}

// A string of at most `max` UTF-16 units; absent (null, undefined) is `fallback` when given.
export function text(v, field, max = limits.name, fallback) {
  if (v == null && fallback !== undefined) return fallback;
  if (typeof v !== 'string') return fail(field, `${field} must be text, got ${kind(v)}`);
  if (v.length > max) return tooLong(field, max, v.length);
  return v;
}

// A JS number (NaN and infinities pass: the engine names them); nothing is coerced.
export function number(v, field, fallback) {
  if (v == null && fallback !== undefined) return fallback;
  if (typeof v !== 'number') return fail(field, `${field} must be a number, got ${kind(v)}`);
  return v;
}

// A reader's answer: at most limits.answer characters, counted as the engine counts them
// (code points: a surrogate pair is one), in JS, so a pasted megabyte is never copied in.
export function answer(v, field = 'answer') {
  const s = text(v ?? '', field, Infinity);
  const max = limits.answer;
  if (s.length <= max) return s;
  const chars = s.length - (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
  return chars > max ? tooLong(field, max, chars) : s;
}

// An exercise seed: a whole number or its digits, as the engine's parse_seed reads them.
export function seed(v) {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.length <= 10) return v;
  return fail('seed', `seed must be a whole number from 0 to 4294967295, got ${typeof v === 'string' ? 'text longer than 10 characters' : kind(v)}`);
}

// The own enumerable fields of a plain object as [name, value] pairs, each read once here
// (a getter runs in JS, and a throwing one becomes a CalculatorError naming its field).
export function fields(v, field = '', what = 'inputs') {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    return fail(field, `${what} must be an object of name: value, got ${kind(v)}`);
  }
  let keys;
  try {
    keys = Object.keys(v);
  } catch {
    return fail(field, `${what} could not be read as an object of name: value`);
  }
  if (keys.length > limits.fields) return tooLong(what, limits.fields, keys.length, 'names');
  return keys.map((key) => {
    if (key.length > limits.name) {
      fail(key.slice(0, limits.name), `an input name must be at most ${limits.name} characters, got ${key.length}`);
    }
    try {
      return [key, v[key]];
    } catch {
      return fail(key, `${key} could not be read`);
    }
  });
}

// A value for a named input: a number, or text (a number as text, a choice, a spec) the
// engine parses; null and undefined mean the default and are left out.
export function scalar(v, field) {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return v.length > limits.text ? tooLong(field, limits.text, v.length) : v;
  return fail(field, `${field} must be a number or text, got ${kind(v)}`);
}

// inputs as a fresh plain object the module can read without running any user code.
export function inputs(v, field = '', what = 'inputs') {
  const out = {};
  for (const [key, value] of fields(v, field, what)) {
    if (value != null) out[key] = scalar(value, key);
  }
  return out;
}

// A list of names (vary, outputs): at most limits.names strings of at most limits.name.
export function names(v, field) {
  const expected = `${field} must be a list of at most ${limits.names} input or output names`;
  if (!Array.isArray(v) || v.length > limits.names) return fail(field, expected);
  return v.map((name, i) => (typeof name === 'string' && name.length <= limits.name
    ? name
    : fail(field, `${expected}; item ${i} is ${typeof name === 'string' ? 'too long' : kind(name)}`)));
}

// A result from the module: { ok: true, ... } or { ok: false, error }, which throws.
export function unwrap(result) {
  if (!result.ok) throw new CalculatorError(result.error);
  return result;
}

// A smaller module (bindings/wasm/CMakeLists.txt) lacks the functions of the domains it was
// built without: calling one is an error that says so, not a TypeError.
export function need(module, fn) {
  if (typeof module[fn] !== 'function') {
    throw new CalculatorError({ code: 'not_found', field: '', message: `${fn} is not in this engine module, which was built without its domain; loadEngine('scalebook-engine') loads the whole engine` });
  }
}
