// ::plot collective-bandwidth [op=all-gather] [chip=tpu-v5e] [axis_size=16 | axes=8x16] [wraparound=yes]
// The bandwidth a collective reaches against the array's size as <sb-collective-sweep>, its
// first plot computed by the engine at build time (declarative shadow DOM), so the page reads
// before any script. The engine checks every value; a bad one fails the build at the line.
import { escapeHtml } from './errors.mjs';
import { CALCULATOR, collectiveSweepHTML, runSweep, settingsValues } from '../runtime/bandwidth-plot.js';
import { SHADOW_CSS, BANDWIDTH_CSS } from '../runtime/styles.js';

const SETTINGS = ['op', 'chip', 'axis_size', 'axes', 'wraparound'];

export function collectiveBandwidthPlotHTML(ctx, args, fail) {
  for (const key of Object.keys(args.named)) {
    if (!SETTINGS.includes(key)) fail(`collective-bandwidth has no setting "${key}"; use ${SETTINGS.join(', ')}`);
  }
  if (args.named.axis_size !== undefined && args.named.axes !== undefined) fail('give axis_size or axes, not both');
  const values = settingsValues((name) => args.named[name]);
  const run = runSweep(ctx.engine, values);
  if (run.error) fail(run.error.message);
  const inner = collectiveSweepHTML({
    css: `${SHADOW_CSS}${BANDWIDTH_CSS}`, schema: ctx.engine.schema(CALCULATOR), chips: ctx.engine.chips(), values, run,
  });
  const attributes = SETTINGS.filter((name) => args.named[name] !== undefined)
    .map((name) => ` ${name.replace('_', '-')}="${escapeHtml(args.named[name])}"`).join('');
  return `<sb-collective-sweep${attributes}><template shadowrootmode="open">${inner}</template></sb-collective-sweep>`;
}
