// <sb-inference>: chapter 7's roofline of one inference step, the calculator form with the
// step's time as a stacked bar, one chip's HBM against its capacity and, given a list of
// batches, step time and throughput against the batch (inference-view.js), redrawn with every
// result.
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { inferenceExtrasHTML } from './inference-view.js';
import './inference-css.js';
import './panel-css.js';

export class SbInference extends calculatorWithExtras('inference', inferenceExtrasHTML) {}
