// "My chip": a chip the reader defines once (<sb-my-chip>) and picks in every calculator's chip
// list. It is stored in localStorage under `scalebook.mychip` as
//   { "version": 1, "chip": { name, base, peak_flops, hbm_bandwidth, hbm_capacity, comm_bandwidth } }
// with the numbers as the strings the reader typed (the engine parses them). `base` is the
// catalog chip it starts from: whatever it does not override (dtypes, MXUs, ...) comes from there;
// when none is stored, the roofline calculator's default chip (the engine's default).
// Picking "My chip: NAME" in a calculator passes chip=base and fills the calculator's override
// fields (peak_flops, hbm_bandwidth, comm_bandwidth) it has.
import { CalculatorError } from '../../../bindings/wasm/engine.mjs';
import { escapeHTML } from '../core/escape.js';
import { schemaDefault } from '../core/widget-form.js';

export const STORAGE_KEY = 'scalebook.mychip';
export const VERSION = 1;
export const MY_CHIP = 'my-chip';
export const CHANGE_EVENT = 'scalebook-mychip';
// The fields a calculator can override, in the order the form shows them.
export const OVERRIDES = ['peak_flops', 'hbm_bandwidth', 'comm_bandwidth'];
const TEXT_FIELDS = ['name', 'base', ...OVERRIDES, 'hbm_capacity'];
// The calculator that checks my chip (it takes all three overrides); its chip input's default is
// the base of a chip that names none.
const CHECKED_BY = 'roofline';

export function defaultBase(engine) {
  return schemaDefault(engine.schema(CHECKED_BY), 'chip');
}

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage blocked (a sandboxed embed): no chip, no crash
  }
}

// { chip, notice } from the stored text: chip null when absent; notice set when the entry is
// unreadable, from another version or malformed (the entry is then ignored, not deleted). A chip
// stored without a base keeps base '': the calculators then take their default chip.
export function parseMyChip(text) {
  if (text === null || text === undefined) return { chip: null, notice: '' };
  const ignored = (why) => ({ chip: null, notice: `Your saved chip could not be read (${why}) and is ignored; save it again to replace it.` });
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return ignored('not JSON');
  }
  if (!data || typeof data !== 'object') return ignored('not an object');
  if (data.version !== VERSION) return ignored(`version ${JSON.stringify(data.version)}, expected ${VERSION}`);
  const chip = data.chip;
  if (!chip || typeof chip !== 'object') return ignored('no chip');
  for (const key of TEXT_FIELDS) {
    if (chip[key] !== undefined && typeof chip[key] !== 'string') return ignored(`${key} is not text`);
  }
  if (!chip.name?.trim()) return ignored('no name');
  const clean = Object.fromEntries(TEXT_FIELDS.map((key) => [key, (chip[key] ?? '').trim()]));
  return { chip: clean, notice: '' };
}

export function loadMyChip() {
  try {
    return parseMyChip(storage()?.getItem(STORAGE_KEY) ?? null);
  } catch {
    return parseMyChip(null);
  }
}

function announce() {
  globalThis.dispatchEvent?.(new CustomEvent(CHANGE_EVENT));
}

export function saveMyChip(chip) {
  storage()?.setItem(STORAGE_KEY, JSON.stringify({ version: VERSION, chip }));
  announce();
}

export function clearMyChip() {
  storage()?.removeItem(STORAGE_KEY);
  announce();
}

// Checks every field at once through the engine (the roofline calculator takes all three
// overrides, each checked alone so one bad field does not hide another) and words each problem
// with the form's label. Returns { chip, result } or { errors: [{ field, message }, ...] } in
// the form's order.
export function validateMyChip(engine, fields) {
  const chip = Object.fromEntries(TEXT_FIELDS.map((key) => [key, String(fields[key] ?? '').trim()]));
  chip.base ||= defaultBase(engine);
  const errors = [];
  const fail = (field, message) => errors.push({ field, message });
  if (!chip.name) fail('name', `${labelOf('name')} is required`);
  else if (chip.name.length > 40) fail('name', `${labelOf('name')} must be at most 40 characters, got ${chip.name.length}`);
  const inputs = { chip: chip.base };
  for (const key of OVERRIDES) {
    if (!chip[key]) {
      fail(key, `${labelOf(key)} is required`);
      continue;
    }
    const alone = checkOne(engine, { chip: chip.base, [key]: chip[key] });
    if (alone) fail(alone.field || key, inLabelWords(alone));
    inputs[key] = chip[key];
  }
  // No calculator takes HBM capacity, so it is checked here, in the engine's words.
  if (chip.hbm_capacity && !(Number(chip.hbm_capacity) > 0)) {
    const nan = Number.isNaN(Number(chip.hbm_capacity));
    fail('hbm_capacity', `${labelOf('hbm_capacity')} must be ${nan ? 'a number' : '> 0'}, got ${nan ? `"${chip.hbm_capacity}"` : chip.hbm_capacity}`);
  }
  if (errors.length) {
    const order = FORM_FIELDS.map((f) => f.name);
    return { errors: errors.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field)) };
  }
  const all = checkOne(engine, inputs);
  if (all) return { errors: [{ field: all.field, message: inLabelWords(all) }] };
  return { chip, result: engine.calculate(CHECKED_BY, inputs, { steps: false }) };
}

function checkOne(engine, inputs) {
  try {
    engine.calculate(CHECKED_BY, inputs, { steps: false });
    return null;
  } catch (err) {
    if (err instanceof CalculatorError) return { field: err.field, message: err.message };
    throw err;
  }
}

// The engine's message starts with the input's name ("peak_flops must be >= 1, got -1"): the
// form says its label instead ("bf16 peak must be >= 1, got -1").
function inLabelWords({ field, message }) {
  const label = labelOf(field);
  return label && message.startsWith(`${field} `) ? `${label}${message.slice(field.length)}` : message;
}

