// format.js is the engine's format_value: every number it prints is engine.format's, for
// every style and every unit the calculators use; text and null pass through; with no engine
// registered it refuses rather than print something of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { si, sci, formatValue, FORMAT_STYLES, useEngine } from '../../web/runtime/core/format.js';

const VALUES = [0, -0, 1, -1, 0.5, -0.5, 2.5, -2.5, 240.2439, 1e12, 1.97e14, 8.2e11, 0.005076,
  1.0869e-3, 3.47e-5, 123456, 0.000123, 999.5, 999.95, 99999, 1e5, 1e-7, 1e-15, -1e-15, 2.5e21,
  -4.5e10, 1024, 1e15, 1.5e15, 999.5e18, 5e29, -5e29, 1e300, 5e-324, NaN, Infinity, -Infinity];
// The catalog's units, and every unit a calculator's schema names.
const CATALOG_UNITS = ['', 's', 'B', 'B/s', 'FLOP', 'FLOP/s', 'FLOP/B', 'tokens'];

test('format.js prints exactly what engine.format does, for every style and unit', async () => {
  const engine = await loadEngine();
  useEngine(engine);
  const units = new Set(CATALOG_UNITS);
  for (const { name } of engine.list()) {
    const schema = engine.schema(name);
    for (const item of [...schema.inputs, ...schema.outputs]) units.add(item.unit ?? '');
  }
  assert.deepEqual(FORMAT_STYLES, ['si', 'sci', 'int', 'num', 'raw']);
  for (const unit of units) {
    for (const value of VALUES) {
      const label = `${value} "${unit}"`;
      for (const style of FORMAT_STYLES) {
        assert.equal(formatValue(value, unit, style), engine.format(value, unit, style), `${label} ${style}`);
      }
      assert.equal(si(value, unit), engine.format(value, unit, 'si'), `si ${label}`);
    }
  }
  for (const value of VALUES) {
    assert.equal(sci(value), engine.format(value, '', 'sci'), `sci ${value}`);
    assert.equal(si(value), engine.format(value, '', 'si'), `si ${value}`);
    assert.equal(formatValue(value), engine.format(value, '', 'si'), `formatValue ${value}`);
  }
  // A few as the book prints them.
  assert.equal(si(0.005076, 's'), '5.08 ms');
  assert.equal(sci(1.97e14), '1.97e14');
  assert.equal(formatValue(16384, '', 'int'), '16,384');
  assert.equal(si(NaN, 'B'), 'NaN');
});

test('text and null pass through; an unknown style is refused', async () => {
  useEngine(await loadEngine());
  assert.equal(formatValue(null, 'B'), 'none');
  assert.equal(formatValue(undefined), 'none');
  assert.equal(formatValue('compute', 's', 'sci'), 'compute');
  assert.throws(() => formatValue(1, '', 'fancy'), { message: 'unknown format "fancy"; use si, sci, int, num or raw' });
  assert.throws(() => useEngine({}), TypeError);
});

test('before an engine is registered every formatter throws a clear error', async () => {
  // A fresh copy of the module, which no test has registered an engine with.
  const fresh = await import(`../../web/runtime/core/format.js?fresh=${Date.now()}`);
  const message = /format\.js has no engine: call useEngine\(await loadEngine\(\)\) before formatting a number/;
  assert.throws(() => fresh.si(1, 's'), message);
  assert.throws(() => fresh.sci(1e14), message);
  assert.throws(() => fresh.formatValue(1, 'B', 'int'), message);
  // Text and null need no engine.
  assert.equal(fresh.formatValue('memory'), 'memory');
  assert.equal(fresh.formatValue(null), 'none');
  fresh.useEngine(await loadEngine());
  assert.equal(fresh.si(1e-3, 's'), '1 ms');
});

test('formatMany formats a whole result in one call, exactly as one number at a time', async () => {
  const engine = await loadEngine();
  const units = VALUES.map((_, i) => CATALOG_UNITS[i % CATALOG_UNITS.length]);
  for (const style of FORMAT_STYLES) {
    assert.deepEqual(engine.formatMany(VALUES, units, style), VALUES.map((v, i) => engine.format(v, units[i], style)), style);
  }
  // The display rule: counts keep every digit, quantities take prefixes.
  assert.deepEqual(engine.formatMany([4096, 262144, 2, 0.005076, 1048576, 1.5e9, 2.5, NaN], ['devices', '', 'x', 's', 'B', 'Hz', 'chips', 'chips']),
    ['4,096 devices', '262,144', '2×', '5.08 ms', '1.05 MB', '1.5 GHz', '2.5 chips', 'NaN']);
  assert.deepEqual(engine.formatMany([], []), []);
});

test('formatMany names what is wrong with its arguments', async () => {
  const engine = await loadEngine();
  const refuses = (args, field, message) => assert.throws(() => engine.formatMany(...args), { name: 'CalculatorError', field, message });
  refuses(['1', ['']], 'values', 'values must be an array of numbers, got string');
  refuses([[1, 2], ['']], 'units', 'units must be an array of texts as long as values (2)');
  refuses([[1, '2'], ['', '']], 'values[1]', 'values[1] must be a number, got text');
  refuses([[1], [3]], 'units[0]', 'units[0] must be text, got a number');
  refuses([[1], ['a\nb']], 'units[0]', 'units[0] must be one line');
  refuses([[1], ['']].concat('fancy'), 'style', 'style must be one of value, si, sci, int, num, raw, got "fancy"');
  refuses([new Array(10001).fill(1), new Array(10001).fill('')], 'values', 'values must hold at most 10000 numbers, got 10001');
});
