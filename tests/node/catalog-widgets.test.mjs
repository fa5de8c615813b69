// The pure parts of the chapter 2 catalog widgets: the slice view (<sb-slice>) of the engine's slice
// calculator (wraparound, shape messages), table sorting, my chip's storage and validation.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { useEngine } from '../../web/runtime/core/format.js';
import { chipTableModel, sortRows, cellText, DEFAULT_FIELDS } from '../../web/runtime/hardware/chip-table-view.js';
import { sliceOf, sliceDims, torusAxes, torusSVG, sliceBodyHTML } from '../../web/runtime/hardware/slice-view.js';
import { chipTableDirective, sliceDirective, myChipDirective } from '../../web/builder/directives/hardware.mjs';
import { parseMyChip, validateMyChip, resolveMyChip, STORAGE_KEY } from '../../web/runtime/hardware/my-chip.js';

let engine;
let catalog;
const chip = (id) => catalog.find((c) => c.id === id);
before(async () => {
  engine = await loadEngine();
  useEngine(engine); // format.js prints with the engine
  catalog = engine.chips();
});

const wrapsOf = (id, shape) => torusAxes(sliceOf(engine, id, shape).slice).map((a) => a.wraps);

test('v5e and v6e wrap an axis only when it spans the pod (16), as the engine decides', () => {
  for (const id of ['tpu-v5e', 'tpu-v6e']) {
    assert.deepEqual(wrapsOf(id, '8x16'), [false, true]);
    assert.deepEqual(wrapsOf(id, '16x16'), [true, true]);
    assert.deepEqual(wrapsOf(id, '4x4'), [false, false]);
  }
});

test('v4p and v5p wrap every axis of a slice of whole 4x4x4 cubes and none otherwise', () => {
  for (const id of ['tpu-v4p', 'tpu-v5p']) {
    assert.deepEqual(wrapsOf(id, '4x4x8'), [true, true, true]);
    assert.deepEqual(wrapsOf(id, '2x2x1'), [false, false, false]);
    assert.deepEqual(wrapsOf(id, '4x4x2'), [false, false, false]);
  }
});

test('a chip without a wraparound rule in the catalog gets no decision', () => {
  const { slice } = sliceOf(engine, 'tpu7x', '4x4x4');
  assert.equal(slice.wrap_x, 'unknown');
  assert.deepEqual(torusAxes(slice).map((a) => a.wraps), [null, null, null]);
  assert.match(sliceBodyHTML(chip('tpu7x'), slice), /data-wraps="not stated"[^]*64 chips\.[^]*states no wraparound rule for TPU7x/);
});

test('the axis table counts links per chip: 2 on a ring, 1 at the ends of a line, 0 on one chip', () => {
  const v5e = sliceOf(engine, 'tpu-v5e', '8x16').slice;
  assert.deepEqual(sliceDims(v5e), [8, 16]);
  assert.deepEqual(torusAxes(v5e).map((a) => [a.axis, a.size, a.wraps, a.links]),
    [['x', 8, false, '2 (1 at the ends)'], ['y', 16, true, '2']]);
  assert.match(sliceBodyHTML(chip('tpu-v5e'), v5e), /128 chips; an inner chip uses 4 ICI links; the farthest chip is 15 hops away\./);
  assert.deepEqual(torusAxes(sliceOf(engine, 'tpu-v5p', '2x2x1').slice).map((a) => a.links), ['1', '1', '0']);
  // 4x4 with wraps on both axes: 4 wrap stubs pairs per axis.
  const full = torusAxes(sliceOf(engine, 'tpu-v5e', '16x16').slice);
  assert.match(torusSVG([4, 4], full), /data-wrap-links="8"/);
  const pod = sliceOf(engine, 'tpu-v5p', '16x20x28').slice;
  assert.match(torusSVG(sliceDims(pod), torusAxes(pod)), /too many to draw/);
});

