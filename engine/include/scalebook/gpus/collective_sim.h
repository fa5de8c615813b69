#pragma once
// A collective over a few GPUs on a switched fabric, played step by step for chapter 12's
// simulator: the moves of gpu_collective_cost.h's model, so its total is that model's time.
//
// The group: n GPUs of one chip, one node's worth or fewer, or whole nodes (n <= 64), placed
// on a cluster preset's levels or on the fat tree a job of n GPUs gets (default_cluster).
// GPU g has a digit per level: its place among the children of that level (its slot in the
// node, its node in the SU, ...), g = sum_i digit_i g_i, g_i the group's GPUs in one child of
// level i. The model (switched_cost.h) runs one stage per level the group spans and lets the
// stages pipeline, so the slowest sets the bandwidth time; its H steps each cost at least the
// latency: T = max(H T_min, max_i T_i). The simulation plays exactly those H steps, each
// carrying 1/H of every level's stage (the message cut into slices that flow through the
// levels at once; the pipeline's fill and drain are left out, as the model leaves them out):
//   - ring (AllGather, ReduceScatter, AllReduce): at level i every GPU sends to the GPU whose
//     digit_i is one more (mod d_i), over NVLink through the NVSwitch at the node level, else
//     out of its NIC through the leaf (and spine) switches. Level i's ring cycles through its
//     d_i - 1 sends; the chunk a move carries is named by the GPU whose shard it is (AllGather:
//     digit_i - j, ReduceScatter: digit_i - j - 1, for the j-th send). An AllReduce is H/2
//     ReduceScatter steps, then H/2 AllGather steps.
//   - in-network (AllReduce only): at each level every GPU sends its slice up into the switch
//     (NVLS on the NVSwitch, SHARP on the leaf), which reduces and sends the sum back down: one
//     step per level spanned.
//   - direct (AllToAll only): every GPU sends each other GPU 1/H of its block in every step,
//     over the highest level where their digits differ; H is one round per level spanned.
// A step at level i costs its per-GPU bytes over the GPU's share of that level's links (the
// model's: W_0 on NVLink, the worst of child_gpus_l / W_l for l = 1..i above it, AllToAll its
// own level's), the step max(latency, the slowest level); its binding level is that slowest
// one, or none when the latency is longer.
#include <cstdint>
#include <string>
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook {

inline constexpr double kMaxGpuSimGpus = 64;

enum class GpuSimAlgorithm { ring, in_network, direct };

const char* to_string(GpuSimAlgorithm a);  // "ring", "in-network", "direct"

struct GpuCollectiveSimRequest {
  CollectiveOp op = CollectiveOp::all_gather;
  GpuSimAlgorithm algorithm = GpuSimAlgorithm::ring;
  std::string chip = "h100";
  std::string cluster;  // a cluster preset's id; empty: the fat tree n GPUs get
  double gpus = 8;
  double bytes = 0;    // V: the whole array, B
  double latency = 0;  // s, the least a step takes
};

// A GPU's bytes on their way: to = -1 is into the level's switch (in-network reduction),
// from = -1 out of it, back down to every GPU under it.
struct GpuSimMove {
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t chunk = 0;  // the GPU whose shard (AllToAll: whose block) the bytes are part of
  int level = 0;           // the level the bytes cross (0: the node's NVSwitch)
  double bytes = 0;
};

struct GpuSimLevel {
  std::string name;          // node, leaf, spine, core
  double extent = 1;         // d_i: the group's children at this level
  double below = 1;          // g_i: the group's GPUs in one child
  double child_gpus = 1;     // the fabric's GPUs under one child (sharing its link)
  double bandwidth = 0;      // W_i: B/s one way from one child into the level
  double gpu_bandwidth = 0;  // B/s one way a GPU of the group gets at this level (the model's)
  double stage_time = 0;     // s: the model's T_i
};

struct GpuSimStep {
  double start = 0;                               // s
  double duration = 0;                            // s
  CollectiveOp phase = CollectiveOp::all_gather;  // all_gather, reduce_scatter, all_reduce
                                                  // (in the switches) or all_to_all
  std::vector<double> level_bytes;                // B one GPU sends at each level in this step
  std::vector<double> level_times;  // s: those bytes over the GPU's share of the level
  int binding = -1;                 // the slowest level, -1 when the latency binds
  std::vector<GpuSimMove> moves;
};

struct GpuCollectiveSimResult {
  CollectiveOp op = CollectiveOp::all_gather;
  GpuSimAlgorithm algorithm = GpuSimAlgorithm::ring;
  std::string chip;
  std::string fabric;  // the cluster preset's name, or the default fat tree's description
  double gpus = 0;
  double node_gpus = 0;             // the group's GPUs in one node
  double nodes = 0;                 // nodes the group spans
  std::vector<GpuSimLevel> levels;  // node first, up to the highest the group spans
  std::vector<GpuSimStep> steps;
  double time = 0;         // the steps' durations summed
  double t_bandwidth = 0;  // the model's
  double hops = 0;         // the model's H
  int binding = -1;        // the model's binding level
  double closed_form = 0;  // gpu_collective_cost's time for the same group
};

// Errors name the field: op, algorithm, chip, cluster, gpus, bytes, latency.
Result<GpuCollectiveSimResult> simulate_gpu_collective(const GpuCollectiveSimRequest& request);

// The request from named fields as the WASM API and the CLI take them (numbers may come as
// decimal text); absent ones take their defaults: all-gather, ring (direct for an AllToAll),
// h100, auto, 8 GPUs, the collective calculator's default bytes, latency 0.
Result<GpuCollectiveSimRequest> gpu_collective_sim_request(const Inputs& fields);

// The fields in order, for the registry's unknown-field message.
const std::vector<std::string>& gpu_collective_sim_fields();

}  // namespace scalebook
