#pragma once
// The closed-form cost of the four collectives over one or more axes of a TPU torus: the
// model of the book's chapter 3, shared by the `collective` and `sharded-matmul` calculators.
//
// Along one axis of n chips, with W the one-direction bandwidth of a link and V the bytes of
// the whole array (the gathered array for an AllGather, the input of a ReduceScatter, the
// array being reduced for an AllReduce, the array being transposed for an AllToAll):
//   - AllGather / ReduceScatter on a ring used both ways: floor(n/2) hops, each moving one
//     shard (V/n) each way: T = floor(n/2) V / (n W), which is V / W_bidi for even n;
//   - on a ring used one way, or a line (no wraparound): n - 1 hops of one shard:
//     T = (n - 1) V / (n W);
//   - AllReduce = ReduceScatter + AllGather: twice both terms;
//   - AllToAll: the bytes crossing the cheapest cut of the largest axis, floor(n/2) ceil(n/2)
//     V / n^2 (about V/4), over the links that cut severs one way (2 per ring line, 1 per
//     line), which is V / (4 W_bidi) on a ring; one way round a ring, each block j hops:
//     (n - 1) V / (2 n W).
// Several axes run at once, each carrying its share in proportion to its speed, so their
// bandwidth rates add (the book's V / (W_bidi N_axes) for equal rings), while the latency
// term adds the hops of every axis (the longest path). Adding rates is only as good as the
// links of the worst-placed chip: a corner chip of a mesh without wraparound has one link per
// line axis (two per ring used both ways), and must still take in its (n-1)/n V (twice that
// for an AllReduce), so T_bandwidth is at least that over those links. Each hop costs at
// least the per-hop latency: T = max(hops T_min, T_bandwidth). An axis with a stride s (the
// outer part of a split axis) takes s times each of its terms.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/value.h"
#include "scalebook/hardware/axis.h"

namespace scalebook {

enum class CollectiveOp { all_gather, reduce_scatter, all_reduce, all_to_all };

std::vector<std::string> collective_op_names();  // all-gather, reduce-scatter, ...
std::optional<CollectiveOp> parse_collective_op(std::string_view name);
const char* to_string(CollectiveOp op);  // "all-gather"
const char* book_name(CollectiveOp op);  // "AllGather", as the book writes it

struct LinkModel {
  double bandwidth = 0;       // B/s per link, one direction (W_uni)
  double hop_latency = 0;     // s per hop (T_min)
  bool bidirectional = true;  // rings used both ways; a line always uses both
};

struct CollectiveCost {
  double time = 0;  // max(t_latency, t_bandwidth)
  double t_bandwidth = 0;
  double t_latency = 0;
  double hops = 0;                // sequential hops the latency term counts
  std::vector<double> axis_hops;  // each axis's share of `hops`, in order (size-1 axes skipped)
  double bytes_per_chip = 0;      // bytes each chip must send (nccl-tests convention)
  double crossover_bytes = 0;     // V at which both terms are equal; 0 when no latency
  bool latency_bound = false;
  // The worked solution; steps compute outputs named t_bandwidth, t_latency, time.
  std::vector<Step> steps;
};

// Bytes each chip sends (the nccl-tests convention): (n-1)/n V for AllGather and ReduceScatter,
// twice that for AllReduce, (n-1)/n^2 V for AllToAll.
double collective_bytes_per_chip(CollectiveOp op, double bytes, double chips);

// The tail both the torus and the GPU models share, once t_bandwidth and hops are set: the
// latency term (hops_latex spells out the hops), the larger of the two, and the byte counts.
// explain false: the numbers only, no steps (the hops_latex then goes unread).
void finish_collective_cost(CollectiveCost& cost, CollectiveOp op, double bytes, double chips,
                            const char* latency_label, const std::string& hops_latex,
                            double hop_latency, bool explain = true);

// `axes` with size 1 are skipped; an empty or all-1 list costs nothing. explain false leaves
// `steps` empty, for sweeps and searches: the numbers are the same.
CollectiveCost collective_cost(CollectiveOp op, double bytes, const std::vector<Axis>& axes,
                               const LinkModel& link, bool explain = true);

}  // namespace scalebook
