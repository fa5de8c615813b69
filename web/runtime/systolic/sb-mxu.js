// <sb-mxu m="8" n="128" k="128">: a matmul on a chip's MXUs, with the padding waste of
// shapes that are not multiples of the array.
import { SbCalculator } from '../core/sb-calculator.js';

export class SbMxu extends SbCalculator {
  static calculator = 'mxu';
}
