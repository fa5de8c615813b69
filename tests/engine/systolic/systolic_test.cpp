#include "scalebook/systolic/systolic.h"

#include <cstdint>
#include <vector>

#include "helpers.h"
#include "scalebook/systolic/systolic_sim.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Calculation systolic(double M, double N, double K, double R, double C, const char* dataflow,
                     const char* convention) {
  return run("systolic", {{"M", Value::of(M)},
                          {"N", Value::of(N)},
                          {"K", Value::of(K)},
                          {"rows", Value::of(R)},
                          {"cols", Value::of(C)},
                          {"dataflow", Value::of(dataflow)},
                          {"convention", Value::of(convention)}});
}

// Small integers from a fixed linear congruential sequence: products stay exact.
std::vector<double> random_matrix(std::int64_t rows, std::int64_t cols, std::uint32_t& seed) {
  std::vector<double> m(static_cast<std::size_t>(rows * cols));
  for (double& x : m) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<double>((seed >> 24) % 9) - 4;
  }
  return m;
}

std::vector<double> plain_matmul(const std::vector<double>& a, const std::vector<double>& b,
                                 const Gemm& g) {
  std::vector<double> c(static_cast<std::size_t>(g.M * g.N), 0);
  for (std::int64_t m = 0; m < g.M; ++m)
    for (std::int64_t n = 0; n < g.N; ++n)
      for (std::int64_t k = 0; k < g.K; ++k)
        c[static_cast<std::size_t>(m * g.N + n)] +=
            a[static_cast<std::size_t>(m * g.K + k)] * b[static_cast<std::size_t>(k * g.N + n)];
  return c;
}

// One simulation checked against the plain matmul and the closed form; true if all agree.
bool agrees(const Gemm& g, const ArrayShape& a, Dataflow df, Convention cv, std::uint32_t& seed) {
  SimRequest q{g, a, df, cv, random_matrix(g.M, g.K, seed), random_matrix(g.K, g.N, seed)};
  Result<SimResult> r = simulate_systolic(q);
  INFO("M=" << g.M << " N=" << g.N << " K=" << g.K << " on " << a.rows << "x" << a.cols << " "
            << to_string(df) << " " << to_string(cv));
  REQUIRE(r.ok());
  double closed = systolic_cycles(g, a, df, cv).compute_cycles;
  bool same_product = r.value().c == plain_matmul(q.a, q.b, g);
  bool same_cycles = static_cast<double>(r.value().cycles) == closed;
  bool same_macs = r.value().macs == g.M * g.N * g.K;
  if (!same_product || !same_cycles || !same_macs) {
    CHECK(same_product);
    CHECK(static_cast<double>(r.value().cycles) == closed);
    CHECK(r.value().macs == g.M * g.N * g.K);
  }
  return same_product && same_cycles && same_macs;
}

}  // namespace

TEST_CASE("scalesim weight-stationary cycles match a hand derivation", "[systolic]") {
  // M=4, N=5, K=6 on 4x4: Sr = K = 6 -> 2 row folds, Sc = N = 5 -> 2 column folds, 4 folds.
  // A fold: load 4 weight rows (4) + stream M = 4 rows + skew 4 + 4 - 2 = 6 -> 14 cycles; the
  // four take 56 cycles, and SCALE-Sim reports the last one's 0-based index, 55.
  Calculation c = systolic(4, 5, 6, 4, 4, "ws", "scalesim");
  CHECK(output(c, "row_folds") == 2);
  CHECK(output(c, "col_folds") == 2);
  CHECK(output(c, "folds") == 4);
  CHECK(output(c, "cycles_per_fold") == 14);
  CHECK(output(c, "compute_cycles") == 55);
  CHECK(output(c, "fill_cycles") == 7);  // 4 to load, 3 more to reach the last row
  CHECK(output(c, "drain_cycles") == 3);
  // Folds map 4 + 2 of 8 rows and 4 + 1 of 8 columns: (6/8)(5/8) = 30/64.
  CHECK(output(c, "mapping_efficiency") == 30.0 / 64);
  // Utilization is over the 56 cycles the array runs, not the reported index.
  CHECK(output(c, "utilization") == Approx(120.0 / (16 * 56)).epsilon(1e-12));
}

