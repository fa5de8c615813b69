#pragma once
// Internal to the collective calculator: the collective on one chip's links, ready for the
// outputs both kinds of chip share.
//
// A TPU: collective_cost.h's closed form over the given axes, with the chip's
// ici_link_bandwidth W and ici_hop_latency (or the latency input). Which axes wrap around:
//   - wraparound=yes or no: every axis alike;
//   - auto, with `axes` giving one size per torus axis (a slice shape): the slice's rule
//     (slice_wraps);
//   - auto otherwise, per axis of n chips: n a multiple of the cube edge (v4p, v5p), or n one
//     of the pod's extents (v3, v5e, v6e).
// Peak injection bandwidth of one chip: per axis, no link for an axis of 1 chip, else 2 when
// it wraps or has 3 or more chips and 1 otherwise, each at W one way.
//
// A GPU: gpu_collective_cost.h's model with the chip's nvlink_bandwidth W, nvlink_domain_gpus
// k and node_egress_bandwidth W_node, over n <= k GPUs or a multiple of k. Peak injection
// bandwidth: W, plus W_node / k (its share of the node's egress) across nodes.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/core/status.h"
#include "scalebook/core/value.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook::collective_chips {

using Sizes = std::vector<std::int64_t>;

// What the calculator reads from its inputs.
struct Request {
  CollectiveOp op = CollectiveOp::all_gather;
  double bytes = 0;                 // B: V, the whole array
  Sizes sizes;                      // chips along each axis
  bool from_axes = false;           // sizes from `axes` rather than `axis_size`, for messages
  std::string wraparound = "auto";  // auto, yes or no
  bool bidirectional = true;        // rings used both ways
  std::optional<double> latency;    // s per hop, when given
  // GPUs: the cluster (a preset id; empty: the one the GPU count gets), reduction in the
  // switches, and how many GPUs apart the group's neighbours are (an inner axis's size).
  std::string cluster;
  bool in_network = false;
  double stride = 1;
  bool explain = true;  // false: the numbers only, no steps or LaTeX
};

// Everything the two kinds of chip hand to the shared outputs.
struct Model {
  CollectiveCost cost;
  double chips = 1;             // chips in the collective
  double link_bandwidth = 0;    // B/s, one link one way (a GPU's NVLink egress)
  double latency = 0;           // s per hop
  double peak = 0;              // B/s one chip can inject on the axes used
  std::string peak_latex;       // how peak is made up (explaining only)
  Value wraps = Value::none();  // per axis "yes" or "no", joined by commas; none on a GPU
};

// Each checks the chip's links, adds the steps that show them (and on a TPU each axis's
// wraparound) to `steps`, and costs the collective.
Result<Model> tpu_model(const Chip& chip, const Request& q, std::vector<Step>& steps);
Result<Model> gpu_model(const Chip& chip, const Request& q, std::vector<Step>& steps);

// For the calculator's own steps and messages too.
std::string num(std::int64_t x);
std::string join_sizes(const Sizes& sizes, const char* sep);
double product(const Sizes& sizes);
Error fail(ErrorCode code, const std::string& field, std::string message);
Step step(std::string label, std::string latex, double value, const char* unit, const char* output,
          std::initializer_list<const char*> depends);

}  // namespace scalebook::collective_chips
