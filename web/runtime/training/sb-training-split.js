// <sb-training-split>: chapter 5's FSDP x TP optimizer, the training-split calculator's form
// with its strip of splits and its two plots (split-view.js). It leads with the best split; its
// other results, its tables and its plots fold into sections a reader opens. An edit rewrites
// the strip's cells in place and redraws only the plots whose section is open.
import { SbCalculator } from '../core/sb-calculator.js';
import { splitExtrasHTML, updateSplitExtras, SPLIT_LEAD } from './split-view.js';
import { watchReadouts } from '../core/readout.js';
import './split-css.js';

export class SbTrainingSplit extends SbCalculator {
  static calculator = 'training-split';
  static lead = SPLIT_LEAD;
  #reading = false;

  afterResult(result) {
    updateSplitExtras(this.shadowRoot, result);
  }

  afterFormHTML(result) {
    return splitExtrasHTML(result);
  }

  // The plots' points can be read as soon as the element runs, engine or not (they are drawn
  // at build time); one listener on the root serves every redraw.
  connectedCallback() {
    super.connectedCallback?.();
    if (!this.#reading && this.shadowRoot) {
      watchReadouts(this.shadowRoot);
      this.#reading = true;
    }
  }
}
