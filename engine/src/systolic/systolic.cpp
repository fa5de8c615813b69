#include "scalebook/systolic/systolic.h"

#include <algorithm>
#include <string>
#include <vector>

#include "scalebook/core/format.h"

// Convention (a) follows SCALE-Sim v2 (github.com/scalesim-project/scale-sim-v2), where each
// row of a demand matrix is one cycle and stall-free compute cycles are its row count:
// - topology_utils.py load_arrays_gemm: a GEMM (M, N, K) becomes an ifmap A[M,K], a filter
//   B[K,N] and an ofmap C[M,N].
// - compute/systolic_compute_ws.py set_params and create_*_demand_mat: Sr = K, Sc = N, T = M;
//   folds ceil(Sr/R) * ceil(Sc/C); each fold's ifmap demand is an R-cycle weight-load prefix, T
//   rows, a C-1 suffix, then skew_matrix adds R-1: 2R + C + T - 2.
// - compute/systolic_compute_is.py: the same with Sr = K, Sc = M, T = N.
// - compute/systolic_compute_os.py: Sr = M, Sc = N, T = K; no prefix, T rows, C-1 suffix,
//   R-1 skew: R + C + T - 2 (the outputs' write-out is scheduled inside that window).
// - mapping efficiency per fold: rows used * cols used / (R * C), averaged over folds.
// memory/double_buffered_scratchpad_mem.py service_memory_requests reports total_cycles as the
// cycle index of the last ofmap write: one less than the row count in the version we read. So a
// 4x4 os array with M = N = K = 4 runs 10 cycles and SCALE-Sim prints "Compute cycles: 9"
// (scalesim-project/SCALE-Sim issue #125 asks why); convention scalesim reports that 9.

namespace scalebook {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
double d(std::int64_t x) { return static_cast<double>(x); }

}  // namespace

std::optional<Dataflow> parse_dataflow(std::string_view text) {
  if (text == "ws") return Dataflow::ws;
  if (text == "os") return Dataflow::os;
  if (text == "is") return Dataflow::is;
  return std::nullopt;
}

std::optional<Convention> parse_convention(std::string_view text) {
  if (text == "scalesim") return Convention::scalesim;
  if (text == "pipelined") return Convention::pipelined;
  return std::nullopt;
}

const char* to_string(Dataflow dataflow) {
  switch (dataflow) {
    case Dataflow::ws:
      return "ws";
    case Dataflow::os:
      return "os";
    case Dataflow::is:
      return "is";
  }
  return "ws";
}

const char* to_string(Convention convention) {
  return convention == Convention::scalesim ? "scalesim" : "pipelined";
}

Mapping map_gemm(const Gemm& g, const ArrayShape& a, Dataflow dataflow) {
  switch (dataflow) {
    case Dataflow::ws:
      return {g.K, g.N, g.M, a.rows};
    case Dataflow::is:
      return {g.K, g.M, g.N, a.rows};
    case Dataflow::os:
      return {g.M, g.N, g.K, 0};
  }
  return {g.K, g.N, g.M, a.rows};
}

double reported_cycles(double counted, Convention convention) {
  return convention == Convention::scalesim ? counted - 1 : counted;
}

double convention_cycles(double folds, std::int64_t preload, std::int64_t stream,
                         const ArrayShape& array, Convention convention) {
  double skew = d(array.rows + array.cols - 2);
  if (convention == Convention::scalesim) {
    return reported_cycles(folds * (d(preload + stream) + skew), convention);
  }
  double interval = d(std::max(stream, preload));
  return d(preload) + (folds - 1) * interval + d(stream) + skew;
}

