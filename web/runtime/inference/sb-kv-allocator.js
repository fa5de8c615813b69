// <sb-kv-allocator>: chapter 7's padded against paged KV-cache allocator, the calculator form
// with the HBM drawn as bars under each allocator (kv-allocator-view.js), redrawn with every
// result.
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { kvExtrasHTML } from './kv-allocator-view.js';
import './inference-css.js';

export class SbKvAllocator extends calculatorWithExtras('kv-allocator', kvExtrasHTML) {}
