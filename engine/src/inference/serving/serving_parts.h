#pragma once
// What the serving simulator's files share (see serving.h for the model).
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "scalebook/inference/serving.h"

namespace scalebook::serving {

// A whole number with all its digits (format_number writes 2000000 as 2e6), else as usual:
// a count in a message must show the reader which one was refused.
std::string digits(double x);

// A request's lengths and times, one array each (a run may hold millions).
struct Requests {
  std::vector<double> arrival, prompt, output;  // s, tokens, tokens
  std::vector<double> prefill_start;            // s: its prefill began
  std::vector<double> admitted;                 // s: it took a decode slot
  std::vector<double> first, finish;            // s: first and last token
  std::size_t size() const { return arrival.size(); }
};

// The draws of a run: arrivals and both lengths, each from its own stream of the seed, so
// changing one distribution leaves the others' draws alone.
Requests draw_requests(const ServingConfig& config);

// Prefill times, each computed once: batch 1 for every prompt length, other batches (static
// batching) by (batch, tokens).
class PrefillTimes {
 public:
  explicit PrefillTimes(const InferenceConfig& step) : step_(step) {}
  // s, or an Error from inference_step.
  Result<double> at(double batch, double tokens);
  // The batch-1 time of `tokens`, after fill_single covered it.
  double single(double tokens) const { return single_[static_cast<std::size_t>(tokens)]; }
  std::optional<Error> fill_single(const std::vector<double>& prompts);

 private:
  InferenceConfig step_;
  std::vector<double> single_;
  std::unordered_map<std::uint64_t, double> batched_;
};

// One replica's decode steps: base(b) + slope K, summed over m steps in closed form.
struct DecodeClock {
  const ServingCosts* costs;
  // s for m steps at batch b from K cached tokens (K grows by b a step).
  double steps(double m, double b, double K) const {
    return m * (costs->decode_base[static_cast<std::size_t>(b)] + costs->decode_slope * K) +
           costs->decode_slope * b * m * (m - 1) / 2;
  }
  // The fewest steps (at least 1, at most `most`) that last at least dt.
  double steps_to_reach(double dt, double b, double K, double most) const;
};

// Plays one replica's requests, `order` listing them by the time they may take a slot
// (`ready`: arrival, or the end of a disaggregated prefill's transfer). Continuous batching;
// `prefill` false when they come prefilled. Returns the replica's busy time.
double run_continuous(Requests& r, const std::vector<std::size_t>& order,
                      const std::vector<double>& ready, double slots, const ServingCosts& costs,
                      PrefillTimes& prefill, bool prefill_here);

// Static batching; returns the busy time, or an Error from a prefill.
Result<double> run_static(Requests& r, const std::vector<std::size_t>& order, double slots,
                          const ServingCosts& costs, PrefillTimes& prefill);

// Percentiles and the time series of a finished run.
ServingPercentiles percentiles(std::vector<double> values);
void fill_series(const Requests& r, double samples, ServingResult& out);

}  // namespace scalebook::serving
