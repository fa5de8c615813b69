// DOM helpers shared by the form-driven elements (chapter 3's, the systolic simulation): read a form, show the engine's error beside
// the field it names (with the offending character marked), clear errors, set a field; and the
// one rule from an input name to the element attribute that carries it.
import { errorHTML } from './widget-form.js';

// The attribute of an element that carries the calculator input `inputName`: the name in lower
// case, underscores kept (axis_size -> axis_size, dtype_weights -> dtype_weights, B -> b). HTML
// lower-cases attribute names, so the rule also reads an attribute back. Every element and
// directive maps names with this, and nothing else.
export function attributeName(inputName) {
  return String(inputName).toLowerCase();
}

// Field strings by name (trimmed); a checkbox reads "yes" when ticked and "" when not.
export function readFields(form) {
  const values = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    values[el.name] = el.type === 'checkbox' ? (el.checked ? 'yes' : '') : el.value.trim();
  }
  return values;
}

export function clearErrors(root) {
  for (const slot of root.querySelectorAll('[data-error-for]')) slot.textContent = '';
  for (const field of root.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
  root.querySelector('.sb-calc')?.classList.remove('is-stale');
}

// The message goes beside its field, or in the general slot when no field has that name (a
// folded <details> around it opens); `stale` dims the last good picture, which stays on screen.
export function showError(root, error, text = '', stale = true) {
  clearErrors(root);
  const slot = (error.field && root.querySelector(`[data-error-for="${CSS.escape(error.field)}"]`)) ||
    root.querySelector('[data-error-for=""]');
  if (slot) {
    slot.innerHTML = errorHTML(error, text);
    const details = slot.closest('details');
    if (details) details.open = true;
  }
  const form = root.querySelector('form');
  if (error.field) form?.elements.namedItem(error.field)?.setAttribute?.('aria-invalid', 'true');
  if (stale) root.querySelector('.sb-calc')?.classList.add('is-stale');
}

// Sets a field from an attribute; a select gains an option it lacks, so the engine can name it.
export function setField(field, value) {
  if (field.type === 'checkbox') {
    field.checked = value === 'yes' || value === 'true';
    return;
  }
  if (field.tagName === 'SELECT' && value && ![...field.options].some((o) => o.value === value)) field.add(new Option(value, value));
  if (field.tagName !== 'SELECT' || value) field.value = value;
}

let texLoading = null;
// KaTeX's MathML renderer, loaded on first use (a chunk of its own); null if it fails to load.
export function loadTex() {
  texLoading ??= import('./mathml.js').then((m) => m.texToMathML, () => null);
  return texLoading;
}

const FIELDS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

// KaTeX (about 270 kB) for the formulas a widget redraws; use(tex) runs once it is here.
// The build typeset a widget's first formulas, so a widget from the build asks for it only
// when a reader focuses one of its fields (ahead of the first edit) or when the returned
// ask() is called before a redraw; a first visit that only reads never fetches it. An element
// without the build's markup has nothing typeset and asks at once.
export function texOnDemand(root, fromBuild, use) {
  let asked = false;
  const ask = () => {
    if (asked) return;
    asked = true;
    root.removeEventListener('focusin', onFocus);
    loadTex().then((tex) => { if (tex) use(tex); });
  };
  const onFocus = (event) => { if (FIELDS.has(event.target?.tagName)) ask(); };
  if (fromBuild) root.addEventListener('focusin', onFocus);
  else ask();
  return ask;
}
