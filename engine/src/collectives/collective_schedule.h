#pragma once
// Internal to the collective simulation: the schedules collective_sim.h describes, as the
// moves of every step. A move carries a chunk (of an AllToAll block, `units` of it) one hop
// between neighbours; a Layout maps positions along an axis to devices.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/hardware/axis.h"

namespace scalebook::collective_schedule {

using i64 = std::int64_t;
using Index = std::size_t;

inline Index ix(i64 x) { return static_cast<Index>(x); }

// How a schedule walks one axis: a ring used both ways, a ring used one way, or a line
// (always both ways).
struct Walk {
  Axis axis;
  bool both = true;  // used both ways
  // Steps along it: the closed form's hops.
  i64 steps() const {
    return axis.size <= 1 ? 0 : (axis.wraps && both ? axis.size / 2 : axis.size - 1);
  }
};

// Devices of a 1D or 2D shape seen along one axis: lines of positions.
struct Layout {
  std::vector<i64> shape;  // devices along each axis
  i64 devices = 1;         // their product
  i64 lines(int axis) const { return devices / shape[ix(axis)]; }
  i64 device(int axis, i64 line, i64 pos) const {
    if (shape.size() == 1) return pos;
    return axis == 0 ? pos * shape[1] + line : line * shape[1] + pos;
  }
  i64 line_of(int axis, i64 d) const {
    if (shape.size() == 1) return 0;
    return axis == 0 ? d % shape[1] : d / shape[1];
  }
  i64 pos_of(int axis, i64 d) const {
    if (shape.size() == 1) return d;
    return axis == 0 ? d / shape[1] : d % shape[1];
  }
};

struct Move {
  i64 from, to, chunk;  // devices, and the chunk (or block) index
  double bytes;         // B
  int dir;              // +1 or -1 along the axis
  i64 units;            // AllToAll: units of the block, of the run's common denominator
};

struct RawStep {
  CollectiveOp phase;  // all_gather, reduce_scatter or all_to_all
  int axis;            // 0 (X) or 1 (Y)
  std::vector<Move> moves;
};

// Units a block splits into: n - 1 on a line, halves on a ring of even n used both ways.
i64 transpose_denominator(const Walk& a);

// An AllGather along the axes in `order`; chunk c starts on device c.
std::vector<RawStep> gather_steps(const Layout& lay, const std::vector<Walk>& axes,
                                  const std::vector<int>& order, double chunk_bytes);

// The AllGather along the axes in reverse order, run backwards.
std::vector<RawStep> reduce_steps(const Layout& lay, const std::vector<Walk>& axes,
                                  std::vector<int> order, double chunk_bytes);

// Every block from its source to its destination device, one axis after another; a block is
// `denominator` units, a multiple of every axis's transpose_denominator.
std::vector<RawStep> transpose_steps(const Layout& lay, const std::vector<Walk>& axes,
                                     double block_bytes, i64 denominator);

}  // namespace scalebook::collective_schedule
