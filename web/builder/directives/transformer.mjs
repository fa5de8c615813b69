// ::transformer [model=llama-3-70b] [B=1] [T=4096] [dtype=bf16] [causal=no] [K=16] ...
// One Transformer layer with the engine's numbers per block, the totals and attention's share
// of the FLOPs against context length (<sb-transformer>). Any catalog field (L, D, F, N, K, H,
// V, gated, E, experts_per_token, ...) overrides the preset's. The first render is static HTML
// in a declarative shadow root, so the numbers read before any script runs.
import { escapeHtml } from '../errors.mjs';
import { attributeName } from '../../runtime/core/widget-dom.js';
import {
  ALL_FIELDS, formValues, engineInputs, evaluate, shareCurve, transformerHTML,
} from '../../runtime/transformer/transformer-view.js';
import { declarativeShadow } from '../../runtime/core/sheets.js';
import '../sheets.mjs'; // every domain's CSS and its elements' sheets, which declarativeShadow reads
import { modelConfigHTML } from '../../runtime/transformer/model-config-view.js';

export function transformerDirective(ctx, args, fail) {
  if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ::transformer key=value ...`);
  for (const key of Object.keys(args.named)) {
    if (!ALL_FIELDS.includes(key)) fail(`::transformer has no setting "${key}"; use ${ALL_FIELDS.join(', ')}`);
  }
  const models = ctx.engine.models();
  const schema = ctx.engine.schema('transformer');
  const model = args.named.model;
  if (model !== undefined && model !== 'custom' && !models.some((m) => m.id === model)) {
    fail(`unknown model "${model}"; choose from ${models.map((m) => m.id).join(', ')}, custom`);
  }
  const values = formValues(models, schema, args.named);
  const inputs = engineInputs(models, values);
  const { result, error } = evaluate(ctx.engine, inputs);
  if (error) fail(error.message);
  const curve = shareCurve(ctx.engine, inputs);
  const attrs = Object.entries(args.named).map(([k, v]) => ` ${attributeName(k)}="${escapeHtml(v)}"`).join('');
  const inner = transformerHTML({ models, schema, values, result, curve });
  return `<sb-transformer${attrs}>${declarativeShadow('sb-transformer', inner)}</sb-transformer>`;
}

// ::model-config
// A paste box for a Hugging Face config.json (<sb-model-config>), with example buttons for
// the catalog's presets' configs, which the build copies to assets/model-configs/.
export function modelConfigDirective(_ctx, args, fail) {
  const [extra] = [...args.positional, ...Object.keys(args.named)];
  if (extra !== undefined) fail(`::model-config takes no settings, got "${extra}"`);
  return `<sb-model-config>${declarativeShadow('sb-model-config', modelConfigHTML())}</sb-model-config>`;
}

// This domain's directives by name (directives.mjs gathers every domain's).
export const handlers = { transformer: transformerDirective, 'model-config': modelConfigDirective };
