#pragma once
// The cost of a collective over a group of GPUs on a switched fabric of several levels
// (chapter 12): the node's NVSwitches, then the leaf and spine of the scale-out network.
//
// A group spans extents[i] children at level i (GPUs of one node at the node level, nodes of
// one scalable unit at the leaf, units at the spine; their product is the group's n GPUs);
// g_i, the product of the extents below level i, is how many of the group's GPUs sit in one
// child of level i. Every GPU of the fabric runs the same collective in its own group at once,
// so a child's link into level i (W_i, shared by its child_gpus GPUs) gives this group
// g_i / child_gpus of its bandwidth. With V the bytes of the whole array:
//   - AllGather and ReduceScatter go level by level (hierarchically), each stage over the
//     children of one level: stage i moves V (d_i - 1) / d_i from each child, at its share of
//     W_i and of every link below it that those bytes also cross (a node's NICs carry the
//     spine's stage too): T_i = V (d_i - 1) / d_i / g_i * max_{1<=l<=i} child_gpus_l / W_l;
//     inside a node a GPU's NVLink egress carries only the node's stage. AllReduce is twice.
//   - With in-network reduction (NVLS on the NVSwitches, SHARP on the scale-out switches) an
//     AllReduce stage moves V once up and once down instead: T_i = V / share, the book's
//     bytes / W_egress.
//   - AllToAll is not hierarchical: each GPU sends V/n^2 to every other; the blocks leaving a
//     child of level i (to the n - g_i GPUs outside it) cross its link: T_i = (n - g_i) V
//     child_gpus_i / (n^2 W_i); a GPU's NVLink carries only its node's (d_0 - 1) blocks.
// The stages pipeline, chunk after chunk, so the slowest sets the bandwidth time (the book's
// max over levels). Steps: d_i - 1 sends per stage (twice for AllReduce, 1 with in-network
// reduction), one round of direct sends per level for AllToAll; each costs at least the
// latency: T = max(steps T_min, T_bandwidth).
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/hardware/topology.h"

namespace scalebook {

struct SwitchedCost {
  double t_bandwidth = 0;           // s: the slowest level's
  double hops = 0;                  // sequential steps
  std::vector<double> level_times;  // s per level (0 for a level the group does not span)
  int binding = -1;                 // the level that sets t_bandwidth (-1: none)
};

// The extents of a group with `in_node` GPUs in each of `nodes` nodes, the nodes `node_stride`
// apart (1: neighbours): at each level above the node, as many of its nodes as one group of
// that level (an SU, a pod) holds, the rest spread over the levels above.
std::vector<double> switched_extents(const std::vector<ClusterLevel>& levels, double in_node,
                                     double nodes, double node_stride);

// Numbers only: the group's extents, one per level (missing ones are 1).
SwitchedCost switched_cost(CollectiveOp op, double bytes, const std::vector<double>& extents,
                           const std::vector<ClusterLevel>& levels, bool in_network = false);

}  // namespace scalebook
