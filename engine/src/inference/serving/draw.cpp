// The run's random draws. Only + - * / and exact conversions touch the numbers, so every
// platform draws the same run from a seed (std's distributions differ between libraries, and
// libm's log need not round alike everywhere).
#include <cmath>
#include <cstdint>

#include "serving_parts.h"

namespace scalebook::serving {
namespace {

// splitmix64 (Steele, Lea and Flood): one 64-bit state, full period, good enough for draws.
struct Stream {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double below_one() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }         // [0, 1)
  double above_zero() { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }  // (0, 1]
};

Stream stream(std::uint64_t seed, std::uint64_t which) {
  Stream s{seed ^ (which * 0xd1b54a32d192ed03ull)};
  s.next();
  return s;
}

// ln x for x in (0, 1]: x = m 2^e with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s) for
// s = (m - 1)/(m + 1), |s| < 0.172, whose odd series is below an ulp after 20 terms.
double ln(double x) {
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < 0.70710678118654752) m *= 2, --e;
  const double s = (m - 1) / (m + 1), s2 = s * s;
  double term = s, sum = 0;
  for (int k = 1; k < 40; k += 2) sum += term / k, term *= s2;
  return 2 * sum + e * 0.69314718055994530942;
}

double length(const LengthDist& d, Stream& s) {
  double x = d.mean;
  if (d.kind == LengthKind::uniform) {
    x = d.min + std::floor(s.below_one() * (d.max - d.min + 1));
  } else if (d.kind == LengthKind::exponential) {
    x = std::ceil(-d.mean * ln(s.above_zero()));
  }
  if (d.kind != LengthKind::fixed) x = std::fmin(std::fmax(x, d.min), d.max);
  return x;
}

}  // namespace

Requests draw_requests(const ServingConfig& c) {
  const auto n = static_cast<std::size_t>(c.requests);
  Requests r;
  r.arrival.resize(n), r.prompt.resize(n), r.output.resize(n);
  Stream gaps = stream(c.seed, 1), prompts = stream(c.seed, 2), outputs = stream(c.seed, 3);
  double t = 0;
  for (std::size_t i = 0; i < n; ++i) {
    t += -ln(gaps.above_zero()) / c.rate;
    r.arrival[i] = t;
    r.prompt[i] = length(c.prompt, prompts);
    r.output[i] = length(c.output, outputs);
  }
  r.prefill_start.assign(n, 0), r.admitted.assign(n, 0);
  r.first.assign(n, 0), r.finish.assign(n, 0);
  return r;
}

}  // namespace scalebook::serving
