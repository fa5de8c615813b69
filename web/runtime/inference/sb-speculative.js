// <sb-speculative>: appendix D's speculative decoding estimator, the calculator form with the
// speedup against the draft length and a strip of draft-and-verify rounds (speculative-view.js),
// redrawn with every result.
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { speculativeExtrasHTML } from './speculative-view.js';
import './inference-css.js';

export class SbSpeculative extends calculatorWithExtras('speculative', speculativeExtrasHTML) {}
