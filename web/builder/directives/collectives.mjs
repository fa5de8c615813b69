// The collectives directives of chapter 3. Each emits its element with the first render computed
// by the engine at build time in a declarative shadow root, so the page reads before any script;
// the engine checks every value, and a bad one fails the build at the directive's line.
//   ::plot collective-sweep [op=all-gather] [chip=tpu-v5e] [axis_size=16 | axes=8x16] [wraparound=yes]
//       [latency=..] [cluster=..] [in_network=yes|no]
//       the bandwidth a collective reaches against the array's size (<sb-collective-sweep>); on a
//       GPU (chip=h100) the form takes the latency, the cluster and in-network reduction
//   ::collective-sim [op=..] [shape=8|4x4] [bytes=..] [wraparound=..] [bidirectional=..] [latency=..] [chip=..] [sums=yes]
//       a collective played step by step (<sb-collective-sim>); an engine built without the
//       simulation gets the bare element, which renders itself in the browser
import { escapeHtml } from '../errors.mjs';
import { CALCULATOR, collectiveSweepHTML, runSweep, settingsValues } from '../../runtime/collectives/bandwidth-plot.js';
import { CALCULATOR as COLLECTIVE, SIM_FIELDS, runCollective, collectiveSimHTML } from '../../runtime/collectives/collective-view.js';
import { texToMathML } from '../../runtime/core/mathml.js';
import { attributeName } from '../../runtime/core/widget-dom.js';
import { hasCalculator, checkSettings, element, shadow, placeholder } from './elements.mjs';

const SWEEP_SETTINGS = ['op', 'chip', 'axis_size', 'axes', 'wraparound', 'latency', 'cluster', 'in_network'];

export function collectiveSweepPlotHTML(ctx, args, fail) {
  for (const key of Object.keys(args.named)) {
    if (!SWEEP_SETTINGS.includes(key)) fail(`collective-sweep has no setting "${key}"; use ${SWEEP_SETTINGS.join(', ')}`);
  }
  if (args.named.axis_size !== undefined && args.named.axes !== undefined) fail('give axis_size or axes, not both');
  const values = settingsValues((name) => args.named[name]);
  const run = runSweep(ctx.engine, values);
  if (run.error) fail(run.error.message);
  const inner = collectiveSweepHTML({
    schema: ctx.engine.schema(CALCULATOR), chips: ctx.engine.chips(), values, run,
  });
  const attributes = SWEEP_SETTINGS.filter((name) => args.named[name] !== undefined)
    .map((name) => ` ${attributeName(name)}="${escapeHtml(args.named[name])}"`).join('');
  return `<sb-collective-sweep${attributes}>${shadow('sb-collective-sweep', inner)}</sb-collective-sweep>`;
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
  return element('sb-collective-sim', args.named, shadow('sb-collective-sim', inner));
}

// This domain's directives by name, and its kinds of ::plot KIND (directives.mjs gathers them).
export const handlers = { 'collective-sim': collectiveSimDirective };
export const plots = { 'collective-sweep': collectiveSweepPlotHTML };
