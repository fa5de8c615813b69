// <sb-sampler>: chapter 7's naive against cached sampling loops, the calculator form with both
// loops' FLOPs and the cache drawn against the tokens generated (sampler-view.js).
import { registerSheets } from '../core/sheets.js';
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { samplerExtrasHTML } from './sampler-view.js';
import './inference-css.js';
import './panel-css.js';

registerSheets({
  sampler: `
.sampler .curve.naive { stroke: var(--_comm); stroke-width: 2.5; stroke-dasharray: 6 3; }
.sampler .curve.cached { stroke: var(--_accent); stroke-width: 2.5; }
.sampler .legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; }
.sampler .line-key { display: inline-block; width: 1.6rem; height: 0; margin-right: 0.4rem; vertical-align: middle;
  border-top: 3px solid var(--_accent); }
.sampler .line-key.naive { border-top: 3px dashed var(--_comm); }
`,
}, { 'sb-sampler': ['shadow', 'inference', 'inference-panel', 'sampler'] });

export class SbSampler extends calculatorWithExtras('sampler', samplerExtrasHTML) {}
