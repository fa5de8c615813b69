// <sb-training-plan>: the sharding decision and the multi-pod planner, the training-plan
// calculator's form, leading with the mesh and the pods the batch keeps compute-bound (its other
// results and its by-pods table fold into sections), then the three questions step by step and
// the pods plot in a section (plan-view.js), redrawn with every result.
import { SbCalculator } from '../core/sb-calculator.js';
import { planExtrasHTML, updatePlanExtras, PLAN_LEAD } from './plan-view.js';
import { watchWalkthrough } from './plan-steps.js';
import './plan-css.js';

export class SbTrainingPlan extends SbCalculator {
  static calculator = 'training-plan';
  static lead = PLAN_LEAD;
  #stepping = false;

  afterResult(result) {
    updatePlanExtras(this.shadowRoot, result);
  }

  afterFormHTML(result) {
    return planExtrasHTML(result);
  }

  connectedCallback() {
    super.connectedCallback?.();
    if (!this.#stepping && this.shadowRoot) {
      watchWalkthrough(this);
      this.#stepping = true;
    }
  }
}