TEST_CASE("scalesim output-stationary folds take K + R + C - 2 cycles", "[systolic]") {
  // M=5, N=3, K=7 on 2x2: 3 row folds x 2 column folds; no preload, 7 + 2 + 2 - 2 = 9 each,
  // 54 cycles in all, reported as 53.
  Calculation c = systolic(5, 3, 7, 2, 2, "os", "scalesim");
  CHECK(output(c, "folds") == 6);
  CHECK(output(c, "preload_cycles") == 0);
  CHECK(output(c, "cycles_per_fold") == 9);
  CHECK(output(c, "compute_cycles") == 53);
}

TEST_CASE("scalesim input-stationary keeps A and streams N columns of B", "[systolic]") {
  // M=6, N=10, K=3 on 4 rows x 2 columns: Sr = K = 3 -> 1 row fold, Sc = M = 6 -> 3 column
  // folds; each 4 (load) + 10 (N) + 4 + 2 - 2 = 18 -> 54 cycles, reported as 53.
  Calculation c = systolic(6, 10, 3, 4, 2, "is", "scalesim");
  CHECK(output(c, "folds") == 3);
  CHECK(output(c, "stream_cycles") == 10);
  CHECK(output(c, "compute_cycles") == 53);
}

TEST_CASE("SCALE-Sim's 32x32 example GEMM runs 632 cycles weight-stationary, reported as 631",
          "[systolic]") {
  // M = N = K = 64: 2 x 2 folds of 2*32 + 32 + 64 - 2 = 158 cycles.
  CHECK(output(systolic(64, 64, 64, 32, 32, "ws", "scalesim"), "compute_cycles") == 631);
}

TEST_CASE("a 4x4 output-stationary GEMM of 4s: SCALE-Sim reports 9, a count of cycles is 10",
          "[systolic]") {
  // One fold of K + R + C - 2 = 10 cycles: cycles 0 to 9, and SCALE-Sim v2 prints the index of
  // the last one (scalesim-project/SCALE-Sim issue #125).
  CHECK(output(systolic(4, 4, 4, 4, 4, "os", "scalesim"), "compute_cycles") == 9);
  CHECK(output(systolic(4, 4, 4, 4, 4, "os", "pipelined"), "compute_cycles") == 10);
  for (Convention cv : {Convention::scalesim, Convention::pipelined}) {
    SimRequest q{{4, 4, 4}, {4, 4}, Dataflow::os, cv};
    q.max_frames = 100;
    Result<SimResult> r = simulate_systolic(q);
    REQUIRE(r.ok());
    CHECK(r.value().cycles == (cv == Convention::scalesim ? 9 : 10));
    CHECK(r.value().frames.size() == 10);  // every cycle run is a frame
    CHECK(r.value().frames.back().cycle == 9);
  }
}

TEST_CASE("a pipelined MXU overlaps the next fold's weight load with this fold's stream",
          "[systolic]") {
  // 1024^3 on 128x128: 64 folds, 1024 cycles apart; 128 to load the first, 254 of skew.
  Calculation c = systolic(1024, 1024, 1024, 128, 128, "ws", "pipelined");
  CHECK(output(c, "cycles_per_fold") == 1024);
  CHECK(output(c, "compute_cycles") == 128 + 63 * 1024 + 1024 + 254);
  CHECK(output(systolic(1024, 1024, 1024, 128, 128, "ws", "scalesim"), "compute_cycles") ==
        64 * (256 + 128 + 1024 - 2) - 1);
  SECTION("fewer rows than the array is tall: the weight load sets the pace") {
    Calculation small = systolic(8, 256, 256, 128, 128, "ws", "pipelined");
    CHECK(output(small, "cycles_per_fold") == 128);
    CHECK(output(small, "compute_cycles") == 128 + 3 * 128 + 8 + 254);
  }
}

TEST_CASE("8-row tiles through one 128x128 weight tile cost 8 cycles each (the book's MXU)",
          "[systolic]") {
  double before = output(systolic(1024, 128, 128, 128, 128, "ws", "pipelined"), "compute_cycles");
  double after = output(systolic(1032, 128, 128, 128, 128, "ws", "pipelined"), "compute_cycles");
  CHECK(after - before == 8);
  // 2 * 8 * 128 * 128 FLOPs per 8 cycles: 32768 a cycle once the fill is amortized.
  Calculation big = systolic(1e6, 128, 128, 128, 128, "ws", "pipelined");
  CHECK(output(big, "flops_per_cycle") == Approx(32768).epsilon(1e-3));
}

