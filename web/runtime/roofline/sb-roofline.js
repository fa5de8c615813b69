// <sb-roofline flops="1e12" bytes="1e9" chip="h100">: time bounds of one op on one chip.
import { SbCalculator } from '../core/sb-calculator.js';

export class SbRoofline extends SbCalculator {
  static calculator = 'roofline';
}
