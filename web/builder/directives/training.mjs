// ::pipeline stages=4 microbatches=8 schedule=1f1b [virtual_stages=2] [forward_cost=1] ...
// The engine's pipeline simulation as <sb-pipeline>, the whole Gantt grid in a declarative
// shadow root so the page reads before the script loads. Settings are the pipeline
// calculator's inputs; the engine checks every value at build time.
import { escapeHtml } from '../errors.mjs';
import { schemaOrFail } from '../values.mjs';
import { attributeName } from '../../runtime/core/widget-dom.js';
import { PIPELINE_FIELDS, runPipeline, pipelineHTML } from '../../runtime/training/pipeline-view.js';
import { declarativeShadow } from '../../runtime/core/sheets.js';
import { calculatorElementHTML } from './calculator-element.mjs';
import { searchExtrasHTML } from '../../runtime/training/search-view.js';
import { budgetBarsHTML } from '../../runtime/training/budget-view.js';
import { splitExtrasHTML } from '../../runtime/training/split-view.js';
import { planExtrasHTML } from '../../runtime/training/plan-view.js';
import { explorerExtrasHTML, TRAINING_LEAD } from '../../runtime/training/explorer-view.js';

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

// A calculator element with its own pictures after the form: ::NAME key=value ... [id=...]
// (calculator-element.mjs), then extras(result, values): the search's tables and Pareto plot,
// the budget's bars.
function calculatorWithExtras(name, extras) {
  return (ctx, args, fail) => {
    if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ::${name} key=value ...`);
    return calculatorElementHTML(ctx, name, args.named, fail, extras);
  };
}

// Chapter 6's configuration search; its layouts link to chapter 5's explorer beside this page.
export const trainingSearchDirective = calculatorWithExtras('training-search',
  (result, values) => searchExtrasHTML(result, { inputs: values, explorer: '05-training.html' }));
// Chapter 6's run budget, with the parameters by block and the memory floor as bars.
export const trainingBudgetDirective = calculatorWithExtras('training-budget', (result) => budgetBarsHTML(result));
// Chapter 5's FSDP x TP optimizer, with its heat strip and its two plots.
export const trainingSplitDirective = calculatorWithExtras('training-split', (result) => splitExtrasHTML(result));
// The sharding decision and the multi-pod planner, with tokens per chip plotted against pods.
export const trainingPlanDirective = calculatorWithExtras('training-plan', (result) => planExtrasHTML(result));

// What a ::calculator NAME element draws after its form, by calculator: chapter 5's explorer
// (the training calculator) adds the layer's boxes and the step's collectives in order.
export const calculatorExtras = { training: (result) => explorerExtrasHTML(result) };
// The outputs such an element leads with, before its form, as its element does (render.js).
export const calculatorLead = { training: TRAINING_LEAD };

// This domain's directives by name (directives.mjs gathers every domain's).
export const handlers = {
  pipeline: pipelineDirective,
  'training-search': trainingSearchDirective,
  'training-budget': trainingBudgetDirective,
  'training-split': trainingSplitDirective,
  'training-plan': trainingPlanDirective,
};
