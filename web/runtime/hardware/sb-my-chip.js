// <sb-my-chip>: the form where a reader defines "my chip" (see my-chip.js). Save checks the
// numbers through the engine and shows its message beside the field; a stored entry that
// cannot be read is ignored with a notice. The builder emits the empty form statically; the
// saved chip fills it once this script runs.
import { widgetEngine } from '../core/widget-base.js';
import { loadMyChip, saveMyChip, clearMyChip, validateMyChip, myChipHTML, defaultBase } from './my-chip.js';
import { SHADOW_CSS, CATALOG_CSS } from '../core/styles.js';
import { formatValue } from '../core/format.js';

export class SbMyChip extends HTMLElement {
  #engine = null;
  #started = false;

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    this.#start();
  }

  async #start() {
    this.#engine = await widgetEngine();
    const { chip, notice } = loadMyChip();
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>${SHADOW_CSS}${CATALOG_CSS}</style>${myChipHTML(this.#engine.chips(), chip, defaultBase(this.#engine))}`;
    root.querySelector('[data-notice]').textContent = notice;
    if (chip) this.#say(`Saved: “My chip: ${chip.name}” is in every calculator's chip list.`);
    const form = root.querySelector('form');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#save(form);
    });
    root.querySelector('[data-clear]').addEventListener('click', () => {
      clearMyChip();
      form.reset();
      for (const input of form.querySelectorAll('input')) input.value = '';
      this.#clearErrors();
      root.querySelector('[data-notice]').textContent = '';
      this.#say('Forgotten: no chip of yours is stored.');
    });
  }

  #say(text) {
    this.shadowRoot.querySelector('[data-message]').textContent = text;
  }

  #clearErrors() {
    for (const slot of this.shadowRoot.querySelectorAll('[data-error-for]')) slot.textContent = '';
    for (const field of this.shadowRoot.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
  }

  #save(form) {
    const fields = Object.fromEntries([...form.elements].filter((el) => el.name).map((el) => [el.name, el.value]));
    const checked = validateMyChip(this.#engine, fields);
    this.#clearErrors();
    if (checked.error) {
      const { field, message } = checked.error;
      const slot = this.shadowRoot.querySelector(`[data-error-for="${CSS.escape(field)}"]`) ??
        this.shadowRoot.querySelector('[data-error-for=""]');
      slot.textContent = message;
      form.elements.namedItem(field)?.setAttribute('aria-invalid', 'true');
      this.#say('');
      return;
    }
    saveMyChip(checked.chip);
    this.shadowRoot.querySelector('[data-notice]').textContent = '';
    const ridge = formatValue(checked.result.critical_intensity, 'FLOP/B', 'si');
    this.#say(`Saved: “My chip: ${checked.chip.name}” is in every calculator's chip list (critical intensity ${ridge}).`);
  }
}
