// The catalog directives of chapter 2. Each emits its element with the full first render in a
// declarative shadow root, so the page reads before any script; the element adds the rest.
//   ::chip-table [chips=ID,ID,...] [fields=FIELD,FIELD,...]   sortable catalog, notes on hover
//   ::slice [chip=tpu-v5e] [shape=4x4]                          a slice's chips, links, wraparound
//   ::my-chip                                                   the form defining "my chip"
import { escapeHtml } from '../errors.mjs';
import { chipTableModel, chipTableHTML } from '../../runtime/hardware/chip-table-view.js';
import { sliceHTML, torusChips, sliceOf, defaultShape } from '../../runtime/hardware/slice-view.js';
import { myChipHTML, defaultBase } from '../../runtime/hardware/my-chip.js';
import { schemaDefault } from '../../runtime/core/widget-form.js';
import { attributeName } from '../../runtime/core/widget-dom.js';
import { declarativeShadow } from '../../runtime/core/sheets.js';

function onlySettings(args, known, name, fail) {
  if (args.positional.length) fail(`unexpected "${args.positional[0]}"; use ${name} ${known.map((k) => `${k}=...`).join(' ')}`);
  for (const key of Object.keys(args.named)) {
    if (!known.includes(key)) fail(`${name} has no setting "${key}"; use ${known.join(', ') || 'none'}`);
  }
}

const list = (text) => (text === undefined ? null : text.split(',').map((s) => s.trim()).filter(Boolean));

function shadow(tag, attributes, inner) {
  const attrs = Object.entries(attributes).filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${attributeName(k)}="${escapeHtml(v)}"`).join('');
  return `<${tag}${attrs}>${declarativeShadow(tag, inner)}</${tag}>`;
}

export function chipTableDirective(ctx, args, fail) {
  onlySettings(args, ['chips', 'fields'], '::chip-table', fail);
  let model;
  try {
    model = chipTableModel(ctx.engine.chips(), { chips: list(args.named.chips), fields: list(args.named.fields) });
  } catch (error) {
    fail(error.message);
  }
  return shadow('sb-chip-table', { chips: args.named.chips, fields: args.named.fields }, chipTableHTML(model));
}

export function sliceDirective(ctx, args, fail) {
  onlySettings(args, ['chip', 'shape'], '::slice', fail);
  const catalog = torusChips(ctx.engine.chips());
  const id = args.named.chip ?? schemaDefault(ctx.engine.schema('slice'), 'chip');
  const chip = catalog.find((c) => c.id === id);
  if (!chip) fail(`chip "${id}" has no ICI torus in the catalog; choose from ${catalog.map((c) => c.id).join(', ')}`);
  const shape = args.named.shape ?? defaultShape(chip);
  const { slice, error } = sliceOf(ctx.engine, id, shape);
  if (error) fail(error.message);
  return shadow('sb-slice', { chip: id, shape }, sliceHTML({ catalog: ctx.engine.chips(), chip, shape, slice }));
}

export function myChipDirective(ctx, args, fail) {
  onlySettings(args, [], '::my-chip', fail);
  return shadow('sb-my-chip', {}, myChipHTML(ctx.engine.chips(), null, defaultBase(ctx.engine)));
}

// This domain's directives by name (directives.mjs gathers every domain's).
export const handlers = { 'chip-table': chipTableDirective, slice: sliceDirective, 'my-chip': myChipDirective };
