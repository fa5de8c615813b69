#pragma once
// The four collectives step by step, to animate them and to check collective_cost.h's closed
// forms: on one axis (a ring, used both ways or one way, or a line without wraparound) or on a
// 2D torus, whose two axes run as sequential phases, first along X (axis 0), then along Y.
//
// Devices are numbered row-major over the shape (device x * n_Y + y on a 2D torus). Chunks:
//   - AllGather, ReduceScatter, AllReduce: N chunks, chunk c the shard device c ends up with
//     (ReduceScatter) or starts with (AllGather), each V/N bytes;
//   - AllToAll: N^2 blocks, block src * N + dst going from device src to device dst, V/N^2.
// Each step every device sends to its neighbours at once; a step lasts
// max(latency, the most bytes on any one link in one direction / bandwidth).
// Schedules along one axis of n:
//   - AllGather on a ring used both ways: each shard travels floor(n/2) hops one way and the
//     rest the other, one hop per step (floor(n/2) steps); one way round a ring, n - 1 steps;
//     on a line, shards flow both ways, n - 1 steps. Every step carries one shard per busy
//     link, so the time is collective_cost's closed form in either regime.
//   - ReduceScatter: the AllGather run backwards (reversed in time and direction): partial
//     sums flow towards their owner along the same paths, accumulating. On a 2D torus it is
//     the reverse of an AllGather along Y then X, so it too runs along X first.
//   - AllReduce: a ReduceScatter, then an AllGather.
//   - AllToAll on a ring: every block leaves at once on the shorter way round (a block
//     exactly half-way splits in two, one half each way) and moves one hop a step; each step
//     loads every link alike, so the time is the closed form when all steps are in one regime.
//     On a line the cut in the middle carries floor(n/2) ceil(n/2) blocks; spreading them over
//     n - 1 steps, each link forwards at most that / (n - 1) blocks a step, farthest
//     destination first (pieces of a block may wait a step). Every step is then equally
//     loaded and the time is the closed form in either regime.
// On a 2D torus the sequential phases make the time the sum of the phases' one-axis times,
// more than the closed form (collective_cost runs the axes at once); in the latency regime
// both count the same hops.
#include <cstdint>
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook {

inline constexpr std::int64_t kMaxSimAxis = 64;
inline constexpr std::int64_t kMaxSimDevices = 256;
// devices x chunks x states, the numbers the held matrices (and the sums) record.
inline constexpr double kMaxSimStateValues = 4194304;
// |values| at most this, so every sum over 256 devices stays exact.
inline constexpr double kMaxSimValue = 1e6;

struct CollectiveSimRequest {
  CollectiveOp op = CollectiveOp::all_gather;
  std::vector<std::int64_t> shape;  // one or two axis sizes
  double bytes = 0;                 // V: the whole array, B
  bool wraparound = true;           // every axis a ring (else a line)
  bool bidirectional = true;        // rings used both ways (a line always uses both)
  double bandwidth = 0;             // B/s per link, one direction
  double latency = 0;               // s, the least a step takes
  // Optional whole numbers: one per device (device d's contribution to every chunk, or for an
  // AllGather the value of its shard), or N x N (device d's contribution to chunk c at
  // d * N + c; for an AllToAll the value of block d -> c).
  std::vector<double> values;
};

struct CollectiveMove {
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t chunk = 0;
  double bytes = 0;
};

struct CollectiveSimStep {
  double start = 0;                               // s
  double duration = 0;                            // s
  CollectiveOp phase = CollectiveOp::all_gather;  // all_gather, reduce_scatter or all_to_all
  int axis = 0;                                   // 0 (X) or 1 (Y)
  std::vector<CollectiveMove> moves;              // by from, to, chunk
};

struct CollectiveSimResult {
  CollectiveOp op = CollectiveOp::all_gather;
  std::vector<std::int64_t> shape;
  std::int64_t devices = 0;
  std::int64_t chunks = 0;
  std::vector<CollectiveSimStep> steps;
  // held[d][c] row-major (devices x chunks), states[0] before the first step, states[k + 1]
  // after step k: AllGather, 1 when device d has chunk c; ReduceScatter, the share of the
  // devices' contributions summed into device d's copy of chunk c; AllToAll, the share of
  // block c at device d.
  std::vector<std::vector<double>> states;
  // With values, per state: device d's partial sum of chunk c (AllGather: the chunk's value
  // where held; AllToAll: the block's value where any of it is), else empty.
  std::vector<std::vector<double>> sums;
  double time = 0;         // sum of the step durations
  double closed_form = 0;  // collective_cost's time for the same axes and links
};

// Errors name the field: shape (too many axes or devices, or too many state values), bytes,
// bandwidth, latency, values.
Result<CollectiveSimResult> simulate_collective(const CollectiveSimRequest& request);

// The request from named fields as the WASM API takes them: op (all-gather, ...), shape
// ("8", "4x4"), bytes, wraparound and bidirectional ("yes" or "no"), bandwidth, latency;
// numbers may come as decimal text. Absent: all-gather on "8", yes, yes, the collective
// calculator's default bytes, and the tpu-v5e link's bandwidth and hop latency.
Result<CollectiveSimRequest> collective_sim_request(const Inputs& fields,
                                                    std::vector<double> values);

}  // namespace scalebook
