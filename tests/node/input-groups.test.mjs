// Forms filed by the schema (web/runtime/core/input-groups.js, render.js): every input where
// its `group` puts it, a preset's overrides under "Your own <preset>", labels and choice labels
// from the schema, outputs named by their labels.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { useEngine } from '../../web/runtime/core/format.js';
import { inputGroups, choiceText, withChoices, overridePreset } from '../../web/runtime/core/input-groups.js';
import { calculatorHTML } from '../../web/runtime/core/render.js';
import { fieldHTML } from '../../web/runtime/core/widget-form.js';

let engine;
before(async () => {
  engine = await loadEngine();
  useEngine(engine); // format.js prints with the engine
});

const names = (groups) => groups.map((g) => [g.group, g.preset, g.title, g.inputs.map((i) => i.name)]);

test('the matmul keeps its formats with the main inputs and only the chip numbers as the chip’s', () => {
  const groups = inputGroups(engine.schema('matmul'), { chips: engine.chips() });
  assert.deepEqual(names(groups), [
    ['main', '', 'Inputs', ['B', 'D', 'F', 'chip', 'dtype', 'dtype_weights', 'dtype_activations']],
    ['override', 'chip', 'Your own chip', ['peak_flops', 'hbm_bandwidth']],
  ]);
});

test('groups come main, overrides, advanced; the collective has no chip overrides, and axes is main', () => {
  assert.deepEqual(names(inputGroups(engine.schema('roofline'))), [
    ['main', '', 'Inputs', ['flops', 'bytes', 'comm_bytes', 'chip', 'dtype']],
    ['override', 'chip', 'Your own chip', ['peak_flops', 'hbm_bandwidth', 'comm_bandwidth']],
    ['advanced', '', 'Advanced', ['memory']],
  ]);
  assert.deepEqual(names(inputGroups(engine.schema('collective'))), [
    ['main', '', 'Inputs', ['op', 'bytes', 'axis_size', 'axes', 'chip']],
    ['advanced', '', 'Advanced', ['wraparound', 'bidirectional', 'latency', 'cluster', 'in_network', 'stride']],
  ]);
});

test('a calculator with a model and a chip files each override under its own preset', () => {
  const schema = engine.schema('transformer');
  const groups = inputGroups(schema, { chips: engine.chips() });
  assert.deepEqual(groups.map((g) => g.title), ['Inputs', 'Your own model', 'Your own chip', 'Advanced']);
  assert.deepEqual(groups[1].inputs.map((i) => i.name).slice(0, 3), ['L', 'D', 'F']);
  assert.deepEqual(groups[2].inputs.map((i) => i.name), ['peak_flops', 'hbm_bandwidth']);
  // The schema's own word wins when it gives one.
  assert.equal(overridePreset(schema, { name: 'x', overrides: 'chip' }), 'chip');
});

test('choices show their labels (a chip its catalog name); a filtered list keeps labels beside choices', () => {
  const wrap = engine.schema('collective').inputs.find((i) => i.name === 'wraparound');
  assert.equal(choiceText(wrap, 'yes'), 'Every axis a ring');
  assert.equal(choiceText(wrap, 'maybe'), 'maybe');
  const sim = withChoices(wrap, (c) => c !== 'auto');
  assert.deepEqual(sim.choices, ['yes', 'no']);
  assert.deepEqual(sim.choice_labels, ['Every axis a ring', 'Every axis a line']);
  const chip = engine.schema('roofline').inputs.find((i) => i.name === 'chip');
  assert.equal(choiceText(chip, 'tpu-v5e', engine.chips()), 'TPU v5e');
});

test('the generic form: fieldsets with legends, labels for names, option values the choices', () => {
  const schema = engine.schema('roofline');
  const result = engine.calculate('roofline', {}, { steps: false });
  const html = calculatorHTML({ schema, values: {}, result, chips: engine.chips() });
  const main = html.indexOf('<fieldset class="group" data-group="main">');
  const own = html.indexOf('<details class="overrides" data-preset="chip"><summary>Your own chip</summary>' +
    '<fieldset class="group" data-group="override" data-preset="chip"><legend class="visually-hidden">Your own chip</legend>');
  const advanced = html.indexOf('<details class="advanced"><summary>Advanced</summary>');
  assert.ok(main >= 0 && own > main && advanced > own, 'main, then the chip, then advanced');
  const at = (name) => html.indexOf(`name="${name}"`);
  assert.ok(at('dtype') < own && at('hbm_bandwidth') > own && at('hbm_bandwidth') < advanced && at('memory') > advanced);
  assert.match(html, /<label for="in-hbm_bandwidth">HBM bandwidth <span class="unit">\(B\/s\)<\/span><\/label><input id="in-hbm_bandwidth"/);
  // A label that already ends with its unit does not repeat it; a name the label does not say
  // stays as a code hint outside the label.
  assert.match(html, /<label for="in-peak_flops">Peak FLOP\/s<\/label>/);
  assert.match(html, /<span class="field-head"><label for="in-comm_bytes">Chip-to-chip bytes <span class="unit">\(B\)<\/span><\/label><code class="input-name">comm_bytes<\/code><\/span>/);
  assert.match(html, /<label for="in-dtype">Compute dtype<\/label><select/); // the label ends with the name
  assert.match(html, /<option value="vmem">VMEM<\/option>/);
  assert.match(html, /<dt>Compute time<\/dt><dd data-output="t_compute">/);
  // A value or an error in a folded group opens it.
  assert.match(calculatorHTML({ schema, values: { memory: 'vmem' }, result, chips: [] }), /<details class="advanced" open>/);
  assert.match(calculatorHTML({ schema, values: {}, result, chips: [], error: { field: 'peak_flops', message: 'x' } }), /<details class="overrides" data-preset="chip" open>/);
});

test('a widget field is labelled by the schema, or by the label it is given', () => {
  const op = engine.schema('collective').inputs.find((i) => i.name === 'op');
  const html = fieldHTML(op, 'all-reduce', { prefix: 'w' });
  assert.match(html, /<label for="w-op">Collective<\/label><code class="input-name">op<\/code>/);
  assert.match(html, /<option value="all-reduce" selected>AllReduce<\/option>/);
  assert.match(fieldHTML({ name: 'I', type: 'count', unit: '', default: null }, '', { prefix: 'w' }), /<label for="w-I">I<\/label><input/);
});

test('an output the engine leaves blank shows its reason in its place, not a bare "none"', () => {
  const schema = engine.schema('chip');
  const result = engine.calculate('chip', { chip: 'h100' }, { steps: false });
  const [name, reason] = Object.entries(result.absent ?? {})[0] ?? [];
  assert.ok(name, 'an H100 leaves some TPU-only field blank');
  assert.equal(result[name], null);
  const html = calculatorHTML({ schema, values: { chip: 'h100' }, result });
  const cell = new RegExp(`data-output="${name}"><span class="absent">none: ([^<]*)</span>`).exec(html);
  assert.ok(cell, `the ${name} cell shows its reason`);
  assert.equal(cell[1], reason.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;'));
});
