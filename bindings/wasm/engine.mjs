// Loads the engine: loadEngine(name?) resolves (once per module) to the JS API of api.mjs.
//
// Which module: the whole engine (scalebook-engine) unless a smaller one is named, by the
// argument or, on a book page, by <meta name="scalebook-engine" content="scalebook-engine-
// roofline"> that the builder writes for a page whose elements and exercises use only that
// module's domains (generated/modules.mjs lists the modules; bindings/wasm/CMakeLists.txt
// builds them). A page with no such tag (a blog post embedding a calculator), Node (the builder
// and the tests) and an unknown name get the whole engine.
import { modules } from './generated/modules.mjs';
import { wrapModule, moduleOptions } from './api.mjs';

export { wrapModule, moduleOptions, CalculatorError } from './api.mjs';
export { modules as engineModules };

export const WHOLE_ENGINE = 'scalebook-engine';

// The module with the fewest domains that holds every one named (the whole engine if none).
// Never a partial one (built without some of its domains' calculators): an embed's elements
// are known here only by their domains, not by what they call (web/builder/engine-pick.mjs
// gives a book page one where its elements say they fit).
export function moduleFor(domains) {
  const fits = modules.filter((m) => !m.partial && [...domains].every((d) => m.domains.includes(d)));
  fits.sort((a, b) => a.domains.length - b.domains.length);
  return (fits[0] ?? modules.find((m) => m.name === WHOLE_ENGINE)).name;
}

// The domains an embedding page's elements need, as the runtime tells them (useDomains).
const pageDomains = new Set();

// A page without the builder's tag (a blog post) names the domains of its elements, so that
// it loads the smallest module that holds them rather than the whole engine. A domain named
// later that the module lacks moves later loads to one that holds it.
export function useDomains(domains) {
  for (const d of domains) pageDomains.add(d);
}

function pageModule() {
  const meta = globalThis.document?.querySelector?.('meta[name="scalebook-engine"]');
  return meta?.getAttribute('content') || (pageDomains.size ? moduleFor(pageDomains) : WHOLE_ENGINE);
}

// The module that grades exercises (variants, grades, answer parsing): the builder's
// <meta name="scalebook-grader"> on a book page (the chapter's grader, which holds the
// calculators its exercises use), else the whole engine, which grades any exercise file. A
// chapter's own module leaves the grader out, so a reader who never checks an answer never
// fetches it.
export function graderModule() {
  const meta = globalThis.document?.querySelector?.('meta[name="scalebook-grader"]');
  return meta?.getAttribute('content') || WHOLE_ENGINE;
}

export const loadGrader = () => loadEngine(graderModule());

// The module that gives worked steps where the page's own computes numbers only: the builder's
// <meta name="scalebook-explainer"> on a book page (the smallest module that explains what its
// elements show steps of when a reader opens them), else the page's module when it explains,
// else the whole engine. A chapter's module leaves steps out when they wait in a closed
// section, so a reader who never opens one never fetches them.
export function explainerModule() {
  const meta = globalThis.document?.querySelector?.('meta[name="scalebook-explainer"]');
  if (meta?.getAttribute('content')) return meta.getAttribute('content');
  const page = pageModule();
  return modules.find((m) => m.name === page)?.steps ? page : WHOLE_ENGINE;
}

export const loadExplainer = () => loadEngine(explainerModule());

const cached = new Map();

export function loadEngine(name = pageModule()) {
  const entry = modules.find((m) => m.name === name) ?? modules.find((m) => m.name === WHOLE_ENGINE);
  if (!cached.has(entry.name)) {
    const loading = Promise.all([entry.load(), moduleOptions(`${entry.name}.wasm`)])
      .then(([glue, options]) => glue.default(options))
      .then(wrapModule);
    cached.set(entry.name, loading);
    // A failed instantiation is not cached: the next call tries again.
    loading.catch(() => cached.delete(entry.name));
  }
  return cached.get(entry.name);
}
