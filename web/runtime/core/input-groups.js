// How a form names and files a calculator's inputs, from its schema alone: each input's
// `label` and `choice_labels`, and its `group` (main, the overrides of a preset such as the
// reader's own chip, advanced). Shared by the generic calculator form (render.js) and the
// chapter 3 widgets' fields (widget-form.js). Pure: no DOM, no engine, no HTML.

export const GROUP_ORDER = ['main', 'override', 'advanced'];

// What a form calls the input: the schema's label, else its name.
export function inputLabel(input) {
  return input?.label || input?.name || '';
}

// The unit a label is followed by, or '' where the label says it already: the label ends with
// it (Peak FLOP/s: FLOP/s), or one of its words is the unit's word in any case, singular or
// plural (Chips: chips, Slices over DCN: slices, Forward FLOPs: FLOP), so nothing reads
// "Chips (chips)". Only units of three letters or more are words: "Token batch B" in bytes
// would still say so.
export function unitAfter(label, unit) {
  const text = String(label ?? '');
  if (!unit || text.endsWith(unit)) return '';
  const u = unit.toLowerCase();
  if (u.length < 3) return unit;
  const same = (w) => w === u || w === `${u}s` || w === `${u}es` || u === `${w}s` || u === `${w}es`;
  return text.toLowerCase().split(/[\s(),:;]+/).some(same) ? '' : unit;
}

// What a select shows for `choice`: a chip's catalog name for a chip preset, else the schema's
// choice label (one per choice, in order), else the choice itself. The option's value stays
// the choice.
export function choiceText(input, choice, chips = []) {
  if (input.preset === 'chip' || (!input.preset && input.name === 'chip')) {
    const chip = chips.find((c) => c.id === choice);
    if (chip) return chip.name;
  }
  const labels = input.choice_labels;
  const at = input.choices?.indexOf(choice) ?? -1;
  if (Array.isArray(labels) && labels.length === input.choices.length && at >= 0) return labels[at];
  return choice;
}

// `input` with only the choices `keep` leaves, its choice labels kept beside them.
export function withChoices(input, keep) {
  const pairs = input.choices.map((c, i) => [c, input.choice_labels?.[i]]).filter(([c]) => keep(c));
  const out = { ...input, choices: pairs.map(([c]) => c) };
  if (Array.isArray(input.choice_labels) && input.choice_labels.length === input.choices.length) {
    out.choice_labels = pairs.map(([, label]) => label);
  } else delete out.choice_labels;
  return out;
}

// The preset ('chip', 'model') an override input changes a number of. The schema's word when it
// gives one (`overrides`); else the calculator's only preset input; with several, a field the
// chip catalog has (a key of a chips() entry) is the chip's and any other the other preset's.
export function overridePreset(schema, input, chips = []) {
  if (input.overrides) return input.overrides;
  const presets = [...new Set(schema.inputs.filter((i) => i.preset).map((i) => i.preset))];
  if (presets.length <= 1) return presets[0] ?? 'chip';
  if (presets.includes('chip') && chips.some((c) => Object.hasOwn(c, input.name))) return 'chip';
  return presets.find((p) => p !== 'chip') ?? presets[0];
}

// The heading of a group: the preset's for overrides ("Your own chip", "Your own model").
export function groupTitle(group, preset = '') {
  if (group === 'override') return `Your own ${preset || 'chip'}`;
  if (group === 'advanced') return 'Advanced';
  return 'Inputs';
}

// The inputs in the form's order: [{ group, preset, title, inputs }], main first, then one
// group of overrides per preset (in the order its preset input comes), then advanced; empty
// groups are left out. An input without a group is a main one.
export function inputGroups(schema, { chips = [], inputs = schema.inputs } = {}) {
  const groups = [];
  const find = (group, preset = '') => {
    let g = groups.find((x) => x.group === group && x.preset === preset);
    if (!g) groups.push(g = { group, preset, title: groupTitle(group, preset), inputs: [] });
    return g;
  };
  const presetOrder = schema.inputs.filter((i) => i.preset).map((i) => i.preset);
  for (const input of inputs) {
    const group = GROUP_ORDER.includes(input.group) ? input.group : 'main';
    find(group, group === 'override' ? overridePreset(schema, input, chips) : '').inputs.push(input);
  }
  const rank = (g) => GROUP_ORDER.indexOf(g.group) * 100 +
    (g.group === 'override' ? (presetOrder.indexOf(g.preset) + 100) % 100 : 0);
  return groups.sort((a, b) => rank(a) - rank(b));
}
