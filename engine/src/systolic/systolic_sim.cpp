#include "scalebook/systolic/systolic_sim.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "scalebook/core/format.h"
#include "systolic_grid.h"

namespace scalebook {
namespace {

using systolic_grid::i64;
using systolic_grid::ix;
using systolic_grid::Job;

// Sizes below 1, then shapes too big to simulate: those blame the array if it alone is too big,
// else the largest GEMM dimension, and point to the closed form.
Result<bool> check(const SimRequest& q) {
  const Gemm& g = q.gemm;
  const ArrayShape& a = q.array;
  for (auto [name, value] :
       {std::pair{"M", g.M}, {"N", g.N}, {"K", g.K}, {"rows", a.rows}, {"cols", a.cols}}) {
    if (value >= 1) continue;
    return Error{ErrorCode::out_of_range, name,
                 std::string(name) + " must be >= 1, got " + std::to_string(value)};
  }
  if (!(q.max_pe_steps > 0)) {
    return Error{ErrorCode::out_of_range, "max_pe_steps",
                 "max_pe_steps must be > 0, got " + format_number(q.max_pe_steps)};
  }
  auto dbl = [](i64 x) { return static_cast<double>(x); };
  auto num = [](double x) { return format_number(x); };
  double pes = dbl(a.rows) * dbl(a.cols), most = dbl(kMaxSimValues);
  double values = dbl(g.M) * dbl(g.K) + dbl(g.K) * dbl(g.N) + dbl(g.M) * dbl(g.N);
  SystolicCycles s = systolic_cycles(g, a, q.dataflow, q.convention);
  // The budget counts the cycles run; scalesim reports one less (the last one's index).
  double run = s.compute_cycles + (q.convention == Convention::scalesim ? 1 : 0);
  double steps = pes * run;
  double work = (pes + cycle_work(a.rows, a.cols)) * run;
  std::string grid = a.rows >= a.cols ? "rows" : "cols", over;
  std::string field = pes * dbl(a.rows + a.cols) > q.max_pe_steps ? grid
                      : g.M >= g.N && g.M >= g.K                  ? "M"
                      : g.N >= g.K                                ? "N"
                                                                  : "K";
  if (pes > most / 16) {
    field = grid, over = " has " + num(pes) + " PEs, over the simulator's " + num(most / 16);
  } else if (values > most) {
    over = " needs " + num(values) + " values in A, B and C, over the simulator's " + num(most);
  } else if (steps > q.max_pe_steps || s.folds > 2e9) {  // 2e9: tags are 32-bit fold numbers
    over = " is " + num(steps) + " PE-steps, over the step budget of " + num(q.max_pe_steps);
  } else if (work > kMaxSimWork) {
    over = " is " + num(work) + " steps of work (PE-steps plus each cycle's bookkeeping, over " +
           num(s.compute_cycles) + " cycles), over the simulator's work budget of " +
           num(kMaxSimWork);
  } else {
    return true;
  }
  return Error{ErrorCode::out_of_range, field,
               "M = " + std::to_string(g.M) + ", N = " + std::to_string(g.N) +
                   ", K = " + std::to_string(g.K) + " on a " + std::to_string(a.rows) + " x " +
                   std::to_string(a.cols) + " array" + over +
                   "; use the closed form (the systolic calculator) instead"};
}

std::vector<double> transpose(const std::vector<double>& m, i64 rows, i64 cols) {
  std::vector<double> t(m.size());
  for (i64 i = 0; i < rows * cols; ++i) t[ix(i % cols * rows + i / cols)] = m[ix(i)];
  return t;
}

}  // namespace

std::vector<double> example_matrix(std::int64_t rows, std::int64_t cols, int seed) {
  std::vector<double> m(ix(rows * cols));
  for (i64 i = 0; i < rows * cols; ++i) {
    m[ix(i)] = static_cast<double>((i * 5 + seed * 3 + (i / cols) * seed) % 7 - 3);
  }
  return m;
}

Result<SimResult> simulate_systolic(const SimRequest& q) {
  Result<bool> ok = check(q);
  if (!ok.ok()) return ok.error();
  const Gemm& g = q.gemm;
  std::vector<double> a = q.a.empty() ? example_matrix(g.M, g.K, 1) : q.a;
  std::vector<double> b = q.b.empty() ? example_matrix(g.K, g.N, 2) : q.b;
  for (auto [name, v, want, dims] :
       {std::tuple{"a", &a, g.M * g.K, "M*K"}, std::tuple{"b", &b, g.K * g.N, "K*N"}}) {
    if (v->size() == ix(want)) continue;
    return Error{ErrorCode::invalid_argument, name,
                 std::string(name) + " must hold " + dims + " = " + std::to_string(want) +
                     " values, got " + std::to_string(v->size())};
  }
  i64 R = q.array.rows, C = q.array.cols;
  SystolicCycles s = systolic_cycles(g, q.array, q.dataflow, q.convention);
  i64 limit = 2 * static_cast<i64>(s.compute_cycles) + R + C + 16;
  i64 frames = std::min(std::max<i64>(q.max_frames, 0), kMaxFrameCells / (R * C));
  SimResult out;
  out.frames_truncated = frames < q.max_frames;
  bool is = q.dataflow == Dataflow::is;  // runs as ws on C^T = B^T A^T
  std::vector<double> x = is ? transpose(b, g.K, g.N) : std::move(a);
  std::vector<double> w = is ? transpose(a, g.M, g.K) : std::move(b);
  i64 T = is ? g.N : g.M, S = is ? g.M : g.N;
  std::vector<double> y(ix(T * S), 0);
  Job job{T, g.K, S, R, C, s.row_folds, i64(s.folds), x.data(), w.data(), y.data()};
  out.cycles = systolic_grid::run(job, q.dataflow, q.convention, limit,
                                  std::max<i64>(q.first_frame, 0), frames, out);
  out.c = is ? transpose(y, g.N, g.M) : std::move(y);
  if (out.cycles < 0) {
    return Error{ErrorCode::unsupported, "", "the systolic simulator did not finish; a bug"};
  }
  // Reported as the convention reports it: scalesim gives the last cycle's 0-based index.
  out.cycles = static_cast<i64>(reported_cycles(static_cast<double>(out.cycles), q.convention));
  out.pe_steps = static_cast<double>(R * C) * static_cast<double>(out.cycles);
  return out;
}

}  // namespace scalebook
