// The serving search's slices and batch sizes (search.h).
#include "search.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "scalebook/hardware/slice.h"

namespace scalebook::inference_parts {

std::vector<std::string> pod_shapes(const Chip& chip, double max_chips) {
  std::vector<std::string> out;
  if (chip.ici_link_bandwidth <= 0 || chip.torus_dims <= 0) {
    const double node = chip.nvlink_domain_gpus > 0 ? chip.nvlink_domain_gpus : 1;
    for (double g = 1; g <= std::min(node, max_chips); g *= 2)
      out.push_back(std::to_string(int(g)));
    return out;
  }
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(chip.torus_dims), 1);
  // A pod has at most 2^14 chips (v4 and v5p 8960): the loop ends well before its 64 rounds.
  for (int round = 0; round < 64; ++round) {
    double chips = 1;
    for (std::int64_t s : sizes) chips *= double(s);
    if (chips > max_chips || !slice_wraps(chip, sizes).ok()) break;
    std::string shape;
    for (std::int64_t s : sizes) shape += (shape.empty() ? "" : "x") + std::to_string(s);
    out.push_back(shape);
    std::size_t at = sizes.size() - 1;
    for (std::size_t i = sizes.size(); i-- > 0;)
      if (sizes[i] < sizes[at]) at = i;
    sizes[at] *= 2;
  }
  return out;
}

std::vector<double> batch_ladder(double most) {
  std::vector<double> out;
  most = std::floor(most);
  for (double b = 1; b < most; b *= 2) {
    out.push_back(b);
    const double half = std::round(b * std::sqrt(2.0));
    if (half > b && half < std::min(2 * b, most)) out.push_back(half);
  }
  if (most >= 1) out.push_back(most);
  return out;
}

}  // namespace scalebook::inference_parts
