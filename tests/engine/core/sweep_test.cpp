#include "scalebook/core/sweep.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "helpers.h"

namespace scalebook {

TEST_CASE("a sweep is the calculator at each point, numbers only", "[sweep]") {
  SweepRequest q{"matmul",
                 {{"D", Value::of(8192.0)}, {"F", Value::of(8192.0)}},
                 "B",
                 {1, 256, 1024},
                 {"flops", "critical_batch_exact"}};
  Result<SweepResult> r = sweep(q);
  REQUIRE(r.ok());
  REQUIRE(r.value().series.size() == 2);
  CHECK(r.value().series[0][0] == 2.0 * 8192 * 8192);
  CHECK(r.value().series[0][2] == 2.0 * 1024 * 8192 * 8192);
  for (std::size_t i = 0; i < 3; ++i) {
    Inputs in = q.inputs;
    in["B"] = Value::of(q.values[i]);
    CHECK(r.value().series[1][i] == test::output(test::run("matmul", in), "critical_batch_exact"));
  }
}

TEST_CASE("a sweep without outputs collects every number output, none as NaN", "[sweep]") {
  Result<SweepResult> r = sweep({"matmul", {}, "B", {64}, {}});
  REQUIRE(r.ok());
  CHECK(r.value().outputs.front() == "flops");
  CHECK(r.value().outputs.size() == 13);  // 14 outputs, `bound` is text
}

TEST_CASE("sweep points: linear and log, end points exact", "[sweep]") {
  auto lin = sweep_points(0, 10, 11, false);
  REQUIRE(lin.ok());
  CHECK(lin.value()[3] == Approx(3));
  auto log = sweep_points(1e4, 1e10, 7, true);
  REQUIRE(log.ok());
  CHECK(log.value()[2] == Approx(1e6));
  CHECK(log.value().back() == 1e10);
  auto whole = sweep_points(1, 1e9, 3, true, true);
  REQUIRE(whole.ok());
  CHECK(whole.value() == std::vector<double>{1, 31623, 1e9});
  auto few = sweep_points(1, 3, 10, false, true);
  REQUIRE(few.ok());
  CHECK(few.value() == std::vector<double>{1, 2, 3});
  test::check_error(sweep_points(0, 10, 5, true).error(), ErrorCode::invalid_argument, "from",
                    "a log sweep needs from > 0, got 0");
  test::check_error(sweep_points(1, 10, 20000, false).error(), ErrorCode::out_of_range, "points",
                    "points must be from 2 to 10000, got 20000");
}

TEST_CASE("sweep errors name the field, and a bad point says where", "[sweep]") {
  test::check_error(sweep({"matmul", {}, "chip", {1}, {}}).error(), ErrorCode::invalid_argument,
                    "over", "over must name a number input of matmul, and chip is a choice");
  test::check_error(sweep({"matmul", {}, "Q", {1}, {}}).error(), ErrorCode::invalid_argument,
                    "over",
                    "matmul has no number input \"Q\"; its number inputs are B, D, F, peak_flops, "
                    "hbm_bandwidth");
  test::check_error(sweep({"matmul", {}, "B", {1}, {"bound"}}).error(), ErrorCode::invalid_argument,
                    "outputs", "outputs must be number outputs, and bound is text");
  test::check_error(sweep({"matmul", {}, "B", {64, 2.5}, {}}).error(), ErrorCode::invalid_argument,
                    "B", "at B=2.5: B must be a whole number, got 2.5");
  test::check_error(sweep({"matmul", {}, "B", {}, {}}).error(), ErrorCode::out_of_range, "values",
                    "a sweep takes 1 to 10000 values, got 0");
}

TEST_CASE("solve: a matmul turns compute-bound at the first whole B past 255.2 on v5e", "[sweep]") {
  Inputs in{{"D", Value::of(8192.0)}, {"F", Value::of(8192.0)}, {"chip", Value::of("tpu-v5e")}};
  double ridge = test::output(test::run("matmul", in), "critical_intensity");
  Result<SolveResult> r = solve({"matmul", in, "B", "intensity", ridge, 1, 1e6});
  REQUIRE(r.ok());
  // 2BDF / (2BD + 2DF + 2BF) >= 240.24 first holds at B = 256 (exactly: B > 255.21).
  CHECK(r.value().at.number == 256);
  CHECK(r.value().output_at >= ridge);
  CHECK(r.value().evaluations <= 30);
  Inputs below = in;
  below["B"] = Value::of(255.0);
  CHECK(test::output(test::run("matmul", below), "intensity") < ridge);
}

TEST_CASE("solve: a real input to 1e-9, reached at lo, or never", "[sweep]") {
  // roofline: t_compute = flops / peak reaches 1 ms at flops = 1e-3 * peak.
  Result<SolveResult> r = solve({"roofline", {}, "flops", "t_compute", 1e-3, 1, 1e20});
  REQUIRE(r.ok());
  double peak = test::output(test::run("roofline", {}), "peak_flops");
  CHECK(r.value().at.number == Approx(1e-3 * peak).epsilon(1e-8));
  Result<SolveResult> at_lo = solve({"roofline", {}, "flops", "t_compute", 0, 1, 10});
  REQUIRE(at_lo.ok());
  CHECK(at_lo.value().at_lo);
  CHECK(at_lo.value().at.number == 1);
  Result<SolveResult> never = solve({"roofline", {}, "flops", "t_compute", 1e6, 1, 1e20});
  REQUIRE(never.ok());
  CHECK(never.value().at.is_none());
  CHECK(never.value().output_at == Approx(1e20 / peak));
  test::check_error(solve({"roofline", {}, "flops", "t_compute", 1, 5, 5}).error(),
                    ErrorCode::invalid_argument, "lo",
                    "lo must be a finite number below hi, got lo=5 hi=5");
  test::check_error(solve({"roofline", {}, "flops", "nope", 1, 1, 5}).error(),
                    ErrorCode::invalid_argument, "output", "roofline has no output \"nope\"");
}

}  // namespace scalebook
