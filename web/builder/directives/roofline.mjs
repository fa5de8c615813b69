// The roofline plots of chapter 1, both reached through ::plot KIND:
//   ::plot roofline for=ID [chips=tpu-v5e,h100]      a log-log roofline following calculator ID
//   ::plot batch-sweep [chip=ID] [dtype_weights=int8] [dtype_activations=bf16] [sizes=4096,1024] [max_batch=512]
// Each emits its element (<sb-roofline-plot>, <sb-batch-sweep>) with the first plot computed by
// the engine at build time in a declarative shadow root, so the page reads before any script.
import { escapeHtml } from '../errors.mjs';
import { rooflinePlotHTML as plotShadowHTML, rooflinePlotOptions } from '../../runtime/core/plot.js';
import { batchSweepHTML, batchSweepSVG, sweepCurves, sweepTitle } from '../../runtime/core/sweep-plot.js';
import { schemaDefault } from '../../runtime/core/widget-form.js';
import { attributeName } from '../../runtime/core/widget-dom.js';
import { declarativeShadow } from '../../runtime/core/sheets.js';
import '../sheets.mjs'; // every domain's CSS and its elements' sheets, which declarativeShadow reads

export function rooflinePlotHTML(ctx, args, fail) {
  const target = args.named.for;
  if (!target) fail('::plot roofline needs for=ID of a calculator on this page');
  const source = ctx.calculators.get(target);
  if (!source) fail(`no calculator with id "${target}" above this plot`);
  const chips = ctx.engine.chips();
  const extraChipIds = args.named.chips ? args.named.chips.split(',') : [];
  for (const id of extraChipIds) {
    if (!chips.some((c) => c.id === id)) fail(`unknown chip "${id}"; choose from ${chips.map((c) => c.id).join(', ')}`);
  }
  const options = rooflinePlotOptions({
    result: source.result, inputs: source.values, schema: source.schema, chips, extraChipIds,
  });
  const chipsAttr = args.named.chips ? ` chips="${escapeHtml(args.named.chips)}"` : '';
  return `<sb-roofline-plot for="${escapeHtml(target)}"${chipsAttr}>` +
    `${declarativeShadow('sb-roofline-plot', plotShadowHTML(options))}</sb-roofline-plot>`;
}

// The chip and the formats default to the matmul calculator's (the sweep runs it).
export function batchSweepPlotHTML(ctx, args, fail) {
  const known = ['chip', 'dtype_weights', 'dtype_activations', 'sizes', 'max_batch'];
  for (const key of Object.keys(args.named)) {
    if (!known.includes(key)) fail(`batch-sweep has no setting "${key}"; use ${known.join(', ')}`);
  }
  const schema = ctx.engine.schema('matmul');
  const dtype = schemaDefault(schema, 'dtype');
  const values = {
    chip: args.named.chip ?? schemaDefault(schema, 'chip'),
    dtype_weights: args.named.dtype_weights ?? dtype,
    dtype_activations: args.named.dtype_activations ?? dtype,
  };
  const sizes = (args.named.sizes ?? '4096').split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1) || sizes.length > 4) fail('sizes must be 1 to 4 whole numbers, e.g. sizes=4096,1024');
  const maxBatch = Number(args.named.max_batch ?? 512);
  if (!Number.isInteger(maxBatch) || maxBatch < 8 || maxBatch > 65536) fail('max_batch must be a whole number from 8 to 65536');
  let plot;
  try {
    plot = sweepCurves(ctx.engine, { inputs: values, sizes, maxBatch });
  } catch (error) {
    fail(error.message);
  }
  const svg = batchSweepSVG({ ...plot, maxBatch, title: sweepTitle(values) });
  const dtypes = schema.inputs.find((i) => i.name === 'dtype').choices;
  const inner = batchSweepHTML({ chips: ctx.engine.chips(), dtypes, values, svg });
  const settings = { ...values, sizes: sizes.join(','), max_batch: String(maxBatch) };
  const attributes = Object.entries(settings).map(([name, value]) => ` ${attributeName(name)}="${escapeHtml(value)}"`).join('');
  return `<sb-batch-sweep${attributes}>${declarativeShadow('sb-batch-sweep', inner)}</sb-batch-sweep>`;
}

// This domain's kinds of ::plot KIND (directives.mjs gathers every domain's); its calculators
// are drawn by ::calculator NAME.
export const plots = { roofline: rooflinePlotHTML, 'batch-sweep': batchSweepPlotHTML };
