// Chapter 12's directives, one per gpus calculator, each its element (<sb-gpu-X>) with the
// form, the outputs and the picture after them computed at build time, so the page reads
// before any script. Settings are the calculator's inputs; the engine checks each at build time.
//   ::gpu-planner [model=..] [chip=h100] [gpus=4096] [B=..] [tp=8] [pp=..] [ep=..] ...
//   ::gpu-cluster [cluster=..] [chip=h100] [nodes=128] ...
//   ::gpu-kernel [op=matmul] [chip=h200] [dtype=bf16] [B=..] [D=..] [F=..] ...
//     also carries the measured H200 matmuls (reference/h200-matmul.json) as a JSON
//     island the element redraws them from.
//   ::gpu-chip [chip=h100] [dtype=bf16] [compare=tpu-v5p]
//     compare: the chip drawn beside it (not a calculator input: gpu-chip runs again for it).
//   ::gpu-collective-sim [op=..] [algorithm=auto|ring|in-network|direct] [chip=h100] [gpus=8]
//       [cluster=auto] [bytes=..] [latency=..]
//     the switched-collective simulator (<sb-gpu-collective-sim>), its first step drawn here.
//   ::plot collective-scaling [op=all-gather] [bytes=1e9] [gpu=h100] [cluster=dgx-h100-superpod]
//       [tpu=tpu-v5p]
//     the GPU against TPU overlay (<sb-collective-scaling>): bandwidth per chip against chips.
import { calculatorElementHTML } from './calculator-element.mjs';
import { plannerExtrasHTML } from '../../runtime/gpus/planner-view.js';
import { clusterExtrasHTML } from '../../runtime/gpus/cluster-view.js';
import { kernelExtrasHTML, measuredPoints, memoryLabel } from '../../runtime/gpus/kernel-view.js';
import { schemaDefault } from '../../runtime/core/widget-form.js';
import { chipExtrasHTML, chipPair, DEFAULT_COMPARE } from '../../runtime/gpus/chip-view.js';
import { h200Matmuls } from '../reference.mjs';
import { FIELDS as SIM_FIELDS, runGpuCollective, gpuCollectiveSimHTML } from '../../runtime/gpus/gpu-collective-view.js';
import { checkSettings, element as simElement, shadow } from './elements.mjs';
import { FIELDS as SCALING_FIELDS, runScaling, collectiveScalingHTML } from '../../runtime/gpus/collective-scaling.js';

function noPositional(name, args, fail) {
  if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ::${name} key=value ...`);
}

function element(name, extras) {
  return (ctx, args, fail) => {
    noPositional(name, args, fail);
    return calculatorElementHTML(ctx, name, args.named, fail, extras);
  };
}

// The island's JSON cannot close its script element: every < is escaped.
const island = (data) => `<script type="application/json" data-measured>${JSON.stringify(data).replaceAll('<', '\\u003c')}</script>`;

function kernelDirective(ctx, args, fail) {
  noPositional('gpu-kernel', args, fail);
  let measured;
  try {
    measured = h200Matmuls();
  } catch (error) {
    fail(error.message);
  }
  const dtype = args.named.dtype ?? schemaDefault(ctx.engine.schema('gpu-kernel'), 'dtype');
  let sweep = null;
  try {
    sweep = measuredPoints(ctx.engine, measured, dtype);
  } catch (error) {
    fail(`the measured H200 matmuls: ${error.message}`);
  }
  const html = calculatorElementHTML(ctx, 'gpu-kernel', args.named, fail, (result) => kernelExtrasHTML(result, sweep, memoryLabel(ctx.engine.schema('gpu-kernel'), args.named.memory)));
  return html.replace(/<\/sb-gpu-kernel>$/, `${island(measured)}</sb-gpu-kernel>`);
}

function chipDirective(ctx, args, fail) {
  noPositional('gpu-chip', args, fail);
  const { compare = DEFAULT_COMPARE, ...named } = args.named;
  const known = ctx.engine.chips().map((c) => c.id);
  if (!known.includes(compare)) fail(`compare: unknown chip "${compare}"; choose from ${known.join(', ')}`);
  const schema = ctx.engine.schema('gpu-chip');
  const settings = {
    chip: named.chip ?? schemaDefault(schema, 'chip'), dtype: named.dtype ?? schemaDefault(schema, 'dtype'), compare,
  };
  const extras = (result) => {
    try {
      return chipExtrasHTML(chipPair(ctx.engine, result, settings));
    } catch (error) {
      return fail(`compare=${compare}: ${error.message}`);
    }
  };
  const html = calculatorElementHTML(ctx, 'gpu-chip', named, fail, extras);
  return html.replace(/^<sb-gpu-chip/, `<sb-gpu-chip compare="${compare}"`);
}

function collectiveSimDirective(ctx, args, fail) {
  checkSettings(args, { name: '::gpu-collective-sim', fixed: SIM_FIELDS }, fail);
  const run = runGpuCollective(ctx.engine, args.named);
  if (run.error) fail(run.error.message);
  const inner = gpuCollectiveSimHTML({ engine: ctx.engine, values: args.named, run, chips: ctx.engine.chips() });
  return simElement('sb-gpu-collective-sim', args.named, shadow('sb-gpu-collective-sim', inner));
}

function scalingPlot(ctx, args, fail) {
  checkSettings({ ...args, positional: args.positional.slice(1) }, { name: '::plot collective-scaling', fixed: SCALING_FIELDS }, fail);
  const run = runScaling(ctx.engine, args.named);
  if (run.error) fail(run.error.message);
  const inner = collectiveScalingHTML({ engine: ctx.engine, values: args.named, run });
  return simElement('sb-collective-scaling', args.named, shadow('sb-collective-scaling', inner));
}

// This domain's directives by name (directives.mjs gathers every domain's).
export const handlers = {
  'gpu-planner': element('gpu-planner', plannerExtrasHTML),
  'gpu-cluster': element('gpu-cluster', clusterExtrasHTML),
  'gpu-kernel': kernelDirective,
  'gpu-chip': chipDirective,
  'gpu-collective-sim': collectiveSimDirective,
};
// Its kinds of ::plot KIND.
export const plots = { 'collective-scaling': scalingPlot };
