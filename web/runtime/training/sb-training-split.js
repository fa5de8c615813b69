// <sb-training-split>: chapter 5's FSDP x TP optimizer, the training-split calculator's form
// with its strip of splits and its two plots (split-view.js), redrawn with every result.
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { splitExtrasHTML } from './split-view.js';
import { watchReadouts } from '../core/readout.js';
import './split-css.js';

export class SbTrainingSplit extends calculatorWithExtras('training-split', splitExtrasHTML) {
  #reading = false;

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