SystolicCycles systolic_cycles(const Gemm& g, const ArrayShape& a, Dataflow dataflow,
                               Convention convention) {
  Mapping m = map_gemm(g, a, dataflow);
  SystolicCycles s;
  s.row_folds = ceil_div(m.spatial_rows, a.rows);
  s.col_folds = ceil_div(m.spatial_cols, a.cols);
  s.folds = d(s.row_folds) * d(s.col_folds);
  s.preload_cycles = m.preload;
  s.stream_cycles = m.temporal;
  s.skew_cycles = a.rows + a.cols - 2;
  s.fill_cycles = m.preload + a.rows - 1;
  s.drain_cycles = a.cols - 1;
  s.cycles_per_fold = convention == Convention::scalesim ? d(m.preload + m.temporal + s.skew_cycles)
                                                         : d(std::max(m.temporal, m.preload));
  s.compute_cycles = convention_cycles(s.folds, m.preload, m.temporal, a, convention);
  s.macs = d(g.M) * d(g.N) * d(g.K);
  s.ideal_cycles = s.macs / (d(a.rows) * d(a.cols));
  s.cycles_run = convention == Convention::scalesim ? s.compute_cycles + 1 : s.compute_cycles;
  s.utilization = s.ideal_cycles / s.cycles_run;
  // The mean of used rows * used cols over folds factors: sum of used rows over row folds = Sr.
  s.mapping_efficiency =
      d(m.spatial_rows) / d(s.row_folds * a.rows) * d(m.spatial_cols) / d(s.col_folds * a.cols);
  return s;
}

