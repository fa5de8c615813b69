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
  const inputs = expression.slice(positional[0].length).trim();
  return {
    text,
    isText: spec.type === 'text',
    source: `${positional[0]} ${inputs}`.trim(),
    words: sourceWords(engine, schema, spec, named),
    command: `scalebook calc ${calculator}${inputs ? ` ${inputs}` : ''}`,
  };
}

// Where a number comes from, in words: "Peak FLOP/s of the NVIDIA H100 SXM (chip catalog:
// chapter 2 spec table)", "Compute time for FLOPs 1e12 on the TPU v6e, worked out by the
// roofline calculator". A chip's own figure names the catalog's note on its source.
function sourceWords(engine, schema, spec, named) {
  const chipInput = schema.inputs.find((i) => i.name === 'chip');
  const chipId = named.chip ?? chipInput?.default;
  const chip = chipId ? engine.chips().find((c) => c.id === chipId) : null;
  const chipNote = chip?.notes?.[spec.name];
  if (chip && chipNote && !Object.keys(named).some((k) => k !== 'chip' && k !== 'dtype')) {
    const dtype = named.dtype ? ` in ${named.dtype}` : '';
    return `${spec.label} of the ${chip.name}${dtype}, from the chip catalog: ${chipNote}`;
  }
  const given = Object.entries(named).filter(([name]) => name !== 'chip').map(([name, value]) => {
    const input = schema.inputs.find((i) => i.name === name);
    if (!input) return `${name} ${value}`;
    if (input.type === 'number' && value !== '' && Number.isFinite(Number(value))) return `${input.label} ${formatValue(Number(value), input.unit, 'si')}`;
    const models = name === 'model' ? engine.models() : [];
    return `${input.label} ${models.find((m) => m.id === value)?.name ?? value}`;
  });
  const on = chip ? ` on the ${chip.name}${named.chip ? '' : ' (the default chip)'}` : '';
  return `${spec.label}${given.length ? ` for ${given.join(', ')}` : ''}${on}, worked out by the ${schema.name} calculator`;
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
  // The transformer calculator's label of the field ("Model width (D)"), the one human name.
  const label = engine.schema('transformer').inputs.find((i) => i.name === field)?.label;
  const what = label ?? { params: 'Parameter count', params_active: 'Active parameters per token' }[field] ?? field;
  const words = `${what} of ${model.name}, from the model catalog${entry?.note ? `: ${entry.note}` : ''}`;
  return {
    text: formatValue(value, '', style), isText: typeof value === 'string',
    source: `model.${field} model=${named.model}`, words, command: `scalebook model ${named.model}`,
  };
}

export function schemaOrFail(engine, calculator, fail) {
  try {
    return engine.schema(calculator);
  } catch (error) {
    return fail(error.message);
  }
}

// Replaces every {{...}} in `markdown` with the engine's value. Its source, in words and as the
// CLI command that gives it, opens on hover, tap or focus (a focusable span describing itself
// by its note; CSS shows the note, so it works before and without any script).
// `firstLine` is the line of markdown's first line in `file`.
export function substituteValues(engine, markdown, file, firstLine = 1) {
  return markdown
    .split('\n')
    .map((lineText, i) => {
      let n = 0;
      return lineText.replace(INLINE, (_, source) => {
        const value = evaluateValue(engine, source, file, firstLine + i);
        // Numbers stay on one line; a text value (a rule, a topology note) may wrap.
        const cls = value.isText ? 'sb-value sb-text' : 'sb-value';
        const id = `src-${firstLine + i}-${n++}`;
        return `<span class="${cls}" tabindex="0" aria-describedby="${id}" data-source="${escapeHtml(value.source)}">${escapeHtml(value.text)}` +
          `<span class="sb-source" id="${id}" role="tooltip">${escapeHtml(value.words)}. ` +
          `<code>${escapeHtml(value.command)}</code></span></span>`;
      });
    })
    .join('\n');
}

// A directive's outputs=a,b,c: the schema's outputs the element shows (in the schema's order),
// for a focused view of a calculator (chapter 5's pods-and-days estimate of the run budget).
// Absent: every output. An unknown name fails the build naming it.
export function shownOutputs(schema, text, fail) {
  if (text === undefined) return null;
  const names = String(text).split(',').map((s) => s.trim()).filter(Boolean);
  const known = new Set(schema.outputs.map((o) => o.name));
  const unknown = names.filter((n) => !known.has(n));
  if (!names.length || unknown.length) {
    fail(`outputs: ${unknown.length ? `${schema.name} has no output ${unknown.map((n) => `"${n}"`).join(', ')}` : 'name at least one output'}`);
  }
  return names;
}