// ---- The hook for calculator elements ----

// Form values with "my-chip" replaced by the base chip; empty override fields take my chip's.
export function resolveMyChip(values) {
  if (values.chip !== MY_CHIP) return values;
  const { chip } = loadMyChip();
  if (!chip) return values; // the engine then names the unknown chip
  const resolved = { ...values, chip: chip.base };
  for (const key of OVERRIDES) {
    if (key in values && values[key] === '') resolved[key] = chip[key];
  }
  return resolved;
}

function offerOption(select, chip) {
  let option = [...select.options].find((o) => o.value === MY_CHIP);
  if (!chip) {
    if (option && select.value !== MY_CHIP) option.remove();
    return;
  }
  if (!option) {
    option = new Option('', MY_CHIP);
    select.add(option);
  }
  option.textContent = `My chip: ${chip.name}`;
}

// Called once per calculator's shadow root, before its own listeners: offers my chip in the
// chip list (only where the form has an override field to fill) and fills / clears the
// override fields when it is picked / left. `recalc` runs when my chip changes elsewhere.
export function attachMyChip(root, recalc) {
  const select = root.querySelector('select[name="chip"]');
  const form = select?.form;
  if (!form || !OVERRIDES.some((key) => form.elements.namedItem(key))) return;
  let previous = select.value;
  let filled = {};
  const fill = () => {
    const { chip } = loadMyChip();
    offerOption(select, chip);
    if (select.value === MY_CHIP && chip) {
      filled = {};
      for (const key of OVERRIDES) {
        const input = form.elements.namedItem(key);
        if (!input) continue;
        input.value = filled[key] = chip[key];
        const details = input.closest('details'); // its group ("Your own chip"), shown filled
        if (details) details.open = true;
      }
    } else if (previous === MY_CHIP) {
      for (const [key, value] of Object.entries(filled)) {
        const input = form.elements.namedItem(key);
        if (input?.value === value) input.value = '';
      }
      filled = {};
    }
    previous = select.value;
  };
  offerOption(select, loadMyChip().chip);
  const onPick = (event) => {
    if (event.target === select && select.value !== previous) fill();
  };
  root.addEventListener('input', onPick);
  root.addEventListener('change', onPick);
  const onStored = () => {
    if (!select.isConnected) return;
    const wasMine = select.value === MY_CHIP;
    fill();
    if (wasMine) recalc();
  };
  globalThis.addEventListener?.(CHANGE_EVENT, onStored);
  globalThis.addEventListener?.('storage', (event) => { if (event.key === STORAGE_KEY) onStored(); });
}

// ---- The form of <sb-my-chip> (builder and element) ----

const FORM_FIELDS = [
  { name: 'name', label: 'Name', unit: '', hint: 'e.g. H100 at 70% of peak', required: true },
  { name: 'peak_flops', label: 'bf16 peak', unit: 'FLOP/s', hint: 'e.g. 9.89e14', required: true },
  { name: 'hbm_bandwidth', label: 'HBM bandwidth', unit: 'B/s', hint: 'e.g. 3.35e12', required: true },
  { name: 'hbm_capacity', label: 'HBM capacity', unit: 'B', hint: 'e.g. 8e10', required: false },
  { name: 'comm_bandwidth', label: 'ICI / NVLink bandwidth', unit: 'B/s', hint: 'e.g. 4.5e10', required: true },
];
const labelOf = (name) => FORM_FIELDS.find((f) => f.name === name)?.label ?? (name === 'base' ? 'Based on' : '');

const esc = escapeHTML;

// `base`: the chip the "based on" list starts on when no chip is saved (defaultBase(engine)).
export function myChipHTML(catalog, chip = null, base = '') {
  const fields = FORM_FIELDS.map((f) => `<div class="field"><label for="my-${f.name}">${esc(f.label)}` +
    `${f.unit ? ` <span class="unit">(${esc(f.unit)})</span>` : ''}` +
    `${f.required ? ' <span class="required">required</span>' : ' <span class="unit">optional</span>'}</label>` +
    `<input id="my-${f.name}" name="${f.name}" type="text" autocomplete="off" spellcheck="false"${f.required ? ' aria-required="true"' : ''} ` +
    `${f.name === 'name' ? '' : 'inputmode="decimal" '}placeholder="${esc(f.hint)}" value="${esc(chip?.[f.name])}" aria-describedby="my-err-${f.name}">` +
    `<span class="error" id="my-err-${f.name}" data-error-for="${f.name}"></span></div>`);
  const chosen = chip?.base || base;
  const options = catalog.map((c) => `<option value="${esc(c.id)}"${c.id === chosen ? ' selected' : ''}>${esc(c.name)}</option>`).join('');
  const baseField = `<div class="field"><label for="my-base">Based on</label><select id="my-base" name="base" ` +
    `title="the catalog chip that supplies everything you do not set (dtypes, MXUs, links)" aria-describedby="my-err-base">${options}</select>` +
    `<span class="error" id="my-err-base" data-error-for="base"></span></div>`;
  return `<form class="sb-my-chip" novalidate><p class="desc">Define your own chip once: every calculator's chip list ` +
    `then offers it as “My chip”. It is kept in this browser only.</p>` +
    `<p class="notice" data-notice role="status"></p>` +
    `<div class="fields">${fields[0]}${baseField}${fields.slice(1).join('')}</div>` +
    `<p class="error general" data-error-for=""></p>` +
    `<div class="actions"><button type="submit" data-save>Save my chip</button>` +
    `<button type="button" data-clear>Forget it</button></div>` +
    `<p class="message" data-message role="status" aria-live="polite"></p></form>`;
}
