// <sb-collective op="all-gather" bytes="33554432" axis_size="4" chip="tpu-v5e">: the time of one
// collective over one or more axes of a TPU slice or a GPU network.
import { SbCalculator } from '../core/sb-calculator.js';

export class SbCollective extends SbCalculator {
  static calculator = 'collective';
}
