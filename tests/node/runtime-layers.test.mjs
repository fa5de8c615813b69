// The browser runtime's layering, as check_layers.cmake is the engine's: web/runtime/core is
// what every domain's elements build on, so it imports no domain folder (a domain registers
// what core must call, as hardware/my-chip-hook.js does). The engine's bindings are below it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNTIME = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/runtime');

// Every module a file names: static imports, re-exports and import().
export function importsOf(text) {
  const specs = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) specs.push(m[1]);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) specs.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs;
}

// The runtime folder (domain) a file of `dir` reaches with `spec`, or null outside the runtime.
function domainOf(dir, spec) {
  if (!spec.startsWith('.')) return null;
  const rel = path.relative(RUNTIME, path.resolve(dir, spec));
  if (rel.startsWith('..')) return null;
  return rel.includes(path.sep) ? rel.split(path.sep)[0] : '';
}

function upward(folder) {
  const dir = path.join(RUNTIME, folder);
  const found = [];
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    for (const spec of importsOf(fs.readFileSync(path.join(dir, name), 'utf8'))) {
      const domain = domainOf(dir, spec);
      if (domain !== null && domain !== folder) found.push(`${folder}/${name} imports ${spec}`);
    }
  }
  return found;
}

test('web/runtime/core imports no domain folder', () => {
  assert.deepEqual(upward('core'), []);
});

test('the check finds every kind of import', () => {
  const text = "import { a } from '../exercises/x.js';\nexport { b } from '../roofline/y.js';\nimport './z.js';\nconst c = () => import('../training/w.js');\n";
  assert.deepEqual(importsOf(text), ['../exercises/x.js', '../roofline/y.js', './z.js', '../training/w.js']);
  assert.equal(domainOf(path.join(RUNTIME, 'core'), '../exercises/x.js'), 'exercises');
  assert.equal(domainOf(path.join(RUNTIME, 'core'), './z.js'), 'core');
  assert.equal(domainOf(path.join(RUNTIME, 'core'), '../../../bindings/wasm/engine.mjs'), null);
});
