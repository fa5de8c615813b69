// The speculative calculator against hand derivations: E = 1 + alpha + ... + alpha^k tokens
// per round, k c t + v t per round (the book gives no formula, only FIG 19's shape).
#include "scalebook/inference/speculative.h"

#include <cmath>
#include <limits>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

TEST_CASE("speculative decoding at alpha 0.8 yields 3.36 tokens per round of four drafts",
          "[inference][speculative]") {
  // Defaults: alpha 0.8, k 4, c 0.05, t 20 ms, v 1.
  Calculation calc = run("speculative", {});
  // (1 - 0.8^5) / 0.2 = (1 - 0.32768) / 0.2
  CHECK(output(calc, "tokens") == Approx(3.3616).epsilon(1e-12));
  CHECK(output(calc, "p_all") == Approx(0.4096).epsilon(1e-12));
  // 4 x 0.05 x 20 ms + 20 ms
  CHECK(output(calc, "t_round") == Approx(0.024).epsilon(1e-12));
  CHECK(output(calc, "t_per_token") == Approx(0.024 / 3.3616).epsilon(1e-12));
  CHECK(output(calc, "speedup") == Approx(3.3616 / 1.2).epsilon(1e-12));
  REQUIRE(calc.steps.size() == 6);
  CHECK(calc.steps[0].output == "tokens");
  CHECK(calc.steps[0].latex.find("\\frac{1 - \\alpha^{k+1}}{1 - \\alpha}") != std::string::npos);
}

TEST_CASE("the best draft length is where one more draft step gains less than it costs",
          "[inference][speculative]") {
  Calculation calc = run("speculative", {});
  // speedup(k) = (1 - 0.8^(k+1)) / (0.2 (0.05 k + 1)):
  //   k = 7: 0.83222784 / 0.27 = 3.08233;  k = 8: 0.86578886 / 0.28 = 3.09208;
  //   k = 9: 0.89262582 / 0.29 = 3.07802.
  CHECK(output(calc, "best_k") == 8);
  CHECK(output(calc, "best_speedup") == Approx((1 - std::pow(0.8, 9)) / 0.28).epsilon(1e-12));
  const Table& rounds = table(calc, "rounds");
  REQUIRE(rounds.rows.size() == 16);  // k_max's default
  CHECK(cell(rounds, 6, "speedup").number == Approx((1 - std::pow(0.8, 8)) / 0.27).epsilon(1e-12));
  CHECK(cell(rounds, 8, "speedup").number == Approx((1 - std::pow(0.8, 10)) / 0.29).epsilon(1e-12));
  CHECK(cell(rounds, 0, "tokens").number == Approx(1.8).epsilon(1e-12));
  CHECK(cell(rounds, 3, "chosen").text == "yes");
  CHECK(cell(rounds, 4, "chosen").text == "no");
  CHECK(cell(rounds, 7, "best").text == "yes");
  CHECK(cell(rounds, 6, "best").text == "no");
}

TEST_CASE("speculative's table reaches a draft length beyond the longest searched",
          "[inference][speculative]") {
  Calculation calc = run("speculative", {{"k", Value::of(20.0)}, {"k_max", Value::of(4.0)}});
  const Table& rounds = table(calc, "rounds");
  REQUIRE(rounds.rows.size() == 20);
  CHECK(cell(rounds, 19, "chosen").text == "yes");
  CHECK(output(calc, "best_k") == 4);  // the search stays within k_max
}

TEST_CASE("speculative decoding's limits: every draft kept, none kept, free drafts",
          "[inference][speculative]") {
  SECTION("alpha = 1 keeps all k drafts and the bonus token") {
    Calculation calc = run("speculative", {{"alpha", Value::of(1.0)}, {"k", Value::of(5.0)}});
    CHECK(output(calc, "tokens") == 6);
    CHECK(output(calc, "p_all") == 1);
    CHECK(calc.steps[0].latex.find("k + 1 = 6") != std::string::npos);
  }
  SECTION("alpha = 0 keeps only the target's token: drafting only costs, so k = 1 is best") {
    Calculation calc = run("speculative", {{"alpha", Value::of(0.0)}});
    CHECK(output(calc, "tokens") == 1);
    CHECK(output(calc, "speedup") == Approx(1 / 1.2).epsilon(1e-12));
    CHECK(output(calc, "best_k") == 1);
  }
  SECTION("free drafts: the longest draft searched is best") {
    Calculation calc = run("speculative", {{"cost", Value::of(0.0)}, {"k_max", Value::of(10.0)}});
    CHECK(output(calc, "best_k") == 10);
    CHECK(output(calc, "speedup") == Approx(3.3616).epsilon(1e-12));
  }
  SECTION("a verify step twice an ordinary one halves the speedup of free drafts") {
    Calculation calc = run("speculative", {{"cost", Value::of(0.0)}, {"verify", Value::of(2.0)}});
    CHECK(output(calc, "speedup") == Approx(3.3616 / 2).epsilon(1e-12));
  }
}

TEST_CASE("speculative's numbers-only path matches the explained one", "[inference][speculative]") {
  Inputs in = {{"alpha", Value::of(0.7)}, {"k", Value::of(3.0)}};
  Result<Calculation> bare = calculate("speculative", in, {false, {}});
  REQUIRE(bare.ok());
  check_same_outputs(run("speculative", in), bare.value());
}

TEST_CASE("speculative refuses bad input by name", "[inference][speculative][errors]") {
  auto error = [](const char* name, Value v) { return run_error("speculative", {{name, v}}); };
  check_error(error("alpha", Value::of(1.5)), ErrorCode::out_of_range, "alpha",
              "alpha must be <= 1, got 1.5");
  check_error(error("alpha", Value::of(-0.1)), ErrorCode::out_of_range, "alpha",
              "alpha must be >= 0, got -0.1");
  check_error(error("alpha", Value::of(std::nan(""))), ErrorCode::invalid_argument, "alpha",
              "alpha must be a finite number, got nan");
  check_error(error("alpha", Value::of("abc")), ErrorCode::invalid_argument, "alpha",
              "alpha must be a number, got \"abc\"");
  check_error(error("k", Value::of(2.5)), ErrorCode::invalid_argument, "k",
              "k must be a whole number, got 2.5");
  check_error(error("k", Value::of(0.0)), ErrorCode::out_of_range, "k", "k must be >= 1, got 0");
  check_error(error("k", Value::of(1e9)), ErrorCode::out_of_range, "k", "k must be <= 64, got 1e9");
  check_error(error("k_max", Value::of(65.0)), ErrorCode::out_of_range, "k_max",
              "k_max must be <= 64, got 65");
  check_error(error("cost", Value::of(-1.0)), ErrorCode::out_of_range, "cost",
              "cost must be >= 0, got -1");
  check_error(error("t_step", Value::of(0.0)), ErrorCode::out_of_range, "t_step",
              "t_step must be > 0, got 0");
  check_error(error("t_step", Value::of(std::numeric_limits<double>::infinity())),
              ErrorCode::invalid_argument, "t_step", "t_step must be a finite number, got inf");
  check_error(error("verify", Value::of(0.0)), ErrorCode::out_of_range, "verify",
              "verify must be > 0, got 0");
}
