// A calculator element with its own pictures after the form (the budget's bars, the
// optimizer's strip and plots): extrasHTML(result) draws them, in the builder's first render
// and again after every result. The root of what it returns carries `data-extras`.
import { SbCalculator } from './sb-calculator.js';

export function calculatorWithExtras(calculator, extrasHTML) {
  return class extends SbCalculator {
    static calculator = calculator;

    start(engine) {
      this.addEventListener('sb-change', (event) => {
        if (event.target !== this) return;
        const extras = this.shadowRoot.querySelector('[data-extras]');
        if (!extras) return;
        // A section the reader opened (<details data-fold>) stays open through the redraw.
        const open = [...extras.querySelectorAll('details[data-fold][open]')].map((d) => d.dataset.fold);
        extras.outerHTML = extrasHTML(event.detail.result);
        for (const fold of this.shadowRoot.querySelectorAll('[data-extras] details[data-fold]')) {
          if (open.includes(fold.dataset.fold)) fold.open = true;
        }
      });
      super.start(engine);
    }

    afterFormHTML(result) {
      return extrasHTML(result);
    }
  };
}
