// <sb-training-plan>: chapter 6's sharding decision, the training-plan calculator's form: the
// three questions' numbers and verdicts, then the mesh they lead to.
import { SbCalculator } from '../core/sb-calculator.js';

export class SbTrainingPlan extends SbCalculator {
  static calculator = 'training-plan';
}
