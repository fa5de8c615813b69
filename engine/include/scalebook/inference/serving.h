#pragma once
// A serving simulator (chapter 7): requests arrive at random, wait for a slot, are prefilled and
// then decoded token by token, on the replicas of a slice, with the step times of inference.h.
//
// The model:
//   - Arrivals are a Poisson process of `rate` requests/s for the whole slice; prompt and output
//     lengths are drawn from a LengthDist. Every draw comes from the simulator's own generator
//     (splitmix64) and uses only + - * / and exact rounding, so a seed gives the same run on
//     every platform, native and WASM alike.
//   - Request i goes to replica i mod R (a round-robin balancer); each replica decodes at most
//     `slots` sequences at once, fewer when their KV caches would not fit beside the weights.
//   - A decode step at batch b whose sequences hold K cached tokens in all takes
//     base(b) + slope K: the weight matmuls and collectives depend on b only, and attention
//     reads the batch's whole cache, linear in K. Both come from inference_step once per b.
//     Between events the steps form an arithmetic series (K grows by b a step), which the
//     simulator sums in closed form instead of stepping.
//   - A prefill of T tokens takes inference_step's prefill time at batch 1 (static batching:
//     at the batch's size, every prompt padded to its longest). The prefill yields the first
//     token; a sequence with an output of O tokens then needs O - 1 decode steps, the first at
//     context T.
//   - Static batching: an idle replica takes every waiting request (up to its slots), prefills
//     them together and decodes until the longest is done; a finished row keeps its slot.
//     Continuous batching: a free slot takes the next waiting request at the next step
//     boundary; its prefill pauses everyone's decoding. Disaggregated: `prefill_replicas` of
//     the slice's replicas only prefill (first come, first served) and send the KV cache over
//     a link of `kv_bandwidth` B/s (0: instantly) to the rest, which decode continuously.
#include <cstdint>
#include <string>
#include <vector>

#include "scalebook/core/simulation.h"
#include "scalebook/core/status.h"
#include "scalebook/inference/inference.h"

namespace scalebook {

enum class ServingMode { static_batching, continuous, disaggregated };
const char* to_string(ServingMode mode);  // "static", "continuous", "disaggregated"

// How a length (tokens, a whole number) is drawn.
//   fixed: always `mean`.
//   uniform: each whole number in [min, max] equally likely.
//   exponential: ceil of an exponential of mean `mean`, clipped to [min, max].
enum class LengthKind { fixed, uniform, exponential };
const char* to_string(LengthKind kind);  // "fixed", "uniform", "exponential"

struct LengthDist {
  LengthKind kind = LengthKind::fixed;
  double mean = 512;  // tokens: fixed's value, exponential's mean before clipping
  double min = 1;     // tokens, uniform and exponential
  double max = 4096;  // tokens, uniform and exponential
};

struct ServingConfig {
  InferenceConfig step;  // model, dtypes, chip and slice; its phase and sizes are ignored
  ServingMode mode = ServingMode::continuous;
  double rate = 10;        // requests/s arriving at the whole slice
  double requests = 1000;  // requests simulated (the work budget)
  double slots = 32;       // sequences a replica decodes at once, at most
  LengthDist prompt{LengthKind::uniform, 512, 128, 1024};
  LengthDist output{LengthKind::exponential, 256, 1, 2048};
  std::uint64_t seed = 1;
  double prefill_replicas = 1;  // disaggregated: replicas that only prefill
  double kv_bandwidth = 0;      // B/s of a prefill replica's KV transfer; 0: instant
  double samples = 200;         // points of each time series
  double timeline = 200;        // requests whose times are reported, from the first
};

// The step times the simulator uses, from inference_step.
struct ServingCosts {
  std::vector<double> decode_base;  // s, [b] for b = 0..slots: matmuls and collectives
  double decode_slope = 0;          // s per cached token of the batch: attention
  double kv_bytes_per_token = 0;    // B, all layers, one sequence
  double kv_room_tokens = 0;        // cached tokens that fit beside the weights, per replica
  double chips_per_replica = 1;     // tp ep
};

struct ServingPercentiles {
  double p50 = 0, p90 = 0, p99 = 0, mean = 0;  // nearest rank; NaN when there are no values
};

struct ServingResult {
  bool fits = true;    // false: the longest request's cache does not fit; nothing simulated
  std::string reason;  // why not, when it does not fit
  double replicas = 1, prefill_replicas = 0, decode_replicas = 1, chips = 1;
  double slots = 0;  // slots a decode replica used: the asked-for, or fewer by memory
  bool slots_by_memory = false;
  double step_base_1 = 0;                  // s: decode step at batch 1 before attention
  double step_slope = 0;                   // s per cached token
  ServingPercentiles ttft, tpot, latency;  // s; tpot over requests with more than one output token
  double duration = 0;                     // s: last finish
  double output_tokens = 0, prompt_tokens = 0;
  double tokens_per_s = 0;           // output tokens over the duration
  double tokens_per_s_per_chip = 0;  // of the whole slice
  double requests_per_s = 0;
  double busy_fraction = 0;     // time the replicas spent prefilling or decoding
  double slot_utilization = 0;  // slot-time holding an unfinished request
  // Time series: series_time[g] is the start of bin g; queue and active are sampled there,
  // tokens_per_s averaged over the bin (a request's decode tokens spread evenly).
  std::vector<double> series_time, queue, active, series_tokens_per_s;
  // The first `timeline` requests: arrival, slot taken, first token, finish (s), lengths.
  std::vector<double> arrival, admitted, first_token, finish, prompt, output;
};

// Step times for `slots` sequences a replica (errors from inference_step name their field).
Result<ServingCosts> serving_costs(const InferenceConfig& step, double slots);

// Runs the simulation; bad sizes are Errors naming the field.
Result<ServingResult> simulate_serving(const ServingConfig& config);

// The request as the simulation registry passes it (named numbers and texts), read with its
// defaults (ServingConfig's, on llama-3-8b on a tpu-v5e 2x2 at tp 4 in bf16); at most
// `most_requests` requests.
Result<ServingConfig> serving_request(const Inputs& fields, double most_requests);

// Every field as the run takes it (given, or its default), each checked for its kind only: a
// page shows the defaults from here.
Result<Inputs> serving_inputs(const Inputs& fields);

// The registry's fields, in order.
const std::vector<std::string>& serving_fields();

// Request caps: a page's and the command line's.
inline constexpr double kMaxPageServingRequests = 400000;
inline constexpr double kMaxServingRequests = 2000000;

}  // namespace scalebook
