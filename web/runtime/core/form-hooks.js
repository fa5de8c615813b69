// What a domain adds to every calculator's form, registered by that domain so that core imports
// none: attach(root, recalc) wires a form once, before the element's own listeners (recalc runs
// the calculation again); resolve(values) maps the form's values before the engine sees them.
// hardware/my-chip-hook.js registers "My chip" (its entry in the chip list, and the overrides).
const hooks = [];

export function registerFormHook(hook) {
  if (!hooks.includes(hook)) hooks.push(hook);
}

export function attachFormHooks(root, recalc) {
  for (const hook of hooks) hook.attach?.(root, recalc);
}

export function resolveFormValues(values) {
  return hooks.reduce((out, hook) => (hook.resolve ? hook.resolve(out) : out), values);
}
