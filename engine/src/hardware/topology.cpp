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
  t.levels = default_cluster(chip, n).levels;
  if (n > k && t.levels.size() == 1 && chip.node_egress_bandwidth > 0)
    t.levels.push_back({"scale-out", n / k, n, k, chip.node_egress_bandwidth});
  if (n > k && t.levels.size() < 2) {
    return Error{ErrorCode::unsupported, "chip",
                 chip.id +
                     " has no scale-out bandwidth in the catalog (nic_bandwidth or "
                     "node_egress_bandwidth), so shape must fit in one node of " +
                     format_number(k) + " GPUs; give node_egress_bandwidth to span nodes"};
  }
  t.axes.push_back({'G', static_cast<std::int64_t>(std::min(n, k))});
  if (n > k) t.axes.push_back({'N', static_cast<std::int64_t>(n / k)});
  return t;
}

}  // namespace

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
