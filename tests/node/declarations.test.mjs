// Every calculator in the engine's registry has a home: an element that draws it, declared by its
// domain (web/runtime/<domain>/elements.js), and a place a reader meets it: a chapter's directive
// (::calculator NAME, or ::X for the element <sb-X>, web/builder/directives/<domain>.mjs) or an
// exercise. The registry is the engine's list(), so a new calculator is checked without an edit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../../bindings/wasm/engine.mjs';
import { ELEMENTS } from '../../web/runtime/domains.js';
import { HANDLERS } from '../../web/builder/directives.mjs';
import { calculatorsIn } from '../../web/builder/engine-pick.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Calculators deliberately reachable only from the CLI, each with its reason. None today: every
// calculator is met in a chapter or an exercise (chip in exercises only; array-memory also
// through ::sharding, whose <sb-sharding> draws it as sharding/elements.js declares).
const CLI_ONLY = new Map();

// The element tags the chapters' directives emit: ::calculator NAME gives <sb-NAME>, ::X <sb-X>.
function chapterTags(texts) {
  const tags = new Set();
  for (const text of texts) {
    for (const [, name, first] of text.matchAll(/^::([\w-]+)[ \t]*([\w-]*)/gm)) {
      if (name === 'calculator') tags.add(`sb-${first}`);
      else if (name !== 'plot' && name !== 'exercise') tags.add(`sb-${name}`);
    }
  }
  return tags;
}

// What is missing for each calculator: an element declared for it, a chapter or exercise.
export function homeless(registry, { elements, tags, exercised, allowed = new Map() }) {
  const drawnBy = (name) => Object.entries(elements).filter(([, e]) => e.calculator === name).map(([tag]) => tag);
  const problems = [];
  for (const name of registry) {
    const own = drawnBy(name);
    if (!own.length) problems.push(`${name}: no element declares it (web/runtime/<domain>/elements.js)`);
    else if (!allowed.has(name) && !exercised.has(name) && !own.some((tag) => tags.has(tag))) {
      problems.push(`${name}: no chapter places ${own.join(' or ')} and no exercise uses it`);
    }
  }
  return problems;
}

const chapters = fs.readdirSync(path.join(ROOT, 'chapters')).filter((f) => f.endsWith('.md'))
  .map((f) => fs.readFileSync(path.join(ROOT, 'chapters', f), 'utf8'));
const exercised = new Set();
for (const f of fs.readdirSync(path.join(ROOT, 'exercises')).filter((name) => name.endsWith('.json'))) {
  calculatorsIn(JSON.parse(fs.readFileSync(path.join(ROOT, 'exercises', f), 'utf8')), exercised);
}

test('every calculator in the registry has an element, and a chapter or an exercise that uses it', async () => {
  const registry = (await loadEngine()).list().map((c) => c.name);
  assert.ok(registry.length > 10);
  assert.deepEqual(homeless(registry, { elements: ELEMENTS, tags: chapterTags(chapters), exercised, allowed: CLI_ONLY }), []);
  for (const name of CLI_ONLY.keys()) assert.ok(registry.includes(name), `${name} is allowed but not in the registry`);
});

test('each declared calculator is the registry\'s, and each directive\'s element and each chapter\'s is declared', async () => {
  const registry = new Set((await loadEngine()).list().map((c) => c.name));
  for (const [tag, { calculator }] of Object.entries(ELEMENTS)) {
    if (calculator !== null) assert.ok(registry.has(calculator), `${tag} declares "${calculator}", which the engine does not list`);
  }
  for (const name of Object.keys(HANDLERS).filter((n) => n !== 'calculator' && n !== 'plot')) {
    assert.ok(Object.hasOwn(ELEMENTS, `sb-${name}`), `::${name} emits <sb-${name}>, which no domain declares`);
  }
  for (const tag of chapterTags(chapters)) assert.ok(Object.hasOwn(ELEMENTS, tag), `a chapter places <${tag}>, which no domain declares`);
});

test('the check names a calculator with no element, and one no chapter or exercise reaches', () => {
  const elements = { 'sb-a': { calculator: 'a' }, 'sb-b': { calculator: 'b' }, 'sb-plot': { calculator: null } };
  const tags = chapterTags(['# T\n\n::calculator a\n\n::plot roofline for=x\n']);
  assert.deepEqual([...tags], ['sb-a']);
  assert.deepEqual(homeless(['a', 'b', 'c'], { elements, tags, exercised: new Set() }), [
    'b: no chapter places sb-b and no exercise uses it',
    'c: no element declares it (web/runtime/<domain>/elements.js)',
  ]);
  assert.deepEqual(homeless(['b'], { elements, tags, exercised: new Set(['b']) }), []);
  assert.deepEqual(homeless(['b'], { elements, tags, exercised: new Set(), allowed: new Map([['b', 'the CLI only']]) }), []);
});
