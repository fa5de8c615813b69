#pragma once
// How a workload is laid out over a slice: which of the slice's axes each parallel strategy
// spans (data, fully sharded data, tensor, pipeline and expert parallelism), the degrees that
// makes, the slice's axes split into neighbours and groups of them, and the collective costs of
// a layout, memoized. Training (chapters 5 and 6) and inference (chapters 7 and 8) lay their
// work out the same way, so this sits below both.
//
// The rules: each strategy spans a set of the slice's axes, and its degree is the product of
// their sizes. No axis belongs to two strategies; every axis belongs to one (fsdp takes the
// axes no other strategy names). An axis may first be split (split_axis) into its inner
// neighbours, which keep its name, and the groups of them, its primed name (X').
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/core/status.h"
#include "scalebook/hardware/axis.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/topology.h"

namespace scalebook {

// The strategies, in the order every list of them keeps.
enum class Strategy { dp, fsdp, tp, pp, ep };
inline constexpr int kStrategies = 5;
// Indices into a layout's masks, degrees and axis counts.
inline constexpr int kDp = static_cast<int>(Strategy::dp);
inline constexpr int kFsdp = static_cast<int>(Strategy::fsdp);
inline constexpr int kTp = static_cast<int>(Strategy::tp);
inline constexpr int kPp = static_cast<int>(Strategy::pp);
inline constexpr int kEp = static_cast<int>(Strategy::ep);
// The names every input, table and message gives them, in that order.
inline constexpr const char* kStrategyNames[kStrategies] = {"dp", "fsdp", "tp", "pp", "ep"};
const char* to_string(Strategy s);  // kStrategyNames[s]

inline constexpr unsigned kDcnMask = 1u << 7;  // an axes mask bit: the slices over DCN

// The slice and which of its axes each strategy spans; fixed for a prepared calculation.
struct ParallelLayout {
  std::vector<Axis> axes;                     // the slice's, in order
  double chips = 1;                           // chips in one slice
  std::array<unsigned, kStrategies> masks{};  // bit i: axis i belongs to the strategy
  std::array<double, kStrategies> degrees{};  // product of the strategy's axes, chips
  // Axes each strategy spans (the book's M); the outer part of a split axis, with its links
  // shared by `stride` groups, counts 1/stride.
  std::array<double, kStrategies> axis_counts{};
  std::array<bool, kStrategies> axes_given{};  // its axes came from its own input
  std::string shape;                           // as given, for messages
  // GPUs (chapter 12): the axes are G (a node's GPUs) and N (the nodes), and a collective costs
  // what the switched fabric's levels give its group (collectives/switched_cost.h).
  bool switched = false;
  std::vector<ClusterLevel> levels;
};

// Splits axis i (n chips) into k neighbouring chips (named as before, a line) followed by the
// n/k groups of them, k apart (primed; a ring when the axis is). k divides n, 1 < k < n.
void split_axis(ParallelLayout& layout, std::size_t i, std::int64_t k);
// Switched layouts: the GPUs a group of the axes in `mask` spans at each of the fabric's
// levels (the node's, then the nodes per scalable unit, then the units).
std::vector<double> group_extents(const ParallelLayout& layout, unsigned mask);
// "X4" for each split axis of the layout (the size of its inner part), comma-separated; "".
std::string split_text(const ParallelLayout& layout);

// Collective times per byte, costed once per (op, axes, link) by collective_cost and reused.
class CostMemo {
 public:
  struct Cost {
    double per_byte = 0;   // s per byte of V: the bandwidth term's slope
    double t_latency = 0;  // s, independent of V
    double hops = 0;       // sequential hops the latency term counts
  };
  Cost get(CollectiveOp op, const ParallelLayout& layout, unsigned mask, std::int64_t slices,
           const LinkModel& link);

 private:
  struct Entry {
    CollectiveOp op;
    unsigned mask;
    std::int64_t slices;
    double bandwidth, latency;
    Cost cost;
  };
  std::vector<Entry> entries_;
  // The entry each (op, mask, slices) was last found at, by a hash of them: the search asks a
  // few collectives per configuration of the same dozens, and a scan of them all cost an eighth
  // of its time. 0 is empty, else the index plus one.
  std::array<std::uint16_t, 64> recent_{};
};

// The slice's axes for `chip` and `shape` (on a GPU, a count of GPUs: axes G and N), and the
// strategies' axes from their texts (null: not given; "-" or "none": no axes); fsdp takes the axes
// no other strategy names unless its own are given. `split` (null or "": none) splits axes first,
// "X4 Z2": X into X (4 neighbouring chips) and X' (the groups of 4), which the axes texts then
// name. Errors name the field: shape, split or <strategy>_axes.
Result<ParallelLayout> parse_layout(const Chip& chip, const std::string& shape,
                                    const std::array<const std::string*, kStrategies>& axes_text,
                                    const std::string* split = nullptr);
// Gives strategy s the axes in `mask` (bit i: axis i), setting its degree and axis count.
void assign_axes(ParallelLayout& layout, int s, unsigned mask);
// Places each strategy given a degree but no axes on the axes fsdp took by default: the fewest
// whose sizes multiply to the degree, the latest of them (the book puts the batch on X and the
// model on Y), for tp, ep, pp and dp in that order; fsdp keeps the rest. On GPUs tp and ep take
// the earliest instead (a node's GPUs, over NVLink), and a degree no free axis has splits a
// free G or N (its first `degree` GPUs or nodes). A degree of 1, or one whose axes were given,
// is left to check_degrees. An error names the degree that no set of the free axes spans.
std::optional<Error> place_degrees(ParallelLayout& layout,
                                   const std::array<double, kStrategies>& given);
// The degrees given against the layout's; an error naming the first degree given when they do
// not multiply to the slice's chips, or the one that does not match its axes.
std::optional<Error> check_degrees(const ParallelLayout& layout,
                                   const std::array<double, kStrategies>& given);

}  // namespace scalebook
