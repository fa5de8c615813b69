// <sb-training-split>: chapter 5's FSDP x TP optimizer, the training-split calculator's form
// with its heat strip and its two plots (split-view.js), redrawn with every result.
import { SbCalculator } from '../core/sb-calculator.js';
import { splitExtrasHTML } from './split-view.js';

export class SbTrainingSplit extends SbCalculator {
  static calculator = 'training-split';

  start(engine) {
    this.addEventListener('sb-change', (event) => {
      if (event.target !== this) return;
      const extras = this.shadowRoot.querySelector('[data-split-extras]');
      if (extras) extras.outerHTML = splitExtrasHTML(event.detail.result);
    });
    super.start(engine);
  }

  afterFormHTML(result) {
    return splitExtrasHTML(result);
  }
}
