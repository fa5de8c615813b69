// <sb-training>: chapter 5's explorer, the training calculator's form with its tables, then the
// book's layer drawn for the layout and the step's collectives in order (explorer-view.js),
// redrawn with every result. A link may load a layout into it (?load=ID&shape=...#ID, as the
// search's rows do). It leads with the step's few results; the rest fold into sections a reader
// opens (on a phone the whole was 10,000 px tall, a dozen screens).
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { explorerExtrasHTML, TRAINING_LEAD } from './explorer-view.js';
import './explorer-css.js';

export class SbTraining extends calculatorWithExtras('training', explorerExtrasHTML) {
  static lead = TRAINING_LEAD;
}
