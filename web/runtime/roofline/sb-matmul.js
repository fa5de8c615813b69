// <sb-matmul b="256" d="8192" f="8192" chip="tpu-v5e">: one matmul X[B,D] . W[D,F] on one chip.
import { SbCalculator } from '../core/sb-calculator.js';

export class SbMatmul extends SbCalculator {
  static calculator = 'matmul';
}
