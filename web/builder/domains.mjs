// The runtime's domain declarations (web/runtime/domains.js, each folder's elements.js) as the
// builder needs them: each element's source file, so its chunk is known for the preloads, and
// each domain's worker entry. Nothing here lists an element.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMAINS, ELEMENTS } from '../runtime/domains.js';

const RUNTIME = fileURLToPath(new URL('../runtime/', import.meta.url));

export { ELEMENTS };

// The file an element's load() imports, read off the function's own text (its import() path is a
// static string, so that esbuild splits it into a chunk): tag -> absolute path.
export function elementFiles() {
  const files = new Map();
  for (const [tag, { domain, load, plain }] of Object.entries(ELEMENTS)) {
    if (plain) continue; // the generic form, in the runtime's main chunk
    const spec = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/.exec(String(load))?.[1];
    if (!spec) throw new Error(`${tag}'s load() in web/runtime/${domain}/elements.js imports no static path`);
    files.set(tag, path.join(RUNTIME, domain, spec));
  }
  return files;
}

// The domains' worker entries (absolute paths), each bundled as assets/<its file name>.
export function workerFiles() {
  return Object.values(DOMAINS).filter((d) => d.worker).map((d) => fileURLToPath(d.worker));
}