test('bad shapes get messages naming the problem', () => {
  const error = (id, shape) => sliceOf(engine, id, shape).error;
  assert.deepEqual(sliceDims(sliceOf(engine, 'tpu-v5e', '8x16').slice), [8, 16]);
  assert.deepEqual(sliceDims(sliceOf(engine, 'tpu-v5e', ' 4x4 ').slice), [4, 4]);
  assert.deepEqual(error('tpu-v5e', '4x0'), { field: 'shape', message: 'shape must be sizes joined by x, like 4x4, got "4x0"' });
  assert.equal(error('tpu-v5e', 'abc').message, 'shape must be sizes joined by x, like 4x4, got "abc"');
  assert.equal(error('tpu-v5e', '4x4x4').message, 'shape has 3 axes but tpu-v5e is a 2D torus');
  assert.equal(error('tpu-v5e', '32x32').message, 'shape 32x32 exceeds the tpu-v5e pod of 16x16');
  assert.equal(error('tpu-v5e', '1x32').message, 'shape 1x32 exceeds the tpu-v5e pod of 16x16');
  assert.equal(error('tpu-v5e', '4'.repeat(1000)).message, 'shape must be at most 100 characters, got 1000');
  assert.deepEqual(error('h100', '4x4'), { field: 'chip', message: 'h100 has no ICI torus in the catalog' });
  assert.deepEqual(sliceDims(sliceOf(engine, 'tpu-v5p', '16x28x20').slice), [16, 28, 20]);
});

test('the table has a row per chip, the chosen fields, and "—" for unknown values', () => {
  const model = chipTableModel(catalog);
  assert.equal(model.rows.length, catalog.length);
  assert.deepEqual(model.columns.map((c) => c.name), DEFAULT_FIELDS);
  const v5e = model.rows.find((r) => r.id === 'tpu-v5e');
  const bf16 = v5e.cells.find((c) => c.name === 'peak_flops_bf16');
  assert.equal(cellText(bf16), '197 TFLOP/s');
  assert.match(bf16.note, /chapter 2 spec table/);
  assert.equal(cellText(v5e.cells.find((c) => c.name === 'peak_flops_fp8')), '—');
  const v4p = chipTableModel(catalog, { chips: ['tpu-v4p'], fields: ['pod_chips', 'ici_links_per_chip'] }).rows[0];
  assert.deepEqual(v4p.cells.map(cellText), ['4,096 chips', '6 links']); // counts keep every digit
  assert.throws(() => chipTableModel(catalog, { chips: ['tpu-v9'] }), /unknown chip "tpu-v9"/);
  assert.throws(() => chipTableModel(catalog, { fields: ['flops'] }), /unknown field "flops"/);
});

test('sorting orders numbers numerically and puts unknown values last both ways', () => {
  const { rows } = chipTableModel(catalog, { chips: ['tpu-v5e', 'h100', 'tpu-v5p', 'tpu7x'], fields: ['peak_flops_fp8', 'hbm_bandwidth'] });
  assert.deepEqual(sortRows(rows, 'hbm_bandwidth').map((r) => r.id), ['tpu-v5e', 'tpu-v5p', 'h100', 'tpu7x']);
  assert.deepEqual(sortRows(rows, 'hbm_bandwidth', 'descending').map((r) => r.id), ['tpu7x', 'h100', 'tpu-v5p', 'tpu-v5e']);
  const fp8 = sortRows(rows, 'peak_flops_fp8', 'descending').map((r) => r.id);
  assert.deepEqual(fp8, ['h100', 'tpu-v5e', 'tpu-v5p', 'tpu7x']); // no fp8 peak: last, in catalog order
  assert.deepEqual(sortRows(rows, 'name').map((r) => r.name), ['NVIDIA H100 SXM', 'TPU v5e', 'TPU v5p', 'TPU7x']);
});

