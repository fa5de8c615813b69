// The inference domain's directives. Its calculators are placed with ::calculator NAME
// (directives.mjs); this adds the pictures their elements draw after the form, so the build
// draws them too: the speculative estimator's plot and rounds, the allocator's HBM bars, the
// inference step's bars and batch charts, the frontier's scatter.
import { speculativeExtrasHTML } from '../../runtime/inference/speculative-view.js';
import { kvExtrasHTML } from '../../runtime/inference/kv-allocator-view.js';
import { inferenceExtrasHTML } from '../../runtime/inference/inference-view.js';
import { frontierExtrasHTML } from '../../runtime/inference/frontier-view.js';
import { samplerExtrasHTML } from '../../runtime/inference/sampler-view.js';

// What a ::calculator NAME element draws after its form, by calculator.
export const calculatorExtras = {
  speculative: speculativeExtrasHTML,
  'kv-allocator': kvExtrasHTML,
  inference: inferenceExtrasHTML,
  'inference-frontier': frontierExtrasHTML,
  sampler: samplerExtrasHTML,
};

// This domain's own directives by name (directives.mjs gathers every domain's): none yet.
export const handlers = {};
