// The directives of chapter 3. Each emits its element with the first render in a declarative
// shadow root, computed by the engine at build time, so the page reads before any script; the
// engine checks every value, and a bad one fails the build at the directive's line.
//   ::sharding [array=A[I_XY,J]] [mesh=X=2,Y=2] [I=1024 J=4096] [dtype=fp32] [chip=h100]
//   ::planner [spec=...] [mesh=...] [I=.. J=.. K=..] [dtype=..] [chip=..] [wraparound=..]
//   ::collective-sim [op=..] [shape=8|4x4] [bytes=..] [wraparound=..] [bidirectional=..] [latency=..] [chip=..] [sums=yes]
// Values with spaces are quoted: array="A[I_XY, J]". An engine built without the calculator
// or simulation a directive needs (a branch before the engine's) gets the bare element with
// a line saying it loads with the page; the element then renders itself in the browser.
import { escapeHtml } from './errors.mjs';
import { dimensionNames } from '../runtime/widget-form.js';
import { runSharding, shardingHTML } from '../runtime/sharding-view.js';
import { CALCULATOR as PLANNER, runPlanner, plannerHTML } from '../runtime/planner-view.js';
import { CALCULATOR as COLLECTIVE, SIM_FIELDS, runCollective, collectiveSimHTML } from '../runtime/collective-view.js';
import { texToMathML } from '../runtime/mathml.js';

const DIMENSION = /^[A-Z][A-Za-z0-9]{0,15}$/;

function hasCalculator(engine, name) {
  return engine.list().some((c) => c.name === name);
}

// Checks the settings: `fixed` by name, and sizes of the dimensions the spec names (any
// dimension-like name when the spec is unknown at build time).
function checkSettings(args, { name, fixed, spec = undefined, dimensions = false }, fail) {
  if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ${name} key=value ...`);
  const dims = spec === undefined ? null : dimensionNames(spec);
  for (const key of Object.keys(args.named)) {
    if (fixed.includes(key)) continue;
    if (dimensions && DIMENSION.test(key)) {
      if (!dims || dims.includes(key)) continue;
      fail(`${key} is not a dimension of ${spec}; its dimensions are ${dims.join(', ') || 'none'}`);
    }
    fail(`${name} has no setting "${key}"; use ${fixed.join(', ')}${dimensions ? ' and a size for each dimension (I=1024)' : ''}`);
  }
  if (args.named.sums !== undefined && !['yes', 'no'].includes(args.named.sums)) fail(`sums must be yes or no, got "${args.named.sums}"`);
}

function element(tag, named, inner) {
  const attributes = Object.entries(named).map(([k, v]) => ` ${k.toLowerCase()}="${escapeHtml(v)}"`).join('');
  return `<${tag}${attributes}>${inner}</${tag}>`;
}

const shadow = (html) => `<template shadowrootmode="open">${html}</template>`;

function placeholder(what) {
  return `<p class="sb-placeholder" data-static="none">${escapeHtml(what)} loads with the page.</p>`;
}

function specDefault(engine, calculator, input) {
  if (!hasCalculator(engine, calculator)) return undefined;
  const value = engine.schema(calculator).inputs.find((i) => i.name === input)?.default;
  return value === null || value === undefined ? undefined : String(value);
}

export function shardingDirective(ctx, args, fail) {
  const { engine } = ctx;
  const spec = args.named.array ?? specDefault(engine, 'array-memory', 'array');
  checkSettings(args, { name: '::sharding', fixed: ['array', 'mesh', 'dtype', 'chip'], spec, dimensions: true }, fail);
  if (!hasCalculator(engine, 'array-memory') || typeof engine.shardingLayout !== 'function') {
    return element('sb-sharding', args.named, placeholder('The sharding picture'));
  }
  const schema = engine.schema('array-memory');
  const run = runSharding(engine, schema, args.named);
  if (run.error) fail(run.error.message);
  return element('sb-sharding', args.named, shadow(shardingHTML({ schema, chips: engine.chips(), values: args.named, run })));
}

export function plannerDirective(ctx, args, fail) {
  const { engine } = ctx;
  const spec = args.named.spec ?? specDefault(engine, PLANNER, 'spec');
  checkSettings(args, { name: '::planner', fixed: ['spec', 'mesh', 'dtype', 'chip', 'wraparound'], spec, dimensions: true }, fail);
  if (!hasCalculator(engine, PLANNER)) return element('sb-sharded-matmul', args.named, placeholder('The sharded-matmul planner'));
  const schema = engine.schema(PLANNER);
  const run = runPlanner(engine, schema, args.named);
  if (run.error) fail(run.error.message);
  const inner = plannerHTML({ schema, chips: engine.chips(), values: args.named, run, tex: texToMathML });
  return element('sb-sharded-matmul', args.named, shadow(inner));
}

export function collectiveSimDirective(ctx, args, fail) {
  const { engine } = ctx;
  checkSettings(args, { name: '::collective-sim', fixed: [...SIM_FIELDS, 'sums'] }, fail);
  if (!hasCalculator(engine, COLLECTIVE) || typeof engine.simulateCollective !== 'function') {
    return element('sb-collective-sim', args.named, placeholder('The collective simulator'));
  }
  const schema = engine.schema(COLLECTIVE);
  const run = runCollective(engine, schema, args.named);
  if (run.error) fail(run.error.message);
  const inner = collectiveSimHTML({ schema, chips: engine.chips(), values: args.named, run, tex: texToMathML });
  return element('sb-collective-sim', args.named, shadow(inner));
}
