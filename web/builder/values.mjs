// Inline engine values: {{calculator.output key=value ... | format}}.
import { BuildError, escapeHtml } from './errors.mjs';
import { parseArgs } from './args.mjs';
import { formatValue, FORMAT_STYLES } from '../runtime/core/format.js';

const INLINE = /\{\{([^{}]*)\}\}/g;

// Runs the calculator and returns { text, title } or throws a BuildError.
export function evaluateValue(engine, source, file, line) {
  const [expression, styleText] = source.split('|').map((s) => s.trim());
  const style = styleText || 'si';
  const { positional, named, duplicates } = parseArgs(expression);
  const fail = (message) => {
    throw new BuildError(file, line, `{{${source.trim()}}}: ${message}`);
  };
  if (positional.length !== 1 || !/^[\w-]+\.\w+$/.test(positional[0])) {
    fail('expected calculator.output followed by key=value inputs');
  }
  if (duplicates.length) fail(`input ${duplicates[0]} is given twice`);
  if (!FORMAT_STYLES.includes(style)) fail(`unknown format "${style}"; use ${FORMAT_STYLES.join(', ')}`);
  const [calculator, output] = positional[0].split('.');
  if (calculator === 'model') return modelValue(engine, output, named, style, fail);
  const schema = schemaOrFail(engine, calculator, fail);
  const spec = schema.outputs.find((o) => o.name === output);
  if (!spec) fail(`${calculator} has no output "${output}"; its outputs are ${schema.outputs.map((o) => o.name).join(', ')}`);
  let result;
  try {
    result = engine.calculate(calculator, named, { steps: false });
  } catch (error) {
    fail(error.message);
  }
  const text = formatValue(result[output], spec.unit, style);
  return { text, isText: spec.type === 'text', title: `computed by the engine: ${positional[0]} ${expression.slice(positional[0].length).trim()}`.trim() };
}

// {{model.FIELD model=ID | format}}: a field of the model catalog (D, E, experts_per_token, ...)
// or its parameter counts (params, params_active), as the chapters' prose quotes a preset.
function modelValue(engine, field, named, style, fail) {
  const keys = Object.keys(named);
  if (keys.length !== 1 || keys[0] !== 'model') fail('expected model.FIELD model=ID');
  const models = engine.models();
  const model = models.find((m) => m.id === named.model);
  if (!model) fail(`unknown model "${named.model}"; choose from ${models.map((m) => m.id).join(', ')}`);
  const entry = model.fields.find((f) => f.name === field);
  const counts = ['params', 'params_active'];
  if (!entry && !counts.includes(field)) {
    fail(`models have no field "${field}"; use ${[...model.fields.map((f) => f.name), ...counts].join(', ')}`);
  }
  const value = entry ? entry.value : model[field];
  const title = `from the model catalog: ${model.name}, ${field}${entry?.note ? ` (${entry.note})` : ''}`;
  return { text: formatValue(value, '', style), isText: typeof value === 'string', title };
}

export function schemaOrFail(engine, calculator, fail) {
  try {
    return engine.schema(calculator);
  } catch (error) {
    return fail(error.message);
  }
}

// Replaces every {{...}} in `markdown` with the engine's value, as a span whose title says
// where the number comes from. `firstLine` is the line of markdown's first line in `file`.
export function substituteValues(engine, markdown, file, firstLine = 1) {
  return markdown
    .split('\n')
    .map((lineText, i) =>
      lineText.replace(INLINE, (_, source) => {
        const { text, isText, title } = evaluateValue(engine, source, file, firstLine + i);
        // Numbers stay on one line; a text value (a rule, a topology note) may wrap.
        const cls = isText ? 'sb-value sb-text' : 'sb-value';
        return `<span class="${cls}" title="${escapeHtml(title)}">${escapeHtml(text)}</span>`;
      }),
    )
    .join('\n');
}
