// simulate_serving: checks the config, draws the requests, plays each replica and gathers the
// figures (the model is in serving.h).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/core/format.h"
#include "serving_parts.h"

namespace scalebook {
namespace {

using serving::digits;

// The most slots a replica may have and the longest length: the tables stay small.
constexpr double kMaxSlots = 4096;
constexpr double kMaxLength = 1e6;

Error fail(const std::string& field, std::string message) {
  return Error{ErrorCode::invalid_argument, field, std::move(message)};
}

bool whole_in(double x, double lo, double hi) {
  return std::isfinite(x) && x == std::floor(x) && x >= lo && x <= hi;
}

std::optional<Error> count(const std::string& field, double x, double lo, double hi,
                           const char* unit) {
  if (whole_in(x, lo, hi)) return std::nullopt;
  return fail(field, field + " must be a whole number of " + unit + " from " + digits(lo) + " to " +
                         digits(hi) + ", got " + digits(x));
}

std::optional<Error> check_length(const std::string& name, const LengthDist& d) {
  if (d.kind == LengthKind::exponential) {
    if (!(std::isfinite(d.mean) && d.mean > 0 && d.mean <= kMaxLength)) {
      return fail(name, name + " must be a positive number of tokens up to " + digits(kMaxLength) +
                            ", got " + format_number(d.mean));
    }
  } else if (d.kind == LengthKind::fixed) {
    if (auto bad = count(name, d.mean, 1, kMaxLength, "tokens")) return bad;
  }
  if (auto bad = count(name + "_min", d.min, 1, kMaxLength, "tokens")) return bad;
  if (auto bad = count(name + "_max", d.max, 1, kMaxLength, "tokens")) return bad;
  if (d.max < d.min) {
    return fail(name + "_max", name + "_max must be at least " + name + "_min = " + digits(d.min) +
                                   ", got " + digits(d.max));
  }
  return std::nullopt;
}

std::optional<Error> check(const ServingConfig& c) {
  if (!(std::isfinite(c.rate) && c.rate > 0))
    return fail("rate",
                "rate must be a positive number of requests/s, got " + format_number(c.rate));
  if (auto bad = count("requests", c.requests, 1, kMaxServingRequests, "requests")) return bad;
  if (auto bad = count("slots", c.slots, 1, kMaxSlots, "sequences")) return bad;
  if (auto bad = check_length("prompt", c.prompt)) return bad;
  if (auto bad = check_length("output", c.output)) return bad;
  if (auto bad = count("samples", c.samples, 1, 10000, "points")) return bad;
  if (auto bad = count("timeline", c.timeline, 0, 10000, "requests")) return bad;
  if (!(std::isfinite(c.kv_bandwidth) && c.kv_bandwidth >= 0))
    return fail("kv_bandwidth",
                "kv_bandwidth must be 0 (instant) or a positive number of B/s, "
                "got " +
                    format_number(c.kv_bandwidth));
  if (c.mode != ServingMode::disaggregated) return std::nullopt;
  const double replicas = c.step.slice.replicas;
  if (replicas < 2) {
    return fail("shape",
                "disaggregated serving needs 2 or more replicas, one to prefill and "
                "one to decode; the slice holds " +
                    format_number(replicas));
  }
  return count("prefill_replicas", c.prefill_replicas, 1, replicas - 1, "replicas");
}

double longest(const LengthDist& d) { return d.kind == LengthKind::fixed ? d.mean : d.max; }

std::vector<double> pick(const std::vector<double>& v, std::size_t n) {
  return {v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(n, v.size()))};
}

}  // namespace

const char* to_string(ServingMode mode) {
  switch (mode) {
    case ServingMode::static_batching:
      return "static";
    case ServingMode::disaggregated:
      return "disaggregated";
    default:
      return "continuous";
  }
}

const char* to_string(LengthKind kind) {
  switch (kind) {
    case LengthKind::uniform:
      return "uniform";
    case LengthKind::exponential:
      return "exponential";
    default:
      return "fixed";
  }
}