test('my chip: stored entries are read back, corrupt ones ignored with a notice', () => {
  const good = { version: 1, chip: { name: 'Mine', base: 'h100', peak_flops: '1e15', hbm_bandwidth: '2e12', comm_bandwidth: '1e11' } };
  assert.equal(parseMyChip(JSON.stringify(good)).chip.name, 'Mine');
  assert.deepEqual(parseMyChip(null), { chip: null, notice: '' });
  for (const bad of ['{oops', '{"version":2,"chip":{"name":"x"}}', '{"version":1,"chip":{"name":3}}', '[]']) {
    const { chip, notice } = parseMyChip(bad);
    assert.equal(chip, null, bad);
    assert.match(notice, /could not be read .* is ignored/, bad);
  }
  assert.equal(STORAGE_KEY, 'scalebook.mychip');
});

test('my chip is validated by the engine, whose messages name the field', () => {
  const fields = { name: 'Mine', base: 'tpu-v5e', peak_flops: '1e15', hbm_bandwidth: '1e12', comm_bandwidth: '1e11' };
  const ok = validateMyChip(engine, fields);
  assert.equal(ok.result.critical_intensity, 1000);
  assert.deepEqual(validateMyChip(engine, { ...fields, peak_flops: '-1' }).errors, [{ field: 'peak_flops', message: 'bf16 peak must be >= 1, got -1' }]);
  assert.deepEqual(validateMyChip(engine, { ...fields, hbm_bandwidth: 'fast' }).errors, [{ field: 'hbm_bandwidth', message: 'HBM bandwidth must be a number, got "fast"' }]);
  assert.deepEqual(validateMyChip(engine, { ...fields, name: ' ' }).errors, [{ field: 'name', message: 'Name is required' }]);
  assert.deepEqual(validateMyChip(engine, { ...fields, hbm_capacity: '0' }).errors, [{ field: 'hbm_capacity', message: 'HBM capacity must be > 0, got 0' }]);
  // Every problem at once, in the form's order and its labels' words.
  assert.deepEqual(validateMyChip(engine, { name: '', peak_flops: 'x', hbm_bandwidth: '', hbm_capacity: '-2', comm_bandwidth: '0' }).errors, [
    { field: 'name', message: 'Name is required' },
    { field: 'peak_flops', message: 'bf16 peak must be a number, got "x"' },
    { field: 'hbm_bandwidth', message: 'HBM bandwidth is required' },
    { field: 'hbm_capacity', message: 'HBM capacity must be > 0, got -2' },
    { field: 'comm_bandwidth', message: 'ICI / NVLink bandwidth must be >= 1, got 0' },
  ]);
  // Without storage (Node), "my-chip" is passed on as is and the engine names it.
  assert.deepEqual(resolveMyChip({ chip: 'my-chip', peak_flops: '' }), { chip: 'my-chip', peak_flops: '' });
});

test('the directives emit static elements and reject bad settings', () => {
  const fail = (message) => { throw new Error(message); };
  const call = (fn, named, positional = []) => fn({ engine }, { positional, named }, fail);
  assert.match(call(chipTableDirective, { chips: 'tpu-v5e,h100', fields: 'hbm_bandwidth' }),
    /^<sb-chip-table chips="tpu-v5e,h100" fields="hbm_bandwidth"><template shadowrootmode="open">[^]*<td data-field="hbm_bandwidth" data-value="820000000000" data-kind="number" tabindex="0" title="chapter 2, TPU specs table"[^>]*>820 GB\/s</);
  assert.throws(() => call(chipTableDirective, { fields: 'bogus' }), /unknown field "bogus"/);
  assert.throws(() => call(chipTableDirective, { sort: 'x' }), /::chip-table has no setting "sort"; use chips, fields/);
  assert.match(call(sliceDirective, { chip: 'tpu-v5p', shape: '4x4x8' }), /<tr data-axis="z" data-wraps="yes">/);
  assert.throws(() => call(sliceDirective, { chip: 'h100' }), /chip "h100" has no ICI torus in the catalog/);
  assert.throws(() => call(sliceDirective, { shape: '4x0' }), /shape must be sizes joined by x, like 4x4, got "4x0"/);
  assert.match(call(myChipDirective, {}), /^<sb-my-chip><template shadowrootmode="open">[^]*<select id="my-base" name="base"/);
  assert.throws(() => call(myChipDirective, {}, ['x']), /unexpected "x"/);
});
