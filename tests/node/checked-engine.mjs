// The assertion-checked build of the engine, wrapped like the release one. Its assertions
// insist on a browser (ENVIRONMENT=web); under Node a `window` stand-in satisfies that check,
// and nothing else in the module reads it.
import { wrapModule, moduleOptions } from '../../bindings/wasm/api.mjs';
import createChecked from '../../bindings/wasm/generated/scalebook-engine-checked.mjs';

export async function loadChecked() {
  const options = await moduleOptions('scalebook-engine-checked.wasm');
  globalThis.window = globalThis;
  try {
    return wrapModule(await createChecked(options));
  } finally {
    delete globalThis.window;
  }
}
