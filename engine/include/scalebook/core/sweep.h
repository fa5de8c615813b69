#pragma once
// Sweeps and solving over any calculator, on the numbers-only path: a series of outputs over
// one input, and the smallest value of an input at which an output reaches a target. Plots,
// exercises and searches use these instead of looping over calculate() themselves.
#include <string>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook {

// The most points one sweep evaluates, and the most evaluations one solve makes.
constexpr int kMaxSweepPoints = 10000;
constexpr int kMaxSolveEvaluations = 200;

struct SweepRequest {
  std::string calculator;
  Inputs inputs;                     // the fixed inputs; `over` among them is ignored
  std::string over;                  // a number or count input, or a named dimension (B)
  std::vector<double> values;        // where to evaluate, in the input's unit
  std::vector<std::string> outputs;  // numeric outputs to collect; empty: every numeric one
};

struct SweepResult {
  std::vector<double> values;               // the input at each point, as requested
  std::vector<std::string> outputs;         // the collected outputs' names
  std::vector<std::vector<double>> series;  // series[k][i]: output k at point i; NaN for none
};

// Evenly spaced points from `from` to `to` inclusive, on a log scale when `log` (from > 0).
// `whole`: for a count input, each point rounded to a whole number, repeats dropped.
Result<std::vector<double>> sweep_points(double from, double to, int count, bool log,
                                         bool whole = false);

// An error at one point carries that point in its message ("at B=3: ...").
Result<SweepResult> sweep(const SweepRequest& request);

struct SolveRequest {
  std::string calculator;
  Inputs inputs;
  std::string over;    // as in a sweep
  std::string output;  // numeric, taken to grow (not strictly) with `over` on [lo, hi]
  double target = 0;   // in the output's unit
  double lo = 0;       // the bracket, in the input's unit: lo < hi
  double hi = 0;
};

struct SolveResult {
  // The smallest value in [lo, hi] where output >= target (to 1e-9 relative, or exactly for
  // a whole-number input); none when even hi falls short.
  Value at;
  double output_at = 0;  // the output there, or at hi when never reached
  bool at_lo = false;    // already reached at lo: the answer is lo itself
  int evaluations = 0;
};

Result<SolveResult> solve(const SolveRequest& request);

}  // namespace scalebook
