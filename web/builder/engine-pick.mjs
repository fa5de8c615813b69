// Which engine modules a page gets. bindings/wasm/CMakeLists.txt builds the whole engine and
// smaller modules holding fewer domains. A page's elements get the smallest one that holds the
// engine domain of every element on it (as its domain declares it: web/runtime/<domain>/
// elements.js; an element that never asks for the engine, or may use any calculator, such as an
// exercise, adds none), and one that explains when an element there shows worked steps live
// (declared `steps: true`, as the collective simulator's closed form). An element whose steps
// wait in a closed section (`steps: 'on-open'`, the sharded-matmul planner) does not need that:
// the page then names an explainer, the smallest module that explains every such element,
// which it fetches only when a reader opens one (engine.mjs's loadExplainer). A partial module
// only where every element declares what it calls (its calculator, `calculators`,
// `simulations`) and the module holds it all. Its exercises get the grader: the smallest module that holds the
// exercises domain and every calculator they use (their values' and parts' `calculator`
// fields), as the module's own list() reports them, fetched only when a reader reaches for an
// exercise. Nothing here lists a domain or a calculator: the declarations, the exercise files
// and the modules say it all.
import fs from 'node:fs';
import path from 'node:path';
import { engineModules, loadEngine, WHOLE_ENGINE } from '../../bindings/wasm/engine.mjs';
import { ELEMENTS } from './domains.mjs';

// Every `calculator` named anywhere in an exercise's spec.
export function calculatorsIn(value, into = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => calculatorsIn(v, into));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'calculator' && typeof v === 'string') into.add(v);
      else calculatorsIn(v, into);
    }
  }
  return into;
}

// Resolves to pick(html, exerciseSpecs) -> { engine, grader, explainer } (module names; grader
// null for a page with no exercises, explainer null unless the engine computes numbers only and
// an element asks for steps when opened), given where the .wasm files are.
export async function enginePicker({ wasmDir }) {
  const engineDomains = new Set(engineModules.flatMap((m) => m.domains));
  const candidates = [];
  for (const m of engineModules) {
    const engine = await loadEngine(m.name);
    const calculators = new Set(engine.list().map((c) => c.name));
    const simulations = new Set(engine.simulations());
    candidates.push({ ...m, calculators, simulations, bytes: fs.statSync(path.join(wasmDir, `${m.name}.wasm`)).size });
  }
  candidates.sort((a, b) => a.bytes - b.bytes);
  const smallest = (fits) => (candidates.find(fits) ?? candidates.find((m) => m.name === WHOLE_ENGINE)).name;
  return (html, specs = []) => {
    const domains = new Set();
    let steps = false; // an element shows worked steps: a numbers-only module will not do
    const onOpen = { domains: new Set(), calls: { calculators: new Set(), simulations: new Set() } };
    // What the page's elements ask for; null once one of them declares nothing.
    let calls = { calculators: new Set(), simulations: new Set() };
    for (const [, tag] of html.matchAll(/<(sb-[a-z-]+)[\s>]/g)) {
      const domain = ELEMENTS[tag]?.engineDomain;
      if (!engineDomains.has(domain)) continue;
      domains.add(domain);
      if (ELEMENTS[tag].steps === true) steps = true;
      const own = ELEMENTS[tag].calls;
      if (!own) calls = null;
      own?.calculators.forEach((c) => calls?.calculators.add(c));
      own?.simulations.forEach((s) => calls?.simulations.add(s));
      if (ELEMENTS[tag].steps === 'on-open') {
        onOpen.domains.add(domain);
        if (!own) onOpen.calls = null;
        own?.calculators.forEach((c) => onOpen.calls?.calculators.add(c));
        own?.simulations.forEach((s) => onOpen.calls?.simulations.add(s));
      }
    }
    const calculators = calculatorsIn(specs);
    // A partial module (built WITHOUT some of its domains' calculators or simulations) serves
    // only a page that says all it calls, and only when the module holds all of it.
    const serves = (m, asked = calls) => !m.partial || (asked !== null && [...asked.calculators].every((c) => m.calculators.has(c)) &&
      [...asked.simulations].every((s) => m.simulations.has(s)));
    const engine = smallest((m) => (!steps || m.steps) && [...domains].every((d) => m.domains.includes(d)) && serves(m));
    const explains = candidates.find((m) => m.name === engine).steps;
    const explainer = onOpen.domains.size && !explains
      ? smallest((m) => m.steps && [...onOpen.domains].every((d) => m.domains.includes(d)) && serves(m, onOpen.calls))
      : null;
    const grader = specs.length
      ? smallest((m) => m.domains.includes('exercises') && [...calculators].every((c) => m.calculators.has(c)))
      : null;
    return { engine, grader, explainer };
  };
}
