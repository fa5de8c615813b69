// Step times from inference_step, computed once per batch size and prompt length: a run of a
// million requests would otherwise call it a billion times.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "serving_parts.h"

namespace scalebook {

Result<ServingCosts> serving_costs(const InferenceConfig& step, double slots) {
  InferenceConfig c = step;
  c.phase = InferencePhase::decode;
  c.context = 1;
  ServingCosts out;
  out.decode_base.assign(static_cast<std::size_t>(slots) + 1, 0);
  for (std::size_t b = 1; b < out.decode_base.size(); ++b) {
    c.batch = static_cast<double>(b);
    Result<InferenceStep> r = inference_step(c);
    if (!r.ok()) return r.error();
    // Attention is the rest of the step; at context 1 it is b slopes.
    out.decode_base[b] = r.value().t_matmul + r.value().t_collectives;
    if (b == 1) {
      const InferenceStep& s = r.value();
      out.decode_slope = s.t_attention;
      out.kv_bytes_per_token = s.kv_bytes_per_token;
      out.chips_per_replica = step.slice.tp * step.slice.ep;
      const double room = step.hbm_capacity - s.weight_bytes_per_chip;
      out.kv_room_tokens =
          room > 0 ? std::floor(room * out.chips_per_replica / s.kv_bytes_per_token) : 0;
    }
  }
  return out;
}

namespace serving {

Result<double> PrefillTimes::at(double batch, double tokens) {
  const auto key = static_cast<std::uint64_t>(batch) << 40 | static_cast<std::uint64_t>(tokens);
  if (auto it = batched_.find(key); it != batched_.end()) return it->second;
  InferenceConfig c = step_;
  c.phase = InferencePhase::prefill;
  c.batch = batch;
  c.tokens = tokens;
  Result<InferenceStep> r = inference_step(c);
  if (!r.ok()) return r.error();
  batched_.emplace(key, r.value().t_step);
  return r.value().t_step;
}

std::optional<Error> PrefillTimes::fill_single(const std::vector<double>& prompts) {
  double longest = 0;
  for (double t : prompts) longest = std::max(longest, t);
  single_.assign(static_cast<std::size_t>(longest) + 1, -1);
  for (double t : prompts) {
    double& slot = single_[static_cast<std::size_t>(t)];
    if (slot >= 0) continue;
    Result<double> time = at(1, t);
    if (!time.ok()) return time.error();
    slot = time.value();
  }
  return std::nullopt;
}

double DecodeClock::steps_to_reach(double dt, double b, double K, double most) const {
  // steps(m) = A m + c m (m - 1)/2 with c = slope b: the positive root of c/2 m^2 +
  // (A - c/2) m - dt, in the form that does not cancel, then nudged onto the whole number.
  const double A = costs->decode_base[static_cast<std::size_t>(b)] + costs->decode_slope * K;
  const double c = costs->decode_slope * b, B = A - c / 2;
  double m = 2 * dt / (B + std::sqrt(B * B + 2 * c * dt));
  m = std::clamp(std::ceil(m), 1.0, most);
  while (m > 1 && steps(m - 1, b, K) >= dt) --m;
  while (m < most && steps(m, b, K) < dt) ++m;
  return m;
}

}  // namespace serving
}  // namespace scalebook
