// Block directives: a paragraph of one line starting with `::`. Each becomes an HTML
// comment placeholder before markdown-it runs, and its HTML after.
import { BuildError, escapeHtml } from './errors.mjs';
import { parseArgs } from './args.mjs';
import { schemaOrFail } from './values.mjs';
import { calculatorHTML, rooflinePlotHTML as plotShadowHTML, rooflinePlotOptions } from '../runtime/render.js';
import { batchSweepHTML, batchSweepSVG, sweepCurves, sweepTitle } from '../runtime/sweep-plot.js';
import { SHADOW_CSS } from '../runtime/styles.js';
import { exerciseHTML } from './exercises.mjs';
import { simulationDirective } from './directive-simulation.mjs';
import { chipTableDirective, myChipDirective, torusDirective } from './directive-catalog.mjs';
import { shardingDirective, plannerDirective, collectiveSimDirective } from './directive-sharding.mjs';
import { transformerDirective } from './directive-transformer.mjs';
import { collectiveBandwidthPlotHTML } from './directive-bandwidth.mjs';

const DIRECTIVE = /^::([\w-]*)\s*(.*)$/;
const PLOTS = { roofline: rooflinePlotHTML, 'batch-sweep': batchSweepPlotHTML, 'collective-bandwidth': collectiveBandwidthPlotHTML };

function calculatorDirective(ctx, args, fail) {
  const [name, ...rest] = args.positional;
  if (!name || rest.length) fail('expected ::calculator NAME key=value ...');
  // <sb-transformer> is the layer diagram, not the generic form.
  if (name === 'transformer') fail('the transformer calculator has its own element: use ::transformer key=value ...');
  const schema = schemaOrFail(ctx.engine, name, fail);
  const { id, ...values } = args.named;
  if (id !== undefined && !/^[\w-]+$/.test(id)) fail(`id must be letters, digits, - or _, got "${id}"`);
  if (id && ctx.calculators.has(id)) fail(`id "${id}" is used twice on this page`);
  let result;
  try {
    result = ctx.engine.calculate(name, values);
  } catch (error) {
    fail(error.message);
  }
  if (id) ctx.calculators.set(id, { name, schema, result, values });
  const attributes = [id ? ` id="${escapeHtml(id)}"` : ''];
  for (const [key, value] of Object.entries(values)) {
    attributes.push(` ${key.toLowerCase()}="${escapeHtml(value)}"`);
  }
  const inner = calculatorHTML({ schema, values, result, chips: ctx.engine.chips() });
  return `<sb-${name}${attributes.join('')}><template shadowrootmode="open">${inner}</template></sb-${name}>`;
}

function rooflinePlotHTML(ctx, args, fail) {
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
    `<template shadowrootmode="open">${plotShadowHTML(options)}</template></sb-roofline-plot>`;
}

// ::plot batch-sweep chip=ID dtype_weights=int8 dtype_activations=bf16 sizes=4096,1024 max_batch=512
function batchSweepPlotHTML(ctx, args, fail) {
  const known = ['chip', 'dtype_weights', 'dtype_activations', 'sizes', 'max_batch'];
  for (const key of Object.keys(args.named)) {
    if (!known.includes(key)) fail(`batch-sweep has no setting "${key}"; use ${known.join(', ')}`);
  }
  const values = {
    chip: args.named.chip ?? 'tpu-v5e',
    dtype_weights: args.named.dtype_weights ?? 'bf16',
    dtype_activations: args.named.dtype_activations ?? 'bf16',
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
  const dtypes = ctx.engine.schema('matmul').inputs.find((i) => i.name === 'dtype').choices;
  const inner = batchSweepHTML({ css: SHADOW_CSS, chips: ctx.engine.chips(), dtypes, values, svg });
  return `<sb-batch-sweep chip="${escapeHtml(values.chip)}" dtype-weights="${escapeHtml(values.dtype_weights)}" ` +
    `dtype-activations="${escapeHtml(values.dtype_activations)}" sizes="${escapeHtml(sizes.join(','))}" ` +
    `max-batch="${maxBatch}"><template shadowrootmode="open">${inner}</template></sb-batch-sweep>`;
}

function plotDirective(ctx, args, fail) {
  const [kind, ...rest] = args.positional;
  const render = PLOTS[kind];
  if (!render || rest.length) fail(`expected ::plot KIND with KIND one of ${Object.keys(PLOTS).join(', ')}`);
  return render(ctx, args, fail);
}

function exerciseDirective(ctx, args, fail) {
  const [id, ...rest] = args.positional;
  if (!id || rest.length) fail('expected ::exercise ID');
  const exercise = ctx.exercises.get(id);
  if (!exercise) fail(`unknown exercise "${id}"`);
  if (ctx.placedExercises.has(id)) fail(`exercise "${id}" is placed twice`);
  ctx.placedExercises.add(id);
  return exerciseHTML(ctx.engine, exercise, ctx.renderMarkdown);
}

const HANDLERS = {
  calculator: calculatorDirective,
  plot: plotDirective,
  exercise: exerciseDirective,
  simulation: simulationDirective,
  'chip-table': chipTableDirective,
  torus: torusDirective,
  'my-chip': myChipDirective,
  sharding: shardingDirective,
  planner: plannerDirective,
  'collective-sim': collectiveSimDirective,
  transformer: transformerDirective,
};

// Returns { markdown, blocks }: markdown with placeholders, blocks[i] the HTML of the i-th.
export function extractDirectives(ctx, markdown, file) {
  const lines = markdown.split('\n');
  const blocks = [];
  let inFence = false;
  const out = lines.map((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) inFence = !inFence;
    const match = !inFence && DIRECTIVE.exec(text);
    if (!match) return text;
    const fail = (message) => {
      throw new BuildError(file, i + 1, `::${match[1]}: ${message}`);
    };
    const alone = (lines[i - 1] ?? '').trim() === '' && (lines[i + 1] ?? '').trim() === '';
    if (!alone) fail('a directive must be a paragraph of its own (blank lines around it)');
    const handler = HANDLERS[match[1]];
    if (!handler) {
      throw new BuildError(file, i + 1, `unknown directive "::${match[1]}"; use ${Object.keys(HANDLERS).map((h) => `::${h}`).join(', ')}`);
    }
    const args = parseArgs(match[2]);
    if (args.duplicates.length) fail(`${args.duplicates[0]} is given twice`);
    if (args.unclosed) fail('a quoted value has no closing "');
    blocks.push(handler(ctx, args, fail));
    return `<!--sb-directive:${blocks.length - 1}-->`;
  });
  return { markdown: out.join('\n'), blocks };
}

export function insertBlocks(html, blocks) {
  return html.replace(/<!--sb-directive:(\d+)-->\n?/g, (_, i) => blocks[Number(i)]);
}
