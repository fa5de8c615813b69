// What an element declares it calls (web/runtime/<domain>/elements.js: its calculator,
// `calculators`, `simulations`) is what a partial engine module is chosen by
// (web/builder/engine-pick.mjs), so an element that calls one more, undeclared, would find it
// missing on a page served by such a module. Each declaring element's code, and the files of
// its folder it imports, are read for every calculator or simulation named in a call, or in a
// CALCULATOR / SIMULATION constant: each must be declared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ELEMENTS } from '../../web/runtime/domains.js';
import { elementFiles } from '../../web/builder/domains.mjs';

// The file and the ./ files it imports, transitively (other folders' code is shared machinery
// that calls what it is given).
function sources(file, seen = new Set()) {
  if (seen.has(file) || !fs.existsSync(file)) return seen;
  seen.add(file);
  for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(/from '(\.\/[^']+)'/g)) sources(path.join(path.dirname(file), spec), seen);
  return seen;
}

const CALLED = /\b(?:calculate|sweep|solve|prepare|schema)\(\s*'([a-z0-9-]+)'|\bCALCULATOR\s*=\s*'([a-z0-9-]+)'/g;
// simulate('x'), a SIMULATION constant, or the API's named helpers: simulatePipeline() is 'pipeline'.
const SIMULATED = /\bsimulate\(\s*'([a-z0-9-]+)'|\bSIMULATION\s*=\s*'([a-z0-9-]+)'|\bsimulate([A-Z][a-z]+)\(/g;
const simulated = (m) => m[1] ?? m[2] ?? m[3].toLowerCase();

test('every calculator and simulation an element\'s code names is one it declares', () => {
  const files = elementFiles();
  let checked = 0;
  for (const [tag, element] of Object.entries(ELEMENTS)) {
    if (!element.calls || !files.has(tag)) continue;
    const text = [...sources(files.get(tag))].map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    for (const [, a, b] of text.matchAll(CALLED)) assert.ok(element.calls.calculators.includes(a ?? b), `${tag} calls ${a ?? b} without declaring it`);
    for (const m of text.matchAll(SIMULATED)) assert.ok(element.calls.simulations.includes(simulated(m)), `${tag} simulates ${simulated(m)} without declaring it`);
    checked += 1;
  }
  assert.ok(checked >= 20, `only ${checked} elements checked`);
});

test('the check finds a call an element leaves undeclared', () => {
  const text = "engine.calculate('gpu-cluster', x); const SIMULATION = 'gpu-collective'; engine.simulatePipeline(r);";
  assert.deepEqual([...text.matchAll(CALLED)].map((m) => m[1] ?? m[2]), ['gpu-cluster']);
  assert.deepEqual([...text.matchAll(SIMULATED)].map(simulated), ['gpu-collective', 'pipeline']);
});

// A partial module (the only kind a page of declaring elements may get) leaves prepare() out
// (bindings/wasm/CMakeLists.txt): an element that needs it must first teach the picker so.
test('no declaring element prepares a calculation', () => {
  const files = elementFiles();
  for (const [tag, element] of Object.entries(ELEMENTS)) {
    if (!element.calls || !files.has(tag)) continue;
    const text = [...sources(files.get(tag))].map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    assert.doesNotMatch(text, /\.prepare\(/, `${tag} prepares a calculation`);
  }
  assert.match("engine.prepare('training', {})", /\.prepare\(/);
});
