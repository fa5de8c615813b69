#pragma once
// A cycle-stepped systolic array: values move through an R x C grid of PE registers one hop per
// cycle, the product is read from the array's edge (or, for os, its accumulators), and the
// cycle count is when the last result comes out, reported as the convention reports it
// (scalesim: the 0-based index of that cycle, one less than the cycles run; frames still cover
// every cycle run). It checks systolic.h's closed forms: for every
// shape the product equals a plain matmul and the cycles equal compute_cycles.
//
// The hardware, the same for both conventions (only the controller's schedule differs):
// - ws and is: each PE holds a stationary value, a shadow of the next fold's value, the
//   streamed operand passing right and the partial sum passing down. A stationary tile shifts
//   down a per-column load chain in p = R cycles (last row's value first) and lands in the
//   shadows together; a PE latches its shadow when the first streamed row of a new fold
//   reaches it. Streamed row t enters array row r at the left edge in cycle start + t + r; sums
//   leave the bottom row into output accumulators outside the array. is runs as ws on
//   C^T = B^T A^T: A^T stays, B^T streams.
// - os: A's rows enter at the left, B's columns at the top, both skewed; each PE accumulates its
//   C element and hands it out the cycle it does the K-th MAC (SCALE-Sim does not count an os
//   drain either).
// - Padding lanes carry zeros, so a partial fold takes as long as a full one.
// Controller: scalesim starts fold g+1's load (ws, is) or stream (os) the cycle after fold g's
// last result. pipelined starts loading column c's next tile the cycle the current fold's first
// row reaches column c (its shadows are free by the time the load lands), and starts a stream as
// soon as the left edge is free and column 0's shadows hold the fold; os streams back to back.
#include <cstdint>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/systolic/systolic.h"

namespace scalebook {

// A frame holds at most this many PE states in all, so frames stay within about 16 MiB.
inline constexpr std::int64_t kMaxFrameCells = std::int64_t{1} << 19;
// A, B and C together hold at most this many values.
inline constexpr std::int64_t kMaxSimValues = std::int64_t{1} << 24;
// The hard work budget, whatever max_pe_steps says: a run's work is its cycles times (PEs +
// the per-cycle bookkeeping, cycle_work(rows, cols) in PE-step equivalents). PE-steps alone
// miss that a 1 x 1 array spends some 25 PE-steps' time per cycle on its rows, columns and
// folds, so M = N = K = 990 on 1 x 1 (9.7e8 PE-steps, under the default budget) ran for minutes.
inline constexpr double kMaxSimWork = 2e9;
// Measured with the native build: per cycle ~11 ns per PE, ~50 ns per row or column and
// ~230 ns besides, i.e. about 4 PE-steps per row or column and 24 per cycle.
constexpr double cycle_work(std::int64_t rows, std::int64_t cols) {
  return 4.0 * static_cast<double>(rows + cols) + 24.0;
}

struct SimRequest {
  Gemm gemm;
  ArrayShape array;
  Dataflow dataflow = Dataflow::ws;
  Convention convention = Convention::scalesim;
  std::vector<double> a;         // A[M,K] row-major; empty: example_matrix(M, K, 1)
  std::vector<double> b;         // B[K,N] row-major; empty: example_matrix(K, N, 2)
  double max_pe_steps = 1e9;     // R * C * cycles above this is refused before simulating
                                 // (and any shape over kMaxSimWork, however high this is)
  std::int64_t first_frame = 0;  // cycle of the first recorded frame
  std::int64_t max_frames = 0;   // frames to record from first_frame; 0: none
};

enum PeFlag : std::uint8_t {
  kHasWeight = 1,      // weight holds a B value
  kHasActivation = 2,  // activation holds an A value
  kHasPsum = 4,        // psum holds a partial sum (ws, is) or an accumulator (os)
  kHasShadow = 8,      // shadow holds the next fold's stationary value, not yet latched
  kMac = 16,           // the PE multiplied two real (unpadded) values this cycle
  kStationaryA = 32,   // is: the stationary value is A (so shadow is an A value)
};

// One PE after a cycle. ws: weight stays, activation moves right, psum moves down. is: the
// activation stays, the weight moves right. os: both move, psum stays.
struct PeState {
  double weight = 0;
  double activation = 0;
  double psum = 0;
  double shadow = 0;
  std::uint8_t flags = 0;  // PeFlag bits
};

struct SimFrame {
  std::int64_t cycle = 0;
  std::int64_t macs = 0;     // MACs in this cycle
  std::vector<PeState> pes;  // row-major, rows x cols
};

struct SimResult {
  std::vector<double> c;    // C[M,N] row-major
  std::int64_t cycles = 0;  // the convention's figure: systolic_cycles(...).compute_cycles
  std::int64_t macs = 0;    // real MACs done: M N K
  double pe_steps = 0;      // rows * cols * cycles
  std::vector<SimFrame> frames;
  bool frames_truncated = false;  // fewer frames than asked for, to stay under kMaxFrameCells
};

// Errors name the field: a size below 1 (M, N, K, rows, cols), a or b of the wrong size, a
// shape over max_pe_steps, kMaxSimWork or kMaxSimValues (the message suggests the closed form).
Result<SimResult> simulate_systolic(const SimRequest& request);

// Small integers in [-3, 3], different for each seed: products stay exact in doubles.
std::vector<double> example_matrix(std::int64_t rows, std::int64_t cols, int seed);

}  // namespace scalebook
