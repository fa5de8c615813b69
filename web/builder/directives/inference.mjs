// The inference domain's directives. Its calculators are placed with ::calculator NAME
// (directives.mjs); this adds the pictures their elements draw after the form, so the build
// draws them too: the speculative estimator's plot and rounds, the allocator's HBM bars, the
// inference step's bars and batch charts, the frontier's scatter.
import { speculativeExtrasHTML } from '../../runtime/inference/speculative-view.js';
import { kvExtrasHTML } from '../../runtime/inference/kv-allocator-view.js';
import { inferenceExtrasHTML } from '../../runtime/inference/inference-view.js';
import { frontierExtrasHTML } from '../../runtime/inference/frontier-view.js';
import { samplerExtrasHTML } from '../../runtime/inference/sampler-view.js';
import { SERVING_FIELDS, runServing, servingHTML } from '../../runtime/inference/serving-view.js';
import { escapeHtml } from '../errors.mjs';
import { attributeName } from '../../runtime/core/widget-dom.js';
import { declarativeShadow } from '../../runtime/core/sheets.js';
import '../../runtime/inference/serving-css.js';

// What a ::calculator NAME element draws after its form, by calculator.
export const calculatorExtras = {
  speculative: speculativeExtrasHTML,
  'kv-allocator': kvExtrasHTML,
  inference: inferenceExtrasHTML,
  'inference-frontier': frontierExtrasHTML,
  sampler: samplerExtrasHTML,
};

// ::serving [mode=continuous] [rate=10] [slots=32] ... — the engine's serving simulation as
// <sb-serving>, its first run drawn at build time so the page reads before the script loads.
// Settings are the simulation's fields; the engine checks every value at build time.
export function servingDirective(ctx, args, fail) {
  if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ::serving key=value ...`);
  for (const key of Object.keys(args.named)) {
    if (!SERVING_FIELDS.includes(key)) fail(`serving has no setting "${key}"; use ${SERVING_FIELDS.join(', ')}`);
  }
  const values = Object.fromEntries(SERVING_FIELDS.map((name) => [name, args.named[name] ?? '']));
  let sim;
  try {
    sim = runServing(ctx.engine, values);
  } catch (error) {
    fail(error.message);
  }
  const attributes = SERVING_FIELDS.filter((name) => args.named[name] !== undefined)
    .map((name) => ` ${attributeName(name)}="${escapeHtml(args.named[name])}"`);
  return `<sb-serving${attributes.join('')}>${declarativeShadow('sb-serving', servingHTML({ values, sim }))}</sb-serving>`;
}

// This domain's own directives by name (directives.mjs gathers every domain's).
export const handlers = { serving: servingDirective };
