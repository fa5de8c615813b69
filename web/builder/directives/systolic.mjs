// ::systolic-sim rows=4 cols=4 M=6 N=4 K=5 dataflow=ws convention=pipelined
// The engine's cycle-stepped systolic array as <sb-systolic-sim>, with its first frame in a
// declarative shadow root so the page reads before the script loads. Settings are the systolic
// calculator's inputs; the engine checks every value (and the page's step budget) at build time.
import { escapeHtml } from '../errors.mjs';
import { schemaOrFail } from '../values.mjs';
import { attributeName } from '../../runtime/core/widget-dom.js';
import { SIM_FIELDS, runSimulation, systolicSimHTML } from '../../runtime/systolic/systolic-view.js';
import { declarativeShadow } from '../../runtime/core/sheets.js';

export function systolicSimDirective(ctx, args, fail) {
  if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ::systolic-sim key=value ...`);
  const schema = schemaOrFail(ctx.engine, 'systolic', fail);
  for (const key of Object.keys(args.named)) {
    if (!SIM_FIELDS.includes(key)) fail(`systolic simulation has no setting "${key}"; use ${SIM_FIELDS.join(', ')}`);
  }
  const values = Object.fromEntries(SIM_FIELDS.map((name) => [name, args.named[name] ?? '']));
  let run;
  try {
    run = runSimulation(ctx.engine, schema, values, 1);
  } catch (error) {
    fail(error.message);
  }
  const attributes = SIM_FIELDS.filter((name) => args.named[name] !== undefined)
    .map((name) => ` ${attributeName(name)}="${escapeHtml(args.named[name])}"`);
  const inner = systolicSimHTML({ schema, values, sim: run.sim, closed: run.closed, index: 0 });
  return `<sb-systolic-sim${attributes.join('')}>${declarativeShadow('sb-systolic-sim', inner)}</sb-systolic-sim>`;
}

// This domain's directives by name (directives.mjs gathers every domain's).
export const handlers = { 'systolic-sim': systolicSimDirective };
