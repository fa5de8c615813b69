// The runtime's domains, one line each: each folder's elements.js declares its elements (and a
// worker, if it has long calculations). index.js defines the elements from this list; the builder
// reads the same list (web/builder/domains.mjs). Adding a domain adds its folder and a line here.
import * as roofline from './roofline/elements.js';
import * as systolic from './systolic/elements.js';
import * as hardware from './hardware/elements.js';
import * as collectives from './collectives/elements.js';
import * as sharding from './sharding/elements.js';
import * as transformer from './transformer/elements.js';
import * as training from './training/elements.js';
import * as inference from './inference/elements.js';
import * as gpus from './gpus/elements.js';
import * as exercises from './exercises/elements.js';

export const DOMAINS = { roofline, systolic, hardware, collectives, sharding, transformer, training, inference, gpus, exercises };

// A calculator declared with no load of its own ('sb-x': { calculator: 'x' }) is the plain form
// and table: SbCalculator for that calculator, already in the runtime's main chunk, so it needs
// no file of its own and nothing to preload.
const plain = (calculator) => () => import('./core/sb-calculator.js').then((m) => m.plainCalculator(calculator));

// Every element: tag -> { domain (its folder), engineDomain (null: it never asks for the engine),
// calculator (or null), load, plain (the generic form: no file of its own), worker (its
// domain's, or null), steps (true: it shows worked steps live, so its page needs a module that
// explains; 'on-open': they sit in a closed section, and it asks the page's explainer for them
// when a reader opens it, so a numbers-only module will do: engine.mjs's loadExplainer), calls (every calculator and simulation it asks the engine for: its calculator and
// what it declares as `calculators` and `simulations`; null when it declares nothing, so it may
// ask for anything its domain has: a page holding it never gets a partial module) }.
export const ELEMENTS = {};
for (const [domain, declared] of Object.entries(DOMAINS)) {
  for (const [tag, { calculator = null, calculators = [], simulations = [], engine = true, load, steps = false }] of Object.entries(declared.elements)) {
    if (Object.hasOwn(ELEMENTS, tag)) throw new Error(`${tag} is declared by both ${ELEMENTS[tag].domain} and ${domain}`);
    if (!load && !calculator) throw new Error(`${tag} in web/runtime/${domain}/elements.js has neither a load nor a calculator`);
    ELEMENTS[tag] = {
      domain, engineDomain: engine ? declared.engineDomain : null, calculator, load: load ?? plain(calculator), plain: !load,
      worker: declared.worker ?? null, steps,
      calls: calculator || calculators.length || simulations.length
        ? { calculators: [...(calculator ? [calculator] : []), ...calculators], simulations } : null,
    };
  }
}