namespace {

Schema systolic_schema() {
  Schema s{
      "systolic", "cycles of a GEMM C[M,N] = A[M,K] x B[K,N] on an R x C systolic array", {}, {}};
  InputSpec dataflow{"dataflow", InputKind::choice, "",
                     "ws: weights (B) stay in the PEs; is: inputs (A) stay; os: outputs (C) stay",
                     Value::of("ws")};
  dataflow.choices = {"ws", "os", "is"};
  dataflow = labelled(dataflow, "Dataflow", InputGroup::main,
                      {"Weight stationary", "Output stationary", "Input stationary"});
  InputSpec convention{"convention", InputKind::choice, "",
                       "scalesim: folds one after another, reported as SCALE-Sim v2 does (the "
                       "last cycle's 0-based index, one less than the count); pipelined: a "
                       "TPU-like MXU loads the next fold while this one streams, cycles counted",
                       Value::of("pipelined")};
  convention.choices = {"scalesim", "pipelined"};
  convention = labelled(convention, "Convention", InputGroup::advanced, {"SCALE-Sim", "Pipelined"});
  s.inputs = {
      labelled({"M", InputKind::count, "", "rows of A and C", Value::of(1024.0), 1, false, 1e9},
               "Rows M"),
      labelled({"N", InputKind::count, "", "columns of B and C", Value::of(1024.0), 1, false, 1e9},
               "Columns N"),
      labelled(
          {"K", InputKind::count, "", "contracting dimension", Value::of(1024.0), 1, false, 1e9},
          "Contracting dimension K"),
      labelled({"rows", InputKind::count, "", "R: PEs down each column of the array",
                Value::of(128.0), 1, false, 65536},
               "Array rows R"),
      labelled({"cols", InputKind::count, "", "C: PEs along each row of the array",
                Value::of(128.0), 1, false, 65536},
               "Array columns C"),
      dataflow,
      convention,
  };
  s.outputs = {
      {"compute_cycles", "",
       "cycles from the first load to the last result (scalesim: the last one's 0-based index)",
       false, "Compute cycles"},
      {"folds", "", "R x C tiles of the stationary matrix, partial ones padded", false, "Folds"},
      {"row_folds", "", "folds along the array's rows", false, "Row folds"},
      {"col_folds", "", "folds along the array's columns", false, "Column folds"},
      {"cycles_per_fold", "", "cycles from one fold's start to the next's", false,
       "Cycles per fold"},
      {"preload_cycles", "", "cycles to shift a stationary tile in (0 for os)", false,
       "Preload cycles"},
      {"stream_cycles", "", "cycles a fold's streamed operand takes to enter, one row a cycle",
       false, "Stream cycles"},
      {"skew_cycles", "", "extra cycles of the diagonal wavefront: R - 1 plus C - 1", false,
       "Skew cycles"},
      {"fill_cycles", "", "cycles before a fold's first result: preload plus R - 1", false,
       "Fill cycles"},
      {"drain_cycles", "", "cycles the last columns take after the first finishes: C - 1", false,
       "Drain cycles"},
      {"macs", "", "multiply-accumulates: M N K", false, "MACs"},
      {"ideal_cycles", "", "cycles with every PE busy every cycle: M N K / (R C)", false,
       "Ideal cycles"},
      {"utilization", "", "ideal cycles over the cycles the array runs", false, "Utilization"},
      {"mapping_efficiency", "", "mean fraction of PEs a fold maps, padding excluded", false,
       "Mapping efficiency"},
      {"flops_per_cycle", "FLOP", "2 M N K over the cycles the array runs", false,
       "FLOPs per cycle"},
  };
  return s;
}

// Names of Sr, Sc and T for a dataflow, for the worked solution.
struct Names {
  const char* sr;
  const char* sc;
  const char* t;
};

Names names_of(Dataflow dataflow) {
  if (dataflow == Dataflow::is) return {"K", "M", "N"};
  if (dataflow == Dataflow::os) return {"M", "N", "K"};
  return {"K", "N", "M"};
}

std::string n(double x) { return latex_number(x); }

std::vector<Step> systolic_steps(const Gemm& g, const ArrayShape& a, Dataflow df, Convention cv,
                                 const SystolicCycles& s) {
  Mapping m = map_gemm(g, a, df);
  Names v = names_of(df);
  double R = d(a.rows), C = d(a.cols), p = d(s.preload_cycles), T = d(s.stream_cycles);
  std::string sr = std::string(v.sr), sc = std::string(v.sc), t = std::string(v.t);
  std::string per_fold =
      cv == Convention::scalesim
          ? "p + T + (R + C - 2) = " + n(p) + " + " + n(T) + " + " + n(d(s.skew_cycles))
          : "\\max(T, p) = \\max(" + n(T) + ", " + n(p) + ")";
  std::string total = cv == Convention::scalesim
                          ? "F \\cdot " + n(s.cycles_per_fold) + " - 1 = " + n(s.folds) +
                                " \\cdot " + n(s.cycles_per_fold) + " - 1"
                          : "p + (F - 1) \\max(T, p) + T + R + C - 2 = " + n(p) + " + " +
                                n(s.folds - 1) + " \\cdot " + n(s.cycles_per_fold) + " + " + n(T) +
                                " + " + n(d(s.skew_cycles));
  std::string stationary = df == Dataflow::os ? "0 \\text{ (nothing to preload)}" : "R";
  return {
      {"Row folds",
       "\\lceil " + sr + " / R \\rceil = \\lceil " + n(d(m.spatial_rows)) + " / " + n(R) +
           " \\rceil = " + n(d(s.row_folds)),
       d(s.row_folds),
       "",
       "row_folds",
       {}},
      {"Column folds",
       "\\lceil " + sc + " / C \\rceil = \\lceil " + n(d(m.spatial_cols)) + " / " + n(C) +
           " \\rceil = " + n(d(s.col_folds)),
       d(s.col_folds),
       "",
       "col_folds",
       {}},
      {"Folds",
       "F = " + n(d(s.row_folds)) + " \\cdot " + n(d(s.col_folds)) + " = " + n(s.folds),
       s.folds,
       "",
       "folds",
       {"row_folds", "col_folds"}},
      {"Preload of a stationary tile",
       "p = " + stationary + " = " + n(p),
       p,
       "",
       "preload_cycles",
       {}},
      {"Streaming, one row a cycle", "T = " + t + " = " + n(T), T, "", "stream_cycles", {}},
      {"Skew of the wavefront",
       "R + C - 2 = " + n(d(s.skew_cycles)),
       d(s.skew_cycles),
       "",
       "skew_cycles",
       {}},
      {"Fill, before the first result",
       "p + R - 1 = " + n(d(s.fill_cycles)),
       d(s.fill_cycles),
       "",
       "fill_cycles",
       {"preload_cycles"}},
      {"Drain, after column 0 finishes",
       "C - 1 = " + n(d(s.drain_cycles)),
       d(s.drain_cycles),
       "",
       "drain_cycles",
       {}},
      {std::string("Cycles per fold (") + to_string(cv) + ")",
       per_fold + " = " + n(s.cycles_per_fold),
       s.cycles_per_fold,
       "",
       "cycles_per_fold",
       {"preload_cycles", "stream_cycles", "skew_cycles"}},
      {std::string("Compute cycles (") + to_string(cv) + ")",
       total + " = " + n(s.compute_cycles),
       s.compute_cycles,
       "",
       "compute_cycles",
       {"folds", "cycles_per_fold"}},
      {"MACs",
       "M N K = " + n(d(g.M)) + " \\cdot " + n(d(g.N)) + " \\cdot " + n(d(g.K)) + " = " + n(s.macs),
       s.macs,
       "",
       "macs",
       {}},
      {"Ideal cycles",
       "\\frac{M N K}{R C} = \\frac{" + n(s.macs) + "}{" + n(R * C) + "} = " + n(s.ideal_cycles),
       s.ideal_cycles,
       "",
       "ideal_cycles",
       {"macs"}},
      {"Utilization",
       "\\frac{" + n(s.ideal_cycles) + "}{" + n(s.cycles_run) + "} = " + n(s.utilization),
       s.utilization,
       "",
       "utilization",
       {"ideal_cycles", "compute_cycles"}},
      {"Mapping efficiency",
       "\\frac{" + sr + " \\cdot " + sc + "}{" + n(d(s.row_folds)) + " R \\cdot " +
           n(d(s.col_folds)) + " C} = \\frac{" + n(d(m.spatial_rows)) + " \\cdot " +
           n(d(m.spatial_cols)) + "}{" + n(d(s.row_folds * a.rows)) + " \\cdot " +
           n(d(s.col_folds * a.cols)) + "} = " + n(s.mapping_efficiency),
       s.mapping_efficiency,
       "",
       "mapping_efficiency",
       {"row_folds", "col_folds"}},
      {"FLOPs per cycle",
       "\\frac{2 M N K}{" + n(s.cycles_run) + "} = " + n(2 * s.macs / s.cycles_run),
       2 * s.macs / s.cycles_run,
       "FLOP",
       "flops_per_cycle",
       {"macs", "compute_cycles"}},
  };
}

std::optional<Error> compute_systolic(const ResolvedInputs& in, ResultBuilder& out) {
  std::optional<Dataflow> df = parse_dataflow(in.text("dataflow"));
  std::optional<Convention> cv = parse_convention(in.text("convention"));
  if (!df || !cv) return Error{ErrorCode::invalid_argument, "dataflow", "unknown dataflow"};
  auto count = [&](const char* name) { return static_cast<std::int64_t>(in.number(name)); };
  Gemm g{count("M"), count("N"), count("K")};
  ArrayShape a{count("rows"), count("cols")};
  SystolicCycles s = systolic_cycles(g, a, *df, *cv);
  if (out.explain()) out.steps(systolic_steps(g, a, *df, *cv, s));
  out.set({
      {"compute_cycles", Value::of(s.compute_cycles)},
      {"folds", Value::of(s.folds)},
      {"row_folds", Value::of(d(s.row_folds))},
      {"col_folds", Value::of(d(s.col_folds))},
      {"cycles_per_fold", Value::of(s.cycles_per_fold)},
      {"preload_cycles", Value::of(d(s.preload_cycles))},
      {"stream_cycles", Value::of(d(s.stream_cycles))},
      {"skew_cycles", Value::of(d(s.skew_cycles))},
      {"fill_cycles", Value::of(d(s.fill_cycles))},
      {"drain_cycles", Value::of(d(s.drain_cycles))},
      {"macs", Value::of(s.macs)},
      {"ideal_cycles", Value::of(s.ideal_cycles)},
      {"utilization", Value::of(s.utilization)},
      {"mapping_efficiency", Value::of(s.mapping_efficiency)},
      {"flops_per_cycle", Value::of(2 * s.macs / s.cycles_run)},
  });
  return std::nullopt;
}

}  // namespace

Calculator systolic_calculator() { return {systolic_schema(), compute_systolic}; }

}  // namespace scalebook
