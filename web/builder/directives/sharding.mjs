// The directives of chapter 3's sharding section. Each emits its element with the first render
// in a declarative shadow root, computed by the engine at build time, so the page reads before
// any script; the engine checks every value, and a bad one fails the build at the directive's line.
//   ::sharding [array=A[I_XY,J]] [mesh=X=2,Y=2] [I=1024 J=4096] [dtype=fp32] [chip=h100]
//   ::sharded-matmul [spec=...] [mesh=...] [I=.. J=.. K=..] [dtype=..] [chip=..] [wraparound=..]
// (::collective-sim is in collectives.mjs.) Values with spaces are quoted: array="A[I_XY, J]".
// An engine built without the calculator a directive needs (a branch before the engine's) gets
// the bare element with a line saying it loads with the page; the element then renders itself
// in the browser.
import { runSharding, shardingHTML } from '../../runtime/sharding/sharding-view.js';
import { CALCULATOR as PLANNER, runPlanner, plannerHTML } from '../../runtime/sharding/planner-view.js';
import { texToMathML } from '../../runtime/core/mathml.js';
import { hasCalculator, checkSettings, element, shadow, placeholder } from './elements.mjs';

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
  return element('sb-sharding', args.named, shadow('sb-sharding', shardingHTML({ schema, chips: engine.chips(), values: args.named, run })));
}

export function shardedMatmulDirective(ctx, args, fail) {
  const { engine } = ctx;
  const spec = args.named.spec ?? specDefault(engine, PLANNER, 'spec');
  checkSettings(args, { name: '::sharded-matmul', fixed: ['spec', 'mesh', 'dtype', 'chip', 'wraparound'], spec, dimensions: true }, fail);
  if (!hasCalculator(engine, PLANNER)) return element('sb-sharded-matmul', args.named, placeholder('The sharded-matmul planner'));
  const schema = engine.schema(PLANNER);
  const run = runPlanner(engine, schema, args.named);
  if (run.error) fail(run.error.message);
  const inner = plannerHTML({ schema, chips: engine.chips(), values: args.named, run, tex: texToMathML });
  return element('sb-sharded-matmul', args.named, shadow('sb-sharded-matmul', inner));
}

// This domain's directives by name (directives.mjs gathers every domain's).
export const handlers = { sharding: shardingDirective, 'sharded-matmul': shardedMatmulDirective };
