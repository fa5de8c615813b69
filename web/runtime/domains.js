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
import * as exercises from './exercises/elements.js';

export const DOMAINS = { roofline, systolic, hardware, collectives, sharding, transformer, training, exercises };

// Every element: tag -> { domain (its folder), engineDomain (null: it never asks for the engine),
// calculator (or null), load, worker (its domain's, or null) }.
export const ELEMENTS = {};
for (const [domain, declared] of Object.entries(DOMAINS)) {
  for (const [tag, { calculator = null, engine = true, load }] of Object.entries(declared.elements)) {
    if (Object.hasOwn(ELEMENTS, tag)) throw new Error(`${tag} is declared by both ${ELEMENTS[tag].domain} and ${domain}`);
    ELEMENTS[tag] = { domain, engineDomain: engine ? declared.engineDomain : null, calculator, load, worker: declared.worker ?? null };
  }
}