TEST_CASE("on a single fold scalesim reports one less than the pipelined count", "[systolic]") {
  for (const char* df : {"ws", "os", "is"}) {
    INFO(df);
    CHECK(output(systolic(7, 5, 6, 8, 8, df, "scalesim"), "compute_cycles") ==
          output(systolic(7, 5, 6, 8, 8, df, "pipelined"), "compute_cycles") - 1);
  }
}

TEST_CASE("the simulator's product and cycles equal the closed form for every shape tried",
          "[systolic][sim]") {
  std::uint32_t seed = 12345;
  int tried = 0, failed = 0;
  for (std::int64_t R = 1; R <= 8; ++R) {
    for (std::int64_t C = 1; C <= 8; ++C) {
      for (int i = 0; i < 12; ++i) {
        seed = seed * 1664525u + 1013904223u;
        Gemm g{1 + (seed >> 8) % 20, 1 + (seed >> 13) % 20, 1 + (seed >> 18) % 20};
        if (i == 0) g = {1, 1, 1};
        if (i == 1) g = {20, 20, 20};
        if (i == 2) g = {R * 2, C * 2, R * 3};  // exact multiples of the array
        for (Dataflow df : {Dataflow::ws, Dataflow::os, Dataflow::is}) {
          for (Convention cv : {Convention::scalesim, Convention::pipelined}) {
            ++tried;
            failed += agrees(g, {R, C}, df, cv, seed) ? 0 : 1;
          }
        }
      }
    }
  }
  CHECK(tried == 8 * 8 * 12 * 6);
  CHECK(failed == 0);
}

TEST_CASE("the simulator agrees on every shape up to 9 on a 4x3 array", "[systolic][sim]") {
  std::uint32_t seed = 7;
  int failed = 0;
  for (std::int64_t M = 1; M <= 9; ++M)
    for (std::int64_t N = 1; N <= 9; ++N)
      for (std::int64_t K = 1; K <= 9; ++K)
        for (Dataflow df : {Dataflow::ws, Dataflow::os, Dataflow::is})
          for (Convention cv : {Convention::scalesim, Convention::pipelined})
            failed += agrees({M, N, K}, {4, 3}, df, cv, seed) ? 0 : 1;
  CHECK(failed == 0);
}

TEST_CASE("a frame shows each PE's weight, activation and partial sum", "[systolic][sim]") {
  // 2x2 A and B on a 2x2 array, ws, scalesim: weights load in cycles 0-1, A's row 0 enters
  // array row 0 in cycle 2 and meets B[0][0] there.
  SimRequest q{{2, 2, 2}, {2, 2}, Dataflow::ws, Convention::scalesim, {1, 2, 3, 4}, {5, 6, 7, 8}};
  q.max_frames = 100;
  Result<SimResult> r = simulate_systolic(q);
  REQUIRE(r.ok());
  const SimResult& s = r.value();
  CHECK(s.cycles == 5);  // 2 load + 2 rows + 2 + 2 - 2 skew = 6 cycles, the last is cycle 5
  CHECK(s.c == std::vector<double>{19, 22, 43, 50});
  REQUIRE(s.frames.size() == 6);
  const PeState& pe = s.frames[2].pes[0];
  CHECK(pe.weight == 5);
  CHECK(pe.activation == 1);
  CHECK(pe.psum == 5);
  CHECK((pe.flags & kMac) != 0);
  CHECK((s.frames[1].pes[0].flags & kHasActivation) == 0);  // still loading
  std::int64_t macs = 0;
  for (const SimFrame& f : s.frames) macs += f.macs;
  CHECK(macs == 8);
}

TEST_CASE("input-stationary frames hold A still and move B", "[systolic][sim]") {
  SimRequest q{{2, 2, 2}, {2, 2}, Dataflow::is, Convention::scalesim, {1, 2, 3, 4}, {5, 6, 7, 8}};
  q.max_frames = 6;
  Result<SimResult> r = simulate_systolic(q);
  REQUIRE(r.ok());
  const PeState& pe = r.value().frames[2].pes[0];  // A^T[0][0] = A[0][0] meets B^T[0][0]
  CHECK(pe.activation == 1);
  CHECK(pe.weight == 5);
  CHECK((pe.flags & kStationaryA) != 0);
  CHECK(r.value().c == std::vector<double>{19, 22, 43, 50});
}

