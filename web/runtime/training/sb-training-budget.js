// <sb-training-budget>: chapter 6's run budget, the calculator form with its parameters by
// block and its memory floor drawn as stacked bars, redrawn with every result.
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { budgetBarsHTML } from './budget-view.js';
import './search-css.js';

export class SbTrainingBudget extends calculatorWithExtras('training-budget', budgetBarsHTML) {}
