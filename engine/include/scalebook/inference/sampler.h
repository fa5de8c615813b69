#pragma once
// Sampling with and without a KV cache (chapter 7's first figures): G tokens generated after a
// prompt of P tokens.
//   - Naive: each new token reruns the whole sequence so far, G forward passes over P, P + 1,
//     ..., P + G - 1 tokens: matmuls quadratic in the length, attention cubic.
//   - Cached: one prefill of the P prompt tokens (which yields the first token) writes every
//     token's keys and values; each of the G - 1 decode steps then runs one token against the
//     cache of n = P + 1, ..., P + G - 1 tokens: matmuls linear, attention quadratic.
//   Both read every weight once per pass; the cached loop also reads the cache each step.
//   Attention under the causal mask counts n^2 / 2 keys for a pass over n tokens.
#include "scalebook/core/registry.h"
#include "scalebook/transformer/models.h"

namespace scalebook {

struct SamplerTotals {
  double flops_naive = 0;   // FLOP, all G passes
  double flops_cached = 0;  // FLOP, the prefill and G - 1 decode steps
  double bytes_naive = 0;   // B of weights read
  double bytes_cached = 0;  // B of weights and KV cache read
  double kv_bytes = 0;      // B of the cache once the last token is in: P + G - 1 tokens
};

// Totals after the first `g` generated tokens (1 <= g), in closed form, so G may be large.
SamplerTotals sampler_totals(const Model& model, double prompt, double g, double weight_bytes,
                             double kv_bytes);

Calculator sampler_calculator();

}  // namespace scalebook
