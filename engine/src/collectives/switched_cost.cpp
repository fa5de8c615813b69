#include "scalebook/collectives/switched_cost.h"

#include <algorithm>
#include <cmath>

namespace scalebook {

std::vector<double> switched_extents(const std::vector<ClusterLevel>& levels, double in_node,
                                     double nodes, double node_stride) {
  std::vector<double> extents(levels.size(), 1);
  if (extents.empty()) return extents;
  extents[0] = in_node;
  const double node_gpus = levels[0].gpus;
  double before = 1;
  for (std::size_t l = 1; l < extents.size(); ++l) {
    const double span = levels[l].gpus / node_gpus;  // nodes under one group of the level
    const double here =
        l + 1 == extents.size()
            ? nodes
            : std::min(nodes, std::max(1.0, std::floor(span / std::max(node_stride, 1.0))));
    extents[l] = here / before;
    before = here;
  }
  return extents;
}

SwitchedCost switched_cost(CollectiveOp op, double bytes, const std::vector<double>& extents,
                           const std::vector<ClusterLevel>& levels, bool in_network) {
  SwitchedCost out;
  out.level_times.assign(levels.size(), 0);
  double n = 1;
  for (std::size_t i = 0; i < levels.size() && i < extents.size(); ++i) n *= extents[i];
  if (n <= 1) return out;
  const bool a2a = op == CollectiveOp::all_to_all;
  const bool reduce = op == CollectiveOp::all_reduce;
  const bool sharp = reduce && in_network;
  double below = 1;        // g_i: the group's GPUs inside one child of level i
  double worst_share = 0;  // max over levels 1..i of child_gpus / W (s per byte per GPU)
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const ClusterLevel& l = levels[i];
    const double d = i < extents.size() ? extents[i] : 1;
    if (i > 0 && l.child_bandwidth > 0)
      worst_share = std::max(worst_share, l.child_gpus / l.child_bandwidth);
    const double per_gpu = i == 0 ? 1 / l.child_bandwidth : worst_share;
    double t = 0;
    if (a2a) {
      // Blocks leaving one child: to the node's others over NVLink, to everyone outside it
      // over the scale-out links.
      const double leaving = i == 0 ? d - 1 : n - below;
      if (leaving > 0) {
        t = leaving * bytes * (i == 0 ? 1 / l.child_bandwidth : l.child_gpus / l.child_bandwidth) /
            (n * n);
        out.hops += 1;
      }
    } else if (d > 1) {
      t = sharp ? bytes / below * per_gpu
                : (reduce ? 2 : 1) * bytes * (d - 1) / d / below * per_gpu;
      out.hops += sharp ? 1 : (reduce ? 2 : 1) * (d - 1);
    }
    out.level_times[i] = t;
    if (t > out.t_bandwidth) {
      out.t_bandwidth = t;
      out.binding = static_cast<int>(i);
    }
    below *= d;
  }
  return out;
}

}  // namespace scalebook
