// <sb-systolic m="64" n="64" k="64" rows="8" cols="8" dataflow="ws">: cycle counts of a GEMM on a
// systolic array, closed form, in either convention.
import { SbCalculator } from '../core/sb-calculator.js';

export class SbSystolic extends SbCalculator {
  static calculator = 'systolic';
}
