// A calculator as its element, computed at build time: <sb-NAME id outputs attributes> with the
// schema's form and outputs in a declarative shadow root, then extras(result, values) (the
// explorer's layer, the search's tables, the budget's bars), so the page reads before the script
// loads. Shared by ::calculator NAME and the directives named after their calculator. An `id`
// is kept in ctx.calculators, for ::plot ... for=ID and {{ID.output}}.
import { escapeHtml } from '../errors.mjs';
import { schemaOrFail, shownOutputs } from '../values.mjs';
import { calculatorHTML } from '../../runtime/core/render.js';
import { attributeName } from '../../runtime/core/widget-dom.js';
import { declarativeShadow } from '../../runtime/core/sheets.js';
import '../sheets.mjs'; // every domain's CSS and its elements' sheets, which declarativeShadow reads

// options.lead: the outputs drawn first, before the form (render.js's calculatorHTML).
export function calculatorElementHTML(ctx, name, named, fail, extras = () => '', { lead = null } = {}) {
  const schema = schemaOrFail(ctx.engine, name, fail);
  const { id, outputs, ...values } = named;
  const shown = shownOutputs(schema, outputs, fail);
  if (id !== undefined && !/^[\w-]+$/.test(id)) fail(`id must be letters, digits, - or _, got "${id}"`);
  if (id && ctx.calculators?.has(id)) fail(`id "${id}" is used twice on this page`);
  let result;
  try {
    result = ctx.engine.calculate(name, values, { steps: false });
  } catch (error) {
    fail(error.message);
  }
  if (id) ctx.calculators?.set(id, { name, schema, result, values });
  const attributes = [id ? ` id="${escapeHtml(id)}"` : '', shown ? ` outputs="${escapeHtml(shown.join(','))}"` : '',
    ...Object.entries(values).map(([key, value]) => ` ${attributeName(key)}="${escapeHtml(value)}"`)];
  const inner = calculatorHTML({ schema, values, result, chips: ctx.engine.chips(), shown, lead }) + extras(result, values);
  return `<sb-${name}${attributes.join('')}>${declarativeShadow(`sb-${name}`, inner)}</sb-${name}>`;
}
