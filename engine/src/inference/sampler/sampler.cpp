// The naive and cached sampling loops' totals in closed form (sampler.h).
#include "scalebook/inference/sampler.h"

namespace scalebook {
namespace {

// Sums of n and n^2 for n = a .. b.
double sum1(double a, double b) { return (a + b) * (b - a + 1) / 2; }
double sum2_to(double m) { return m * (m + 1) * (2 * m + 1) / 6; }
double sum2(double a, double b) { return sum2_to(b) - sum2_to(a - 1); }

}  // namespace

SamplerTotals sampler_totals(const Model& model, double prompt, double g, double weight_bytes,
                             double kv_bytes) {
  const ParamCounts p = count_params(model);
  const double per_token = matmul_flops_per_token(model, p);
  const double per_key = attention_flops_per_key(model);
  const double kv_per_token = kv_elements_per_token(model) * kv_bytes;
  const double last = prompt + g - 1;  // tokens in the sequence when the g-th token is made
  SamplerTotals t;
  t.flops_naive = per_token * sum1(prompt, last) + per_key * sum2(prompt, last) / 2;
  // Prefill, then decode steps over caches of prompt + 1 .. last tokens.
  t.flops_cached = per_token * prompt + per_key * prompt * prompt / 2;
  if (g > 1) t.flops_cached += per_token * (g - 1) + per_key * sum1(prompt + 1, last);
  const double weights = p.total * weight_bytes;
  t.bytes_naive = g * weights;
  t.bytes_cached = g * weights + (g > 1 ? kv_per_token * sum1(prompt + 1, last) : 0);
  t.kv_bytes = kv_per_token * last;
  return t;
}

}  // namespace scalebook
