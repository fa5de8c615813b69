// ::pipeline stages=4 microbatches=8 schedule=1f1b [virtual_stages=2] [forward_cost=1] ...
// The engine's pipeline simulation as <sb-pipeline>, the whole Gantt grid in a declarative
// shadow root so the page reads before the script loads. Settings are the pipeline
// calculator's inputs; the engine checks every value at build time.
import { escapeHtml } from '../errors.mjs';
import { schemaOrFail } from '../values.mjs';
import { attributeName } from '../../runtime/core/widget-dom.js';
import { PIPELINE_FIELDS, runPipeline, pipelineHTML } from '../../runtime/training/pipeline-view.js';
import { declarativeShadow } from '../../runtime/core/sheets.js';

export function pipelineDirective(ctx, args, fail) {
  if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ::pipeline key=value ...`);
  const schema = schemaOrFail(ctx.engine, 'pipeline', fail);
  for (const key of Object.keys(args.named)) {
    if (!PIPELINE_FIELDS.includes(key)) fail(`pipeline has no setting "${key}"; use ${PIPELINE_FIELDS.join(', ')}`);
  }
  const values = Object.fromEntries(PIPELINE_FIELDS.map((name) => [name, args.named[name] ?? '']));
  let sim;
  try {
    sim = runPipeline(ctx.engine, values);
  } catch (error) {
    fail(error.message);
  }
  const attributes = PIPELINE_FIELDS.filter((name) => args.named[name] !== undefined)
    .map((name) => ` ${attributeName(name)}="${escapeHtml(args.named[name])}"`);
  return `<sb-pipeline${attributes.join('')}>${declarativeShadow('sb-pipeline', pipelineHTML({ schema, values, sim }))}</sb-pipeline>`;
}
