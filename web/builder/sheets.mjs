// Every element stylesheet, for the build to write to assets/css/ and to link from the shadow
// roots it draws. Each domain's *-css.js registers its own sheets when imported
// (web/runtime/core/sheets.js), so a page's bundle carries only its elements' CSS; the build
// imports them all.
import fs from 'node:fs';
import { SHEETS } from '../runtime/core/sheets.js';

const RUNTIME = new URL('../runtime/', import.meta.url);
for (const domain of fs.readdirSync(RUNTIME, { withFileTypes: true }).filter((d) => d.isDirectory())) {
  for (const file of fs.readdirSync(new URL(`${domain.name}/`, RUNTIME)).filter((f) => f.endsWith('-css.js')).sort()) {
    await import(new URL(`${domain.name}/${file}`, RUNTIME));
  }
}

export { SHEETS };
