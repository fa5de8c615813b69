// <sb-training>: chapter 5's explorer, the training calculator's form with its collectives
// table. A link may load a layout into it (?load=ID&shape=...#ID, as the search's rows do).
import { SbCalculator } from '../core/sb-calculator.js';

export class SbTraining extends SbCalculator {
  static calculator = 'training';
}
