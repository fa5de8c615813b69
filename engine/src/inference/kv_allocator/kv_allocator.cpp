// Padded against paged KV-cache allocation, and prefix sharing (kv_allocator.h).
#include "scalebook/inference/kv_allocator.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "scalebook/core/format.h"

namespace scalebook {
namespace {

// Enough quantiles that the page rounding's half a page shows to three digits for any page
// size, few enough that a sweep stays instant.
constexpr int kGrid = 1000;

// Request lengths at the midpoints of kGrid equal slices of probability, each a whole number
// of tokens in [1, S]; one length for a fixed distribution.
std::vector<double> length_grid(const KvAllocatorConfig& c) {
  if (c.lengths == LengthDistribution::fixed) return {std::fmin(c.mean, c.max_context)};
  std::vector<double> grid(kGrid);
  for (int i = 0; i < kGrid; ++i) {
    const double q = (i + 0.5) / kGrid;
    const double x =
        c.lengths == LengthDistribution::uniform ? 2 * c.mean * q : -c.mean * std::log1p(-q);
    grid[i] = std::fmin(std::fmax(std::ceil(x), 1), c.max_context);
  }
  return grid;
}

std::optional<Error> at_most_context(const char* field, double value, double max_context) {
  if (value <= max_context) return std::nullopt;
  return Error{ErrorCode::out_of_range, field,
               std::string(field) + " must be <= max_context (" + format_number(max_context) +
                   "), got " + format_number(value)};
}

// The most requests n whose pages fit the budget when floor(f n) of them share s bytes.
double requests_with_sharing(double budget, double b, double s, double f) {
  const double alone = std::floor(budget / b);
  if (s <= 0 || f <= 0) return alone;
  if (b - f * s <= 0) return std::numeric_limits<double>::infinity();
  // Counting f n sharers rather than floor(f n) saves at least as much, so this bounds n.
  double n = std::fmax(alone, std::floor((budget - s) / (b - f * s)));
  auto bytes = [&](double m) { return m * b - std::fmax(std::floor(f * m) - 1, 0) * s; };
  while (n > alone && bytes(n) > budget) --n;
  return n;
}

}  // namespace

const char* to_string(LengthDistribution kind) {
  switch (kind) {
    case LengthDistribution::fixed:
      return "fixed";
    case LengthDistribution::uniform:
      return "uniform";
    case LengthDistribution::exponential:
      return "exponential";
  }
  return "";
}

std::optional<Error> check_kv_allocator(const KvAllocatorConfig& c) {
  if (auto bad = at_most_context("page", c.page, c.max_context)) return bad;
  if (auto bad = at_most_context("mean", c.mean, c.max_context)) return bad;
  return at_most_context("prefix", c.prefix, c.max_context);
}

KvAllocation kv_allocation(const KvAllocatorConfig& c) {
  KvAllocation a;
  const std::vector<double> grid = length_grid(c);
  double shared_pages = 0;
  for (double l : grid) {
    a.mean_length += l;
    a.paged_tokens += std::ceil(l / c.page) * c.page;
    const double shared = std::fmin(c.prefix, l);
    a.shared_tokens += shared;
    shared_pages += std::floor(shared / c.page);
  }
  const double count = double(grid.size());
  a.mean_length /= count;
  a.paged_tokens /= count;
  a.shared_tokens /= count;
  shared_pages /= count;
  const double b = c.kv_bytes_per_token;
  a.padded_bytes = c.max_context * b;
  a.padded_waste = 1 - a.mean_length / c.max_context;
  a.padded_requests = std::floor(c.budget / a.padded_bytes);
  a.paged_bytes = a.paged_tokens * b;
  a.paged_waste = 1 - a.mean_length / a.paged_tokens;
  a.paged_requests = std::floor(c.budget / a.paged_bytes);
  a.gain = a.padded_requests > 0 ? a.paged_requests / a.padded_requests : 0;
  a.prefill_fraction = 1 - a.shared_tokens / a.mean_length;
  a.shared_bytes = shared_pages * c.page * b;
  a.shared_requests = requests_with_sharing(c.budget, a.paged_bytes, a.shared_bytes, c.share);
  if (std::isfinite(a.shared_requests)) {
    a.sharing = std::floor(c.share * a.shared_requests);
    const double skipping = std::fmax(a.sharing - 1, 0);
    a.compute_saved = a.shared_requests > 0
                          ? skipping * a.shared_tokens / (a.shared_requests * a.mean_length)
                          : 0;
    a.bytes_saved = skipping * a.shared_bytes;
  }
  return a;
}

}  // namespace scalebook
