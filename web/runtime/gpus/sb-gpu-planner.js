// <sb-gpu-planner>: chapter 12's LLM rooflines on a GPU cluster, the calculator form with each
// strategy's math against its communication drawn after it (planner-view.js), redrawn with
// every result.
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { plannerExtrasHTML } from './planner-view.js';
import './gpus-css.js';

export class SbGpuPlanner extends calculatorWithExtras('gpu-planner', plannerExtrasHTML) {}