TEST_CASE("frames are a window of cycles and capped to protect memory", "[systolic][sim]") {
  SimRequest q{{20, 20, 20}, {8, 8}, Dataflow::os, Convention::pipelined};
  q.first_frame = 5;
  q.max_frames = 3;
  Result<SimResult> r = simulate_systolic(q);
  REQUIRE(r.ok());
  REQUIRE(r.value().frames.size() == 3);
  CHECK(r.value().frames[0].cycle == 5);
  CHECK_FALSE(r.value().frames_truncated);
  q.first_frame = 0;
  q.max_frames = 1'000'000;
  r = simulate_systolic(q);
  REQUIRE(r.ok());
  CHECK(r.value().frames_truncated);
  CHECK(static_cast<std::int64_t>(r.value().frames.size()) <= kMaxFrameCells / 64);
}

TEST_CASE("bad systolic inputs name the field", "[systolic][errors]") {
  auto err = [](const char* name, Value v) { return run_error("systolic", {{name, v}}); };
  check_error(err("M", Value::of(0.0)), ErrorCode::out_of_range, "M", "M must be >= 1, got 0");
  check_error(err("K", Value::of(-3.0)), ErrorCode::out_of_range, "K", "K must be >= 1, got -3");
  check_error(err("rows", Value::of(2.5)), ErrorCode::invalid_argument, "rows",
              "rows must be a whole number, got 2.5");
  check_error(err("dataflow", Value::of("xs")), ErrorCode::invalid_argument, "dataflow",
              "dataflow must be one of ws, os, is, got \"xs\"");
  check_error(err("convention", Value::of("tpu")), ErrorCode::invalid_argument, "convention",
              "convention must be one of scalesim, pipelined, got \"tpu\"");
}

TEST_CASE(
    "the simulator's hard work budget counts each cycle's bookkeeping whatever max_pe_steps says",
    "[systolic][sim]") {
  // 9.7e8 PE-steps, under the default budget, but a 1 x 1 array's cycles cost far more than
  // one PE-step each: this ran for minutes before the work budget.
  SimRequest q{{990, 990, 990}, {1, 1}};
  const char* over =
      "M = 990, N = 990, K = 990 on a 1 x 1 array is 3.20522e10 steps of work (PE-steps plus each "
      "cycle's bookkeeping, over 9.71279e8 cycles), over the simulator's work budget of 2e9; use "
      "the closed form (the systolic calculator) instead";
  check_error(simulate_systolic(q).error(), ErrorCode::out_of_range, "M", over);
  q.max_pe_steps = 1e300;
  check_error(simulate_systolic(q).error(), ErrorCode::out_of_range, "M", over);
  q = SimRequest{{64, 64, 64}, {1, 1}};
  q.max_pe_steps = 1e300;
  REQUIRE(simulate_systolic(q).ok());
}

TEST_CASE("the simulator refuses bad sizes and shapes over its step budget", "[systolic][sim]") {
  SimRequest q{{0, 4, 4}, {4, 4}};
  check_error(simulate_systolic(q).error(), ErrorCode::out_of_range, "M", "M must be >= 1, got 0");
  q = SimRequest{{1024, 1024, 1024}, {128, 128}};
  check_error(simulate_systolic(q).error(), ErrorCode::out_of_range, "M",
              "M = 1024, N = 1024, K = 1024 on a 128 x 128 array is 1.4743e9 PE-steps, over the "
              "step budget of 1e9; use the closed form (the systolic calculator) instead");
  q = SimRequest{{1, 1, 1}, {1000, 900}};
  check_error(simulate_systolic(q).error(), ErrorCode::out_of_range, "rows",
              "M = 1, N = 1, K = 1 on a 1000 x 900 array is 2.6091e9 PE-steps, over the step "
              "budget of 1e9; use the closed form (the systolic calculator) instead");
  q = SimRequest{{2, 3, 4}, {2, 2}, Dataflow::ws, Convention::scalesim, {1, 2, 3}};
  check_error(simulate_systolic(q).error(), ErrorCode::invalid_argument, "a",
              "a must hold M*K = 8 values, got 3");
}

TEST_CASE("scalesim: a one-cycle job reports cycle 0 and divides by the one cycle it runs",
          "[systolic]") {
  Calculation c = systolic(1, 1, 1, 1, 1, "os", "scalesim");
  CHECK(output(c, "compute_cycles") == 0);
  CHECK(output(c, "utilization") == 1);
  CHECK(output(c, "flops_per_cycle") == 2);
}
