#pragma once
// The cost of the four collectives over a group of GPUs on a switched fabric (chapter 12), with
// its worked steps: the model of switched_cost.h (each level's stage at the group's share of
// that level's links, the slowest stage setting the bandwidth time), then the latency term:
// T = max(steps T_min, T_bandwidth). The `collective` calculator and inference use it.
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/hardware/cluster.h"

namespace scalebook {

struct GpuGroup {
  std::vector<ClusterLevel> levels;  // the cluster's, node first
  std::vector<double> extents;       // the group's GPUs at each level (switched_extents)
  double latency = 0;                // s per step
  bool in_network = false;           // NVLS / SHARP reduce AllReduces in the switches
};

// Outputs t_bandwidth, hops, t_latency, time; steps unless explain is false.
CollectiveCost gpu_collective_cost(CollectiveOp op, double bytes, const GpuGroup& group,
                                   bool explain = true);

}  // namespace scalebook
