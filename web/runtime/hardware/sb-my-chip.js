// <sb-my-chip>: the form where a reader defines "my chip" (see my-chip.js). Save checks the
// numbers through the engine and shows its message beside the field; a stored entry that
// cannot be read is ignored with a notice. The builder emits the empty form statically; the
// saved chip fills it once this script runs.
import { SbWidget } from '../core/widget-base.js';
import { loadMyChip, saveMyChip, clearMyChip, validateMyChip, myChipHTML, defaultBase } from './my-chip.js';
import { formatValue } from '../core/format.js';
import './catalog-css.js';

export class SbMyChip extends SbWidget {
  static loading = null;

  #engine = null;

  start(engine) {
    this.#engine = engine;
    const { chip, notice } = loadMyChip();
    const root = this.root();
    root.innerHTML = `${myChipHTML(engine.chips(), chip, defaultBase(engine))}`;
    root.querySelector('[data-notice]').textContent = notice;
    if (chip) this.#say(`Saved: “My chip: ${chip.name}” is in every calculator's chip list.`);
    const form = this.form();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#save(form);
    });
    root.querySelector('[data-clear]').addEventListener('click', () => {
      clearMyChip();
      form.reset();
      for (const input of form.querySelectorAll('input')) input.value = '';
      this.clearErrors();
      root.querySelector('[data-notice]').textContent = '';
      this.#say('Forgotten: no chip of yours is stored.');
    });
  }

  // Every problem beside its field at once; the first bad field takes the focus, and the line
  // under the form says how many there are.
  #showErrors(form, errors) {
    this.clearErrors();
    for (const { field, message } of errors) {
      const slot = this.shadowRoot.querySelector(`[data-error-for="${CSS.escape(field)}"]`) ?? this.shadowRoot.querySelector('[data-error-for=""]');
      slot.textContent = slot.textContent ? `${slot.textContent} ${message}` : message;
      form.elements.namedItem(field)?.setAttribute('aria-invalid', 'true');
    }
    form.elements.namedItem(errors[0].field)?.focus();
    this.#say(errors.length === 1 ? 'Not saved: one field needs fixing.' : `Not saved: ${errors.length} fields need fixing.`);
  }

  #say(text) {
    this.shadowRoot.querySelector('[data-message]').textContent = text;
  }

  #save(form) {
    const fields = Object.fromEntries([...form.elements].filter((el) => el.name).map((el) => [el.name, el.value]));
    const checked = validateMyChip(this.#engine, fields);
    if (checked.errors) {
      this.#showErrors(form, checked.errors);
      return;
    }
    this.clearErrors();
    saveMyChip(checked.chip);
    this.shadowRoot.querySelector('[data-notice]').textContent = '';
    const ridge = formatValue(checked.result.critical_intensity, 'FLOP/B', 'si');
    this.#say(`Saved: “My chip: ${checked.chip.name}” is in every calculator's chip list (critical intensity ${ridge}).`);
  }
}
