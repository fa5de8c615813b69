// The pure parts of the chapter 2 catalog widgets: the wraparound rule read from the catalog,
// shape parsing, table sorting, my chip's storage and validation.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { chipTableModel, sortRows, cellText, DEFAULT_FIELDS } from '../../web/runtime/chip-table-view.js';
import { parseShape, wrapsAxis, wrapRule, torusAxes, torusSVG } from '../../web/runtime/torus-view.js';
import { chipTableDirective, torusDirective, myChipDirective } from '../../web/builder/directive-catalog.mjs';
import { parseMyChip, validateMyChip, resolveMyChip, STORAGE_KEY } from '../../web/runtime/my-chip.js';

let engine;
let catalog;
const chip = (id) => catalog.find((c) => c.id === id);
before(async () => {
  engine = await loadEngine();
  catalog = engine.chips();
});

test('v5e and v6e wrap an axis only when it spans the pod (16), read from pod_topology', () => {
  for (const id of ['tpu-v5e', 'tpu-v6e']) {
    assert.equal(wrapRule(chip(id)).kind, 'full-axis');
    assert.deepEqual([0, 1].map((i) => wrapsAxis(chip(id), [8, 16], i)), [false, true]);
    assert.deepEqual([0, 1].map((i) => wrapsAxis(chip(id), [16, 16], i)), [true, true]);
    assert.deepEqual([0, 1].map((i) => wrapsAxis(chip(id), [4, 4], i)), [false, false]);
  }
});

test('v4p and v5p wrap every axis of a slice of whole 4x4x4 cubes and none otherwise', () => {
  for (const id of ['tpu-v4p', 'tpu-v5p']) {
    assert.equal(wrapRule(chip(id)).kind, 'cube');
    assert.deepEqual(wrapRule(chip(id)).edges, [4, 4, 4]);
    assert.deepEqual([0, 1, 2].map((i) => wrapsAxis(chip(id), [4, 4, 8], i)), [true, true, true]);
    assert.deepEqual([0, 1, 2].map((i) => wrapsAxis(chip(id), [2, 2, 1], i)), [false, false, false]);
    assert.deepEqual([0, 1, 2].map((i) => wrapsAxis(chip(id), [4, 4, 2], i)), [false, false, false]);
  }
});

test('a chip without a wraparound rule in the catalog gets no decision', () => {
  assert.equal(wrapsAxis(chip('tpu7x'), [4, 4, 4], 0), null);
});

test('the axis table counts links per chip: 2 on a ring, 1 at the ends of a line, 0 on one chip', () => {
  assert.deepEqual(torusAxes(chip('tpu-v5e'), [8, 16]).map((a) => [a.axis, a.size, a.wraps, a.links]),
    [['x', 8, false, '2 (1 at the ends)'], ['y', 16, true, '2']]);
  assert.deepEqual(torusAxes(chip('tpu-v5p'), [2, 2, 1]).map((a) => a.links), ['1', '1', '0']);
  // 4x4 with wraps on both axes: 4 wrap stubs pairs per axis.
  assert.match(torusSVG([4, 4], torusAxes(chip('tpu-v5e'), [16, 16]).slice(0, 2).map((a) => ({ ...a, wraps: true }))), /data-wrap-links="8"/);
  assert.match(torusSVG([16, 20, 28], torusAxes(chip('tpu-v5p'), [16, 20, 28])), /too many to draw/);
});

test('bad shapes get messages naming the problem', () => {
  const v5e = chip('tpu-v5e');
  assert.deepEqual(parseShape('8x16', v5e), { dims: [8, 16] });
  assert.deepEqual(parseShape(' 4 x 4 ', v5e), { dims: [4, 4] });
  assert.equal(parseShape('4x0', v5e).error, 'every axis must be at least 1 chip, got "4x0"');
  assert.equal(parseShape('abc', v5e).error, 'shape must be 2 whole numbers joined by x, like 8x16, got "abc"');
  assert.equal(parseShape('4x4x4', v5e).error, 'a TPU v5e slice has 2 axes, like 8x16, got 3 in "4x4x4"');
  assert.equal(parseShape('32x32', v5e).error, '32x32 is 1024 chips but a TPU v5e pod has 256 (16x16)');
  assert.equal(parseShape('1x32', v5e).error, '1x32 does not fit in a TPU v5e pod (16x16) in any orientation');
  assert.deepEqual(parseShape('16x28x20', chip('tpu-v5p')), { dims: [16, 28, 20] });
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
  assert.deepEqual(validateMyChip(engine, { ...fields, peak_flops: '-1' }).error, { field: 'peak_flops', message: 'peak_flops must be > 0, got -1' });
  assert.deepEqual(validateMyChip(engine, { ...fields, hbm_bandwidth: 'fast' }).error, { field: 'hbm_bandwidth', message: 'hbm_bandwidth must be a number, got "fast"' });
  assert.equal(validateMyChip(engine, { ...fields, name: ' ' }).error.field, 'name');
  assert.equal(validateMyChip(engine, { ...fields, hbm_capacity: '0' }).error.message, 'hbm_capacity must be > 0, got 0');
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
  assert.match(call(torusDirective, { chip: 'tpu-v5p', shape: '4x4x8' }), /<tr data-axis="z" data-wraps="yes">/);
  assert.throws(() => call(torusDirective, { chip: 'h100' }), /chip "h100" has no ICI torus in the catalog/);
  assert.throws(() => call(torusDirective, { shape: '4x0' }), /every axis must be at least 1 chip, got "4x0"/);
  assert.match(call(myChipDirective, {}), /^<sb-my-chip><template shadowrootmode="open">[^]*<select id="my-base" name="base"/);
  assert.throws(() => call(myChipDirective, {}, ['x']), /unexpected "x"/);
});
