// A schema whose labels a reader can read. A few labels are only their name (the plan's
// `alpha`, `X_opt`; the optimizer's column `M_X`), which puts an identifier on the page where
// words should be. Each such label takes the words the engine gives the same name elsewhere:
// the same schema's input or output first (a column repeating an output), else the label every
// other calculator of the module that has that name agrees on. Nothing is typed here: every
// label shown is the engine's. The builder and the elements both call this, so the static page
// and the live one say the same.

// A label that reads as an identifier: one word with an underscore (M_X), or all lower case
// (alpha). An input without a label is left to the form (its name is its label there).
export function isIdentifier(label) {
  return Boolean(label) && !/\s/.test(label) && (label.includes('_') || label === label.toLowerCase());
}

const cache = new WeakMap(); // engine -> name -> the readable labels the engine gives it

function labelsByName(engine) {
  let byName = cache.get(engine);
  if (byName) return byName;
  byName = new Map();
  for (const { name } of engine.list()) {
    let schema;
    try {
      schema = engine.schema(name);
    } catch {
      continue; // a calculator this module lacks
    }
    const specs = [...schema.inputs, ...schema.outputs, ...(schema.tables ?? []).flatMap((t) => t.columns)];
    for (const spec of specs) {
      if (!spec.label || isIdentifier(spec.label)) continue;
      if (!byName.has(spec.name)) byName.set(spec.name, new Set());
      byName.get(spec.name).add(spec.label);
    }
  }
  cache.set(engine, byName);
  return byName;
}

// The readable label for spec `name` of `schema`, or null: the schema's own first, then the
// engine's when all its calculators agree (one label, not a guess among several).
function readable(engine, schema, name) {
  const own = [...schema.inputs, ...schema.outputs].find((s) => s.name === name && s.label && !isIdentifier(s.label));
  if (own) return own.label;
  const elsewhere = labelsByName(engine).get(name);
  return elsewhere?.size === 1 ? [...elsewhere][0] : null;
}

// engine.schema(calculator), with each identifier label replaced where a readable one exists.
export function labelledSchema(engine, calculator) {
  const schema = engine.schema(calculator);
  const relabel = (spec) => {
    if (!isIdentifier(spec.label)) return spec;
    const label = readable(engine, schema, spec.name);
    return label ? { ...spec, label } : spec;
  };
  return {
    ...schema,
    inputs: schema.inputs.map(relabel),
    outputs: schema.outputs.map(relabel),
    tables: (schema.tables ?? []).map((t) => ({ ...t, columns: t.columns.map(relabel) })),
  };
}
