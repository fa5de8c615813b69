// The frontier's slices, batch sizes and Pareto front (frontier.h).
#include "frontier.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "scalebook/hardware/slice.h"

namespace scalebook::inference_parts {

std::vector<std::string> default_shapes(const Chip& chip) {
  std::vector<std::string> out;
  if (chip.ici_link_bandwidth <= 0 || chip.torus_dims <= 0) {
    const double node = chip.nvlink_domain_gpus > 0 ? chip.nvlink_domain_gpus : 1;
    for (double g = 1; g <= node && out.size() < 8; g *= 2) out.push_back(std::to_string(int(g)));
    return out;
  }
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(chip.torus_dims), 1);
  while (out.size() < 8) {
    if (!slice_wraps(chip, sizes).ok()) break;
    std::string shape;
    for (std::int64_t s : sizes) shape += (shape.empty() ? "" : "x") + std::to_string(s);
    out.push_back(shape);
    // Double the last of the smallest axes, so 1x1 grows to 1x2, then 2x2, 2x4, ...
    std::size_t at = sizes.size() - 1;
    for (std::size_t i = sizes.size(); i-- > 0;)
      if (sizes[i] < sizes[at]) at = i;
    sizes[at] *= 2;
  }
  return out;
}

std::vector<double> default_batches() {
  std::vector<double> out;
  double previous = 0;
  for (int i = 0; i < 64; ++i) {
    const double b = std::max(previous + 1, std::round(std::pow(4096.0, i / 63.0)));
    out.push_back(b);
    previous = b;
  }
  return out;
}

void mark_front(std::vector<FrontierPoint>& points) {
  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const double ta = points[a].step.t_per_token, tb = points[b].step.t_per_token;
    if (ta != tb) return ta < tb;
    return points[a].step.tokens_per_s_per_chip > points[b].step.tokens_per_s_per_chip;
  });
  double best = -1;
  for (std::size_t i : order) {
    FrontierPoint& p = points[i];
    if (!p.step.fits) continue;
    if (p.step.tokens_per_s_per_chip > best) {
      p.front = true;
      best = p.step.tokens_per_s_per_chip;
    }
  }
}

}  // namespace scalebook::inference_parts
