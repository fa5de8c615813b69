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

function format(x, unit, style) {
  if (!registered) {
    throw new Error('format.js has no engine: call useEngine(await loadEngine()) before formatting a number');
  }
  return registered.format(x, unit, style);
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
