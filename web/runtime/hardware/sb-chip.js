// <sb-chip chip="tpu-v5e">: every number the catalog holds for one chip.
import { SbCalculator } from '../core/sb-calculator.js';

export class SbChip extends SbCalculator {
  static calculator = 'chip';
}
