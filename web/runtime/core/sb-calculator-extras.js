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
        if (extras) extras.outerHTML = extrasHTML(event.detail.result);
      });
      super.start(engine);
    }

    afterFormHTML(result) {
      return extrasHTML(result);
    }
  };
}
