#pragma once
// The cost of the four collectives over n GPUs (chapter 12), the model the `collective`
// calculator uses on a chip with an NVLink domain:
//   - inside a node of k GPUs (n <= k): every GPU sends at its NVLink egress W (one way):
//     AllGather and ReduceScatter take V (n-1)/n / W, AllReduce twice that, AllToAll
//     (direct sends) V (n-1)/n^2 / W;
//   - across M = n/k nodes (n a multiple of k): two stages, inside the nodes over NVLink and
//     between them over node egress W_node: AllGather and ReduceScatter V (k-1)/k / W and
//     V (M-1)/M / W_node, AllReduce twice each, AllToAll V (k-1)/n^2 / W (a GPU's blocks for
//     the rest of its node) and V (M-1)/M^2 / W_node (a node's blocks for the other nodes).
//     The stages pipeline, chunk after chunk, so the slower one sets the bandwidth time (the
//     book's max over levels); the latency term counts the steps of both.
//   - Steps: a ring of n - 1 sends per stage for AllGather and ReduceScatter (twice for
//     AllReduce), one round of direct sends per stage for AllToAll; each costs at least the
//     per-step latency: T = max(steps T_min, T_bandwidth).
#include "scalebook/collectives/collective_cost.h"

namespace scalebook {

// A GPU collective over n GPUs in nodes of `node_gpus` (n <= node_gpus, or a multiple of it).
struct GpuLinks {
  double nvlink_bandwidth = 0;  // B/s per GPU into the NVLink domain, one way
  double node_gpus = 0;         // GPUs in one NVLink domain
  double node_bandwidth = 0;    // B/s from one node into the scale-out network; 0: none
  double latency = 0;           // s per step
};

// The closed form above, with its worked steps (outputs t_bandwidth, hops, t_latency, time)
// unless explain is false.
CollectiveCost gpu_collective_cost(CollectiveOp op, double bytes, double gpus,
                                   const GpuLinks& links, bool explain = true);

}  // namespace scalebook
