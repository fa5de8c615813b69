#pragma once
// Internal to the systolic simulator (systolic_sim.cpp): the grid of PE registers, cycle by
// cycle, for the hardware and the controllers systolic_sim.h describes. systolic_sim.cpp
// checks the request and maps each dataflow onto a Job.
#include <cstddef>
#include <cstdint>

#include "scalebook/systolic/systolic.h"
#include "scalebook/systolic/systolic_sim.h"

namespace scalebook::systolic_grid {

using i64 = std::int64_t;
using Index = std::size_t;

inline Index ix(i64 x) { return static_cast<Index>(x); }

// Y[T,S] = X[T,D] W[D,S] on an R x C array. ws: X = A, W = B; is: X = B^T, W = A^T, Y = C^T;
// W stays and X streams. os: array rows take rows of X, columns take columns of W, D streams.
struct Job {
  i64 T, D, S;           // values: Y is T x S, D the contracted dimension
  i64 R, C;              // PEs: the array's rows and columns
  i64 row_folds, folds;  // folds down the array's rows, and in all
  const double* x;
  const double* w;
  double* y;
};

// Runs `job` on the grid its dataflow needs to the last result: the cycle count, or -1 past
// `limit` cycles (it never hangs). Adds the MACs to out.macs and records the frames of cycles
// first_frame to first_frame + frames - 1 in out.frames.
i64 run(const Job& job, Dataflow dataflow, Convention convention, i64 limit, i64 first_frame,
        i64 frames, SimResult& out);

}  // namespace scalebook::systolic_grid
