// <sb-intensity op="dot" n="1000000" chip="tpu-v5e">: FLOPs, bytes and arithmetic intensity of
// an elementwise op, a dot product, a matmul or a batched matmul.
import { SbCalculator } from '../core/sb-calculator.js';

export class SbIntensity extends SbCalculator {
  static calculator = 'intensity';
}
