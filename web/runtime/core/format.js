// Number formatting shared by the site builder (static HTML) and the browser runtime,
// so a value reads the same before and after the engine loads.

const PREFIXES = [
  [1e18, 'E'], [1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k'],
  [1, ''], [1e-3, 'm'], [1e-6, 'µ'], [1e-9, 'n'], [1e-12, 'p'],
];
const PREFIXABLE = new Set(['s', 'B', 'B/s', 'FLOP', 'FLOP/s']);

function significant(x, digits = 3) {
  return Number(x.toPrecision(digits)).toString();
}

// "1.97e14" as the book writes it.
export function sci(x, digits = 3) {
  if (x === 0) return '0';
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  return `${Number(mantissa)}e${Number(exponent)}`;
}

// 3 significant digits with an SI prefix: 0.005076 s -> "5.08 ms". Times take no prefix
// above seconds and amounts none below one ("ks" and "mB" read oddly and no answer box
// accepts them); what falls outside prints in scientific notation.
export function si(x, unit = '') {
  if (!Number.isFinite(x)) return String(x);
  if (!PREFIXABLE.has(unit) || x === 0) {
    const body = Math.abs(x) >= 1e5 || (x !== 0 && Math.abs(x) < 1e-3) ? sci(x) : significant(x);
    return unit ? `${body} ${unit}` : body;
  }
  const prefixes = PREFIXES.filter(([scale]) => (unit === 's' ? scale <= 1 : scale >= 1));
  for (const [scale, prefix] of prefixes) {
    if (Math.abs(x) >= scale * 0.9995) {
      // Past the largest prefix ("500000000000 EB") scientific reads better.
      if ((scale === 1 && Math.abs(x) >= 1e5) || Math.abs(x) >= 999.5e18) break;
      return `${significant(x / scale)} ${prefix}${unit}`;
    }
  }
  return `${sci(x)} ${unit}`;
}

// style: si (default) | sci | int | num | raw. Text values and null pass through.
export function formatValue(value, unit = '', style = 'si') {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value;
  switch (style) {
    case 'sci': return sci(value);
    case 'int': return Math.abs(value) >= 1e15 ? sci(value) : Math.round(value).toLocaleString('en-US');
    case 'num': return significant(value);
    case 'raw': return String(value);
    case 'si': return si(value, unit);
    default: throw new Error(`unknown format "${style}"; use si, sci, int, num or raw`);
  }
}

export const FORMAT_STYLES = ['si', 'sci', 'int', 'num', 'raw'];
