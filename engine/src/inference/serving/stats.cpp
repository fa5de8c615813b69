// A finished run's figures: nearest-rank percentiles and the series a page plays.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "scalebook/core/format.h"
#include "serving_parts.h"

namespace scalebook::serving {

std::string digits(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
  return format_number(x);
}

ServingPercentiles percentiles(std::vector<double> v) {
  ServingPercentiles p;
  if (v.empty()) {
    p.p50 = p.p90 = p.p99 = p.mean = std::numeric_limits<double>::quiet_NaN();
    return p;
  }
  double sum = 0;
  for (double x : v) sum += x;
  p.mean = sum / static_cast<double>(v.size());
  // Nearest rank: the smallest value at or above a fraction q of them. Largest q first, so
  // each nth_element searches only the part below the last.
  auto end = v.end();
  for (auto [q, out] : {std::pair{0.99, &p.p99}, {0.90, &p.p90}, {0.50, &p.p50}}) {
    const auto rank = static_cast<std::ptrdiff_t>(std::ceil(q * static_cast<double>(v.size())));
    auto nth = v.begin() + std::max<std::ptrdiff_t>(rank - 1, 0);
    std::nth_element(v.begin(), nth, end);
    *out = *nth;
    end = nth + 1;
  }
  return p;
}

namespace {

// The first sample point at or after time x.
std::size_t point_at(double x, double dt, std::size_t n) {
  const double g = std::ceil(x / dt);
  return g >= static_cast<double>(n) ? n : static_cast<std::size_t>(g);
}

std::size_t bin_of(double x, double dt, std::size_t n) {
  const double g = std::floor(x / dt);
  return g >= static_cast<double>(n - 1) ? n - 1 : static_cast<std::size_t>(g);
}

}  // namespace

void fill_series(const Requests& r, double samples, ServingResult& out) {
  const auto n = static_cast<std::size_t>(samples);
  const double dt = out.duration / samples;
  out.series_time.resize(n);
  for (std::size_t g = 0; g < n; ++g) out.series_time[g] = static_cast<double>(g) * dt;
  out.queue.assign(n, 0), out.active.assign(n, 0), out.series_tokens_per_s.assign(n, 0);
  if (!(dt > 0)) return;
  // Counts at the sample points from +1/-1 where each interval starts and ends; tokens per
  // bin from each request's even rate over (first, finish], its first token at `first`.
  std::vector<double> queue(n + 1, 0), active(n + 1, 0), rate(n + 1, 0), tokens(n, 0);
  for (std::size_t i = 0; i < r.size(); ++i) {
    queue[point_at(r.arrival[i], dt, n)] += 1, queue[point_at(r.prefill_start[i], dt, n)] -= 1;
    active[point_at(r.admitted[i], dt, n)] += 1, active[point_at(r.finish[i], dt, n)] -= 1;
    tokens[bin_of(r.first[i], dt, n)] += 1;
    const double decoded = r.output[i] - 1, span = r.finish[i] - r.first[i];
    if (decoded <= 0 || !(span > 0)) continue;
    const std::size_t a = bin_of(r.first[i], dt, n), b = bin_of(r.finish[i], dt, n);
    if (a == b) {
      tokens[a] += decoded;
      continue;
    }
    const double per_s = decoded / span;
    tokens[a] += per_s * (static_cast<double>(a + 1) * dt - r.first[i]);
    tokens[b] += per_s * (r.finish[i] - static_cast<double>(b) * dt);
    rate[a + 1] += per_s, rate[b] -= per_s;
  }
  double q = 0, s = 0, per_s = 0;
  for (std::size_t g = 0; g < n; ++g) {
    q += queue[g], s += active[g], per_s += rate[g];
    out.queue[g] = q, out.active[g] = s;
    out.series_tokens_per_s[g] = tokens[g] / dt + per_s;
  }
}

}  // namespace scalebook::serving
