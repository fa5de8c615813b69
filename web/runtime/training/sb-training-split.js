// <sb-training-split>: chapter 5's FSDP x TP optimizer, the training-split calculator's form
// with its strip of splits and its two plots (split-view.js), redrawn with every result.
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { splitExtrasHTML } from './split-view.js';
import './split-css.js';

export class SbTrainingSplit extends calculatorWithExtras('training-split', splitExtrasHTML) {}
