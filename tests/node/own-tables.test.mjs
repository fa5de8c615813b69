// A result is drawn once: the tables an element draws itself (the search's compact, sortable
// ones, registered by its view) are left out by the generic renderer, in the build's markup and
// in the markup the element draws in the browser (both calculatorHTML).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { extractDirectives } from '../../web/builder/directives.mjs';
import { calculatorHTML, ownTablesOf } from '../../web/runtime/core/render.js';
import { useEngine } from '../../web/runtime/core/format.js';
import '../../web/runtime/training/search-view.js';

let engine;
before(async () => {
  engine = await loadEngine();
  useEngine(engine);
});

const count = (html, pattern) => [...html.matchAll(pattern)].length;

test('the search\'s three tables are drawn once, by the search, at build time', () => {
  const ctx = { engine, calculators: new Map() };
  const html = extractDirectives(ctx, '# T\n\n::training-search model=llama-3-70b chips=512\n', 'x.md').blocks[0];
  for (const name of ['top', 'families', 'pareto']) {
    assert.equal(count(html, new RegExp(`data-search-table="${name}"`, 'g')), 1, name);
    assert.equal(count(html, new RegExp(`data-table="${name}"`, 'g')), 0, name);
  }
  assert.equal(count(html, /<table/g), 3);
});

test('the generic renderer skips only the tables registered as the element\'s own', () => {
  assert.deepEqual(ownTablesOf('training-search'), ['top', 'families', 'pareto']);
  const search = engine.schema('training-search');
  const result = engine.calculate('training-search', { model: 'llama-3-70b', chips: '512' }, { steps: false });
  assert.doesNotMatch(calculatorHTML({ schema: search, result }), /data-table=/);
  // Another calculator's tables are the generic renderer's, every one.
  const plan = engine.schema('training-plan');
  assert.deepEqual(ownTablesOf('training-plan'), []);
  const html = calculatorHTML({ schema: plan, result: engine.calculate('training-plan', {}, { steps: false }) });
  assert.equal(count(html, /data-table="/g), plan.tables.length);
});
