// <sb-training>: chapter 5's explorer, the training calculator's form with its tables, then the
// book's layer drawn for the layout and the step's collectives in order (explorer-view.js),
// redrawn with every result. A link may load a layout into it (?load=ID&shape=...#ID, as the
// search's rows do).
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { explorerExtrasHTML } from './explorer-view.js';
import './explorer-css.js';

export class SbTraining extends calculatorWithExtras('training', explorerExtrasHTML) {}
