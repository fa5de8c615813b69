// <sb-training-plan>: the sharding decision and the multi-pod planner, the training-plan
// calculator's form (the three questions' numbers and verdicts, the mesh, the pods the batch
// keeps compute-bound and the by-pods table) with its pods plot (plan-view.js), redrawn with
// every result.
import { SbCalculator } from '../core/sb-calculator.js';
import { planExtrasHTML } from './plan-view.js';

export class SbTrainingPlan extends SbCalculator {
  static calculator = 'training-plan';

  start(engine) {
    this.addEventListener('sb-change', (event) => {
      if (event.target !== this) return;
      const extras = this.shadowRoot.querySelector('[data-plan-extras]');
      if (extras) extras.outerHTML = planExtrasHTML(event.detail.result);
    });
    super.start(engine);
  }

  afterFormHTML(result) {
    return planExtrasHTML(result);
  }
}
