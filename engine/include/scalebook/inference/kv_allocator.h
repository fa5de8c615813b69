#pragma once
// How many requests' KV caches fit in the HBM left beside the weights (chapter 7, "Ragged
// reads / Paged Attention" and "Prefix caching"), under two allocators and with a shared
// prompt prefix.
//
// The model (expected values over a fixed grid of the length distribution's quantiles: the
// same numbers every time, no sampling):
//   - A request holds l tokens of cache, drawn from `lengths` with mean `mean` and capped at
//     the context limit S (an engine stops a request there). A token costs
//     b = kv_elements_per_token x bytes per element.
//   - Padded: every request reserves a slot of S tokens, whatever its length: S b bytes; the
//     wasted fraction is 1 - E[l] / S.
//   - Paged: a request holds ceil(l / p) pages of p tokens: about half a page wasted each.
//   - Requests that fit: floor(budget / bytes per request), budget = chips x HBM - weights.
//   - Prefix sharing: a fraction f of the paged requests start with the same P tokens, whose
//     whole pages are kept once; each sharing request but the first skips computing its
//     min(P, l) prefix tokens (per token, a cached token costs the same compute, which is how
//     the book counts: two 3-token prompts sharing 2 skip 1/3 of the work).
#include <optional>

#include "scalebook/core/registry.h"
#include "scalebook/core/status.h"

namespace scalebook {

enum class LengthDistribution { fixed, uniform, exponential };
// fixed: every request has the mean; uniform: over (0, 2 mean]; exponential: with the mean.
const char* to_string(LengthDistribution kind);  // "fixed", "uniform", "exponential"

struct KvAllocatorConfig {
  double kv_bytes_per_token = 0;  // B, all layers
  double budget = 0;              // B of HBM for KV caches, all chips
  double max_context = 8192;      // S: tokens a padded slot reserves, and the longest request
  double page = 16;               // p: tokens per page
  LengthDistribution lengths = LengthDistribution::exponential;
  double mean = 1024;  // tokens: the distribution's mean before capping at S
  double prefix = 0;   // P: tokens of the shared prefix
  double share = 0;    // f: fraction of requests that start with it, in [0, 1]
};

struct KvAllocation {
  double mean_length = 0;  // tokens, E[l] after capping
  // Padded slots.
  double padded_bytes = 0;  // B per request, S b
  double padded_waste = 0;  // fraction of the reserved bytes no token uses
  double padded_requests = 0;
  // Pages.
  double paged_tokens = 0;  // tokens, E[ceil(l / p) p]
  double paged_bytes = 0;   // B per request
  double paged_waste = 0;
  double paged_requests = 0;
  double gain = 0;  // paged_requests / padded_requests (0 when none fits padded)
  // Prefix sharing, on top of paging.
  double shared_tokens = 0;     // tokens a sharing request need not compute, E[min(P, l)]
  double prefill_fraction = 0;  // of a sharing request's tokens, those it computes
  double shared_bytes = 0;      // B a sharing request need not hold: the prefix's whole pages
  double shared_requests = 0;   // requests that fit with sharing
  double sharing = 0;           // of them, those that share: floor(f n)
  double compute_saved = 0;     // fraction of the batch's compute the sharing skips
  double bytes_saved = 0;       // B the sharing frees
};

// Errors name the field: page or mean beyond max_context, prefix beyond it.
std::optional<Error> check_kv_allocator(const KvAllocatorConfig& config);
KvAllocation kv_allocation(const KvAllocatorConfig& config);

Calculator kv_allocator_calculator();

}  // namespace scalebook