Result<ServingResult> simulate_serving(const ServingConfig& c) {
  using namespace serving;
  if (std::optional<Error> bad = check(c)) return *bad;
  Result<ServingCosts> priced = serving_costs(c.step, c.slots);
  if (!priced.ok()) return priced.error();
  const ServingCosts& costs = priced.value();
  ServingResult out;
  out.replicas = c.step.slice.replicas;
  out.chips = out.replicas * costs.chips_per_replica;
  const bool split = c.mode == ServingMode::disaggregated;
  out.prefill_replicas = split ? c.prefill_replicas : 0;
  out.decode_replicas = out.replicas - out.prefill_replicas;
  out.step_base_1 = costs.decode_base[1];
  out.step_slope = costs.decode_slope;
  const double tokens = longest(c.prompt) + longest(c.output);
  const double fit = std::floor(costs.kv_room_tokens / tokens);
  if (fit < 1) {
    out.fits = false;
    out.reason = "a request of up to " + digits(tokens) + " tokens needs " +
                 format_number(tokens * costs.kv_bytes_per_token) +
                 " B of KV cache a replica, but " +
                 format_number(costs.kv_room_tokens * costs.kv_bytes_per_token) +
                 " B fit beside the weights";
    return out;
  }
  out.slots = std::min(c.slots, fit);
  out.slots_by_memory = fit < c.slots;

  Requests r = draw_requests(c);
  const std::size_t n = r.size();
  PrefillTimes prefill(c.step);
  if (c.mode != ServingMode::static_batching) {
    if (std::optional<Error> bad = prefill.fill_single(r.prompt)) return *bad;
  }
  std::vector<double> ready = r.arrival;
  double busy = 0;
  const auto decoders = static_cast<std::size_t>(out.decode_replicas);
  std::vector<std::vector<std::size_t>> orders(decoders);
  if (split) {
    // Prefill replicas take requests first come, first served; the cache then travels.
    std::vector<double> free(static_cast<std::size_t>(out.prefill_replicas), 0);
    std::vector<std::size_t> decode;
    decode.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      auto k = std::min_element(free.begin(), free.end());
      const double p = prefill.single(r.prompt[i]);
      r.prefill_start[i] = std::max(r.arrival[i], *k);
      r.first[i] = *k = r.prefill_start[i] + p;
      busy += p;
      ready[i] = r.first[i];
      if (c.kv_bandwidth > 0) ready[i] += r.prompt[i] * costs.kv_bytes_per_token / c.kv_bandwidth;
      if (r.output[i] > 1) {
        decode.push_back(i);
      } else {
        r.admitted[i] = r.finish[i] = r.first[i];
      }
    }
    std::stable_sort(decode.begin(), decode.end(),
                     [&](std::size_t a, std::size_t b) { return ready[a] < ready[b]; });
    for (std::size_t k = 0; k < decode.size(); ++k) orders[k % decoders].push_back(decode[k]);
  } else {
    for (std::size_t i = 0; i < n; ++i) orders[i % decoders].push_back(i);
  }
  for (const std::vector<std::size_t>& order : orders) {
    if (c.mode == ServingMode::static_batching) {
      Result<double> b = run_static(r, order, out.slots, costs, prefill);
      if (!b.ok()) return b.error();
      busy += b.value();
    } else {
      busy += run_continuous(r, order, ready, out.slots, costs, prefill, !split);
    }
  }

  std::vector<double> ttft(n), latency(n), tpot;
  tpot.reserve(n);
  double held = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ttft[i] = r.first[i] - r.arrival[i];
    latency[i] = r.finish[i] - r.arrival[i];
    if (r.output[i] > 1) tpot.push_back((r.finish[i] - r.first[i]) / (r.output[i] - 1));
    out.duration = std::max(out.duration, r.finish[i]);
    out.output_tokens += r.output[i];
    out.prompt_tokens += r.prompt[i];
    held += r.finish[i] - r.admitted[i];
  }
  out.ttft = percentiles(std::move(ttft));
  out.latency = percentiles(std::move(latency));
  out.tpot = percentiles(std::move(tpot));
  out.tokens_per_s = out.output_tokens / out.duration;
  out.tokens_per_s_per_chip = out.tokens_per_s / out.chips;
  out.requests_per_s = static_cast<double>(n) / out.duration;
  out.busy_fraction = busy / (out.replicas * out.duration);
  out.slot_utilization = held / (out.decode_replicas * out.slots * out.duration);
  fill_series(r, c.samples, out);
  const auto shown = static_cast<std::size_t>(c.timeline);
  out.arrival = pick(r.arrival, shown), out.admitted = pick(r.admitted, shown);
  out.first_token = pick(r.first, shown), out.finish = pick(r.finish, shown);
  out.prompt = pick(r.prompt, shown), out.output = pick(r.output, shown);
  return out;
}

}  // namespace scalebook
