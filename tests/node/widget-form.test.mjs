// The engine's errors as a form shows them (asError): field, position, and words a reader
// can act on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { asError } from '../../web/runtime/core/widget-form.js';

const failure = async (inputs) => {
  const engine = await loadEngine();
  try {
    engine.calculate('roofline', inputs, { steps: false });
  } catch (err) {
    return asError(err);
  }
  return null;
};

test('a number typed beyond what a double holds says too large, not "got inf"', async () => {
  assert.deepEqual(await failure({ flops: '1e400', bytes: '1e9' }),
    { field: 'flops', message: 'flops is too large: numbers stop near 1.8e308' });
  assert.deepEqual(await failure({ flops: '1e12', bytes: '-1e400' }),
    { field: 'bytes', message: 'bytes is too far below zero: numbers stop near -1.8e308' });
});

test('other messages pass through unchanged', async () => {
  assert.deepEqual(await failure({ flops: 'x', bytes: '1e9' }), { field: 'flops', message: 'flops must be a number, got "x"' });
});
