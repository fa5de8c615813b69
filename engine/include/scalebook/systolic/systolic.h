#pragma once
// Cycle counts of a GEMM C[M,N] = A[M,K] x B[K,N] on an R x C systolic array, in closed form,
// for three dataflows and two timing conventions. systolic_sim.h moves the values through a
// grid of PEs and must agree with these numbers exactly.
//
// Mapping (SCALE-Sim's names: Sr laid along the array rows, Sc along its columns, T streamed):
//   ws  weight-stationary: B[K,N] sits in the PEs;  Sr = K, Sc = N, T = M
//   is  input-stationary:  A^T[K,M] sits in the PEs; Sr = K, Sc = M, T = N
//   os  output-stationary: C[M,N] accumulates in the PEs; Sr = M, Sc = N, T = K
// A fold is one R x C tile of the stationary matrix: row_folds = ceil(Sr/R),
// col_folds = ceil(Sc/C), F = row_folds * col_folds. A partial fold is padded with zeros and
// runs as a full one. preload p = R for ws and is (the stationary tile shifts in one array row
// per cycle), 0 for os. The operand wavefront is skewed: array row r starts r cycles after row
// 0 and column c finishes c cycles after column 0, so a fold streams T + (R-1) + (C-1) cycles.
//
// Convention `scalesim` (a): each fold runs strictly after the last, and the figure is the one
// SCALE-Sim v2 reports: its stall-free demand matrices have one row per cycle,
//   cycles_per_fold = p + T + R + C - 2      (ws: 2R + C + M - 2; is: 2R + C + N - 2;
//                                             os: R + C + K - 2)
// but its report gives the 0-based index of the cycle of the last output write, one less than
// the number of cycles the folds take (systolic.cpp cites where):
//   compute_cycles  = F * cycles_per_fold - 1
// so a 4x4 os array with M = N = K = 4 reports 9 for a run of 10 cycles.
// Convention `pipelined` (b) counts cycles, on a TPU-like MXU. Each PE double-buffers its
// stationary value, so the next fold's tile shifts in (p cycles) while the current fold streams,
// and the next fold streams right behind the current one; os hands each finished sum out as the
// PE starts the next fold. Fold starts are max(T, p) apart: one row of T per cycle when T >= p (the
// book's "a bf16[8,128] @ bf16[128,128] every 8 cycles" while 8-row tiles share the weights):
//   cycles_per_fold = max(T, p)
//   compute_cycles  = p + (F - 1) * max(T, p) + T + R + C - 2
// With one fold pipelined counts exactly the cycles scalesim's folds take, one more than
// scalesim reports.
//
// Counts that fit in 2^53 are exact; folds and cycles are doubles so 1e9-sized shapes do not
// overflow.
#include <cstdint>
#include <optional>
#include <string_view>

#include "scalebook/core/registry.h"

namespace scalebook {

enum class Dataflow { ws, os, is };
enum class Convention { scalesim, pipelined };

std::optional<Dataflow> parse_dataflow(std::string_view text);
std::optional<Convention> parse_convention(std::string_view text);
const char* to_string(Dataflow dataflow);
const char* to_string(Convention convention);

struct Gemm {
  std::int64_t M = 1;  // rows of A and C
  std::int64_t N = 1;  // columns of B and C
  std::int64_t K = 1;  // contracting dimension
};

struct ArrayShape {
  std::int64_t rows = 1;  // R: PEs down a column
  std::int64_t cols = 1;  // C: PEs along a row
};

// How a dataflow lays a GEMM on the array.
struct Mapping {
  std::int64_t spatial_rows = 1;  // Sr
  std::int64_t spatial_cols = 1;  // Sc
  std::int64_t temporal = 1;      // T
  std::int64_t preload = 0;       // p, cycles
};

Mapping map_gemm(const Gemm& gemm, const ArrayShape& array, Dataflow dataflow);

// Everything the `systolic` calculator reports; cycles are per convention.
struct SystolicCycles {
  std::int64_t row_folds = 1;
  std::int64_t col_folds = 1;
  double folds = 1;
  std::int64_t preload_cycles = 0;  // p
  std::int64_t stream_cycles = 0;   // T
  std::int64_t skew_cycles = 0;     // R + C - 2
  std::int64_t fill_cycles = 0;     // p + R - 1: before a fold's first result
  std::int64_t drain_cycles = 0;    // C - 1: after a fold's last row reaches column 0's end
  double cycles_per_fold = 0;       // fold start to next fold start
  double compute_cycles = 0;
  double macs = 0;          // M N K
  double ideal_cycles = 0;  // M N K / (R C): every PE busy every cycle
  // Cycles the array is busy: compute_cycles, plus one under scalesim, whose figure is the
  // last cycle's 0-based index (0 for a one-cycle job, which must not divide by zero).
  double cycles_run = 0;
  double utilization = 0;         // ideal_cycles / cycles_run
  double mapping_efficiency = 0;  // mean over folds of the PEs a fold maps / (R C)
};

// The figure a convention gives for a run that takes `counted` cycles: scalesim reports the last
// cycle's 0-based index (counted - 1), pipelined the count.
double reported_cycles(double counted, Convention convention);

// The convention's total from a fold count, so the mxu calculator can spread folds over MXUs.
double convention_cycles(double folds, std::int64_t preload, std::int64_t stream,
                         const ArrayShape& array, Convention convention);

SystolicCycles systolic_cycles(const Gemm& gemm, const ArrayShape& array, Dataflow dataflow,
                               Convention convention);

// Inputs M, N, K, rows, cols, dataflow, convention; outputs compute_cycles, folds, utilization,
// mapping_efficiency and the fill / stream / skew / drain breakdown.
Calculator systolic_calculator();

}  // namespace scalebook
