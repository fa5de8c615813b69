// The serving simulator's speed, native: simulated requests per second of wall time for each
// batching mode at the size of an hour of traffic (100 requests/s, 360,000 requests, prompts
// of 512 and outputs of 256 tokens), and for the default mixed load. Prints figures; asserts
// nothing.
#include <chrono>
#include <cstdio>

#include "scalebook/inference/serving.h"

namespace {

using scalebook::Inputs;
using scalebook::Value;

void measure(const char* label, Inputs fields) {
  auto config = scalebook::serving_request(fields, scalebook::kMaxServingRequests);
  if (!config.ok()) {
    std::printf("%s: %s\n", label, config.error().message.c_str());
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  auto result = scalebook::simulate_serving(config.value());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok()) {
    std::printf("%s: %s\n", label, result.error().message.c_str());
    return;
  }
  const auto& r = result.value();
  std::printf(
      "%-44s %9.0f requests in %7.3f s: %10.3g requests/s  (ttft p50 %.4g s, %.4g tokens/s)\n",
      label, config.value().requests, s, config.value().requests / s, r.ttft.p50, r.tokens_per_s);
}

}  // namespace

int main() {
  // An hour at 100 requests/s on a v5e 4x8 at tp 4: eight replicas, 12.5 requests/s each, below
  // their capacity, so free slots wait for arrivals (the costlier events).
  Inputs hour{{"requests", Value::of(360000.0)},   {"rate", Value::of(100.0)},
              {"shape", Value::of("4x8")},         {"prompt_dist", Value::of("fixed")},
              {"output_dist", Value::of("fixed")}, {"prompt", Value::of(512.0)},
              {"output", Value::of(256.0)},        {"slots", Value::of(64.0)}};
  for (const char* mode : {"continuous", "static", "disaggregated"}) {
    Inputs fields = hour;
    fields["mode"] = Value::of(mode);
    // Disaggregated: three replicas prefill (about 50 prompts/s each), five decode.
    fields["prefill_replicas"] = Value::of(3.0);
    char label[64];
    std::snprintf(label, sizeof label, "an hour, fixed 512/256, %s", mode);
    measure(label, fields);
  }
  Inputs mixed = hour;
  mixed.erase("prompt_dist"), mixed.erase("output_dist"), mixed.erase("prompt"),
      mixed.erase("output");
  measure("an hour, uniform prompts, exponential outputs", mixed);
  measure("a page's default run (1000 requests)", {});
  return 0;
}
