// <sb-training-plan>: the sharding decision and the multi-pod planner, the training-plan
// calculator's form (the three questions' numbers and verdicts, the mesh, the pods the batch
// keeps compute-bound and the by-pods table) with its pods plot (plan-view.js), redrawn with
// every result.
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { planExtrasHTML } from './plan-view.js';
import { watchWalkthrough } from './plan-steps.js';
import './plan-css.js';

export class SbTrainingPlan extends calculatorWithExtras('training-plan', planExtrasHTML) {
  #stepping = false;

  connectedCallback() {
    super.connectedCallback?.();
    if (!this.#stepping && this.shadowRoot) {
      watchWalkthrough(this);
      this.#stepping = true;
    }
  }
}
