#include "scalebook/hardware/topology.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "scalebook/core/format.h"
#include "scalebook/hardware/slice.h"

namespace scalebook {
namespace {

constexpr char kTorusAxes[] = {'X', 'Y', 'Z'};

Error shape_error(ErrorCode code, std::string message) {
  return Error{code, "shape", std::move(message)};
}

Result<Topology> switched(const Chip& chip, const std::string& shape) {
  std::vector<std::int64_t> sizes;
  if (!parse_axis_sizes(shape, sizes) || sizes.size() != 1) {
    return shape_error(ErrorCode::invalid_argument, "shape on a GPU is a count of GPUs, like " +
                                                        format_number(chip.nvlink_domain_gpus) +
                                                        ", got \"" + shape + "\"");
  }
  const double k = chip.nvlink_domain_gpus;
  const double n = static_cast<double>(sizes[0]);
  if (n > k && std::fmod(n, k) != 0) {
    return shape_error(ErrorCode::invalid_argument,
                       "shape must be at most " + format_number(k) + " GPUs (one " + chip.id +
                           " node) or a multiple of " + format_number(k) + ", got " +
                           format_number(n));
  }
  Topology t;
  t.fabric = Fabric::switched;
  t.chips = n;
  t.link_bandwidth = chip.nvlink_bandwidth;
  t.node_gpus = k;
  t.node_bandwidth = chip.node_egress_bandwidth;
  t.levels = switch_levels(chip, n);
  t.axes.push_back({'G', static_cast<std::int64_t>(std::min(n, k))});
  if (n > k) t.axes.push_back({'N', static_cast<std::int64_t>(n / k)});
  return t;
}

}  // namespace

std::vector<SwitchLevel> switch_levels(const Chip& chip, double gpus) {
  const double k = chip.nvlink_domain_gpus;
  std::vector<SwitchLevel> levels{{std::min(gpus, k), 1, chip.nvlink_bandwidth}};
  if (gpus <= k) return levels;
  const double nodes = gpus / k;
  const double su = kNodesPerScalableUnit;
  // Units of whole scalable units get a spine; a count that is not one stays on one tier.
  if (nodes <= su || std::fmod(nodes, su) != 0) {
    levels.push_back({nodes, k, chip.node_egress_bandwidth});
    return levels;
  }
  levels.push_back({su, k, chip.node_egress_bandwidth});
  levels.push_back({nodes / su, su * k, su * chip.node_egress_bandwidth});
  return levels;
}

Result<Topology> topology_of(const Chip& chip, const std::string& shape) {
  if (chip.torus_dims <= 0 && chip.nvlink_domain_gpus > 0) return switched(chip, shape);
  std::vector<std::int64_t> sizes;
  if (!parse_axis_sizes(shape, sizes) || sizes.empty()) {
    return shape_error(ErrorCode::invalid_argument,
                       "shape must be sizes joined by x, like 4x4x8, got \"" + shape + "\"");
  }
  Result<std::vector<Wrap>> wraps = slice_wraps(chip, sizes);
  if (!wraps.ok()) return wraps.error();
  Topology t;
  t.link_bandwidth = chip.ici_link_bandwidth;
  t.hop_latency = chip.ici_hop_latency;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    t.axes.push_back({kTorusAxes[i], sizes[i], wraps.value()[i] == Wrap::yes});
    t.chips *= static_cast<double>(sizes[i]);
  }
  return t;
}

}  // namespace scalebook
