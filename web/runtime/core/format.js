// Number formatting for the site builder (static HTML) and the browser runtime, so a value
// reads the same before and after the engine loads: every number is the engine's
// format_value (engine/src/core/format.cpp, `engine.format(value, unit, style)`), the one
// copy of the prefix and unit rules. The engine is registered once with useEngine(engine):
// the builder after its loadEngine, the runtime in SbWidget.engine() (widget-base.js), tests
// in their setup. Formatting before that throws rather than print something else.

export const FORMAT_STYLES = ['si', 'sci', 'int', 'num', 'raw'];

let registered = null;

// Registers the engine (loadEngine()'s answer) every formatter here asks.
export function useEngine(engine) {
  if (typeof engine?.format !== 'function') throw new TypeError('useEngine takes the engine loadEngine() resolves to');
  registered = engine;
}

// Texts the engine has written, by style, unit and value. A page formats a whole result in one
// call (primeTexts) rather than crossing into the engine for each of its numbers (the
// explorer's result holds about 190), and its cells then find their texts here.
const known = new Map();
const MAX_KNOWN = 20000;
const keyOf = (x, unit, style) => `${style} ${unit} ${x}`;

function remember(key, text) {
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(key, text);
}

function engineOrThrow() {
  if (!registered) {
    throw new Error('format.js has no engine: call useEngine(await loadEngine()) before formatting a number');
  }
  return registered;
}

function format(x, unit, style) {
  const key = keyOf(x, unit, style);
  const hit = known.get(key);
  if (hit !== undefined) return hit;
  const engine = engineOrThrow();
  const text = style === 'value' ? engine.formatMany([x], [unit], 'value')[0] : engine.format(x, unit, style);
  remember(key, text);
  return text;
}

// Formats every [number, unit] pair not yet known, in the styles a result's cells use (its
// display text, and si for the views that draw their own), in one call to the engine.
export function primeTexts(pairs) {
  const engine = engineOrThrow();
  for (const style of ['value', 'si']) {
    const values = [];
    const units = [];
    const seen = new Set();
    for (const [x, unit = ''] of pairs) {
      if (typeof x !== 'number' || typeof unit !== 'string') continue;
      const key = keyOf(x, unit, style);
      if (known.has(key) || seen.has(key)) continue;
      seen.add(key);
      values.push(x);
      units.push(unit);
    }
    if (!values.length) continue;
    const texts = engine.formatMany(values, units, style);
    values.forEach((x, i) => remember(keyOf(x, units[i], style), texts[i]));
  }
}

// A result's number as a page shows it: a count keeps every digit with thousands commas
// ("4,096 devices", "2×"), a quantity takes an SI prefix ("5.08 ms"): the engine's
// display_text, the one copy of that rule.
export function displayText(x, unit = '') {
  return format(x, unit, 'value');
}

// "1.97e14" as the book writes it (3 significant digits).
export function sci(x) {
  return format(x, '', 'sci');
}

// 3 significant digits with an SI prefix: 0.005076 s -> "5.08 ms". Times take no prefix
// above seconds and amounts none below one; what falls outside prints in scientific notation.
export function si(x, unit = '') {
  return format(x, unit, 'si');
}

// style: si (default) | sci | int | num | raw. Text values pass through; null is 'none'.
export function formatValue(value, unit = '', style = 'si') {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value;
  if (!FORMAT_STYLES.includes(style)) throw new Error(`unknown format "${style}"; use si, sci, int, num or raw`);
  return format(value, unit, style);
}
