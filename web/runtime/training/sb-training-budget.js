// <sb-training-budget>: chapter 6's run budget, the calculator form with its parameters by
// block and its memory floor drawn as stacked bars, redrawn with every result.
import { SbCalculator } from '../core/sb-calculator.js';
import { budgetBarsHTML } from './budget-view.js';

export class SbTrainingBudget extends SbCalculator {
  static calculator = 'training-budget';

  start(engine) {
    this.addEventListener('sb-change', (event) => {
      if (event.target !== this) return;
      const bars = this.shadowRoot.querySelector('[data-budget-bars]');
      if (bars) bars.outerHTML = budgetBarsHTML(event.detail.result);
    });
    super.start(engine);
  }

  afterFormHTML(result) {
    return budgetBarsHTML(result);
  }
}
