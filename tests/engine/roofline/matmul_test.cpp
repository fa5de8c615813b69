#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

TEST_CASE("a bf16 matmul on TPU v5e is compute-bound above about 240 tokens (roofline-ex3)",
          "[matmul]") {
  Calculation c = run("matmul", {{"chip", Value::of("tpu-v5e")}});
  CHECK(output(c, "critical_batch") == Approx(240.2439024).epsilon(1e-9));
  CHECK(output(c, "critical_batch") == Approx(240).epsilon(0.01));
}

TEST_CASE("an all-int8 matmul keeps the 240 rule: 480 OPs/byte over 2 (roofline-q1c)", "[matmul]") {
  Calculation c = run("matmul", {{"dtype", Value::of("int8")}});
  CHECK(output(c, "critical_intensity") == Approx(480.4878049).epsilon(1e-9));
  CHECK(output(c, "critical_batch") == Approx(240.2439024).epsilon(1e-9));
}

TEST_CASE("int8 weights with bf16 activations halve the critical batch to 120 (roofline-q2)",
          "[matmul]") {
  Calculation c = run("matmul", {{"dtype_weights", Value::of("int8")}});
  CHECK(output(c, "peak_flops") == Approx(1.97e14));  // math runs in bf16
  CHECK(output(c, "critical_batch") == Approx(120.1219512).epsilon(1e-9));
  CHECK(output(c, "critical_batch") == Approx(120).epsilon(0.01));
}

TEST_CASE("an H100's bf16 critical batch is about 295 tokens (roofline-q5)", "[matmul]") {
  Calculation c = run("matmul", {{"chip", Value::of("h100")}});
  CHECK(output(c, "critical_batch") == Approx(295.2238806).epsilon(1e-9));
  CHECK(output(c, "critical_batch") == Approx(295).epsilon(0.01));
}

TEST_CASE("the exact critical batch solves the full byte count (roofline-q3)", "[matmul]") {
  Inputs in = {
      {"dtype_weights", Value::of("int8")}, {"D", Value::of(4096.0)}, {"F", Value::of(4096.0)}};
  CHECK(output(run("matmul", in), "critical_batch_exact") ==
        Approx(136.08570117920073).epsilon(1e-12));
  in["D"] = in["F"] = Value::of(1024.0);
  CHECK(output(run("matmul", in), "critical_batch_exact") ==
        Approx(226.31484473164605).epsilon(1e-12));
}

TEST_CASE("a matmul too thin to ever be compute-bound has no exact critical batch", "[matmul]") {
  Calculation c = run("matmul", {{"D", Value::of(64.0)}, {"F", Value::of(64.0)}});
  CHECK(output_value(c, "critical_batch_exact").is_none());
  // A chip this fast for its HBM: 2DF / 1e21 FLOP/s is far under 2 (D + F) B / 8.2e11 B/s.
  for (bool explain : {true, false}) {
    Result<Calculation> fast =
        calculate("matmul", {{"peak_flops", Value::of(1e21)}, {"dtype_weights", Value::of("int4")}},
                  {.explain = explain});
    REQUIRE(fast.ok());
    const Value& exact = output_value(fast.value(), "critical_batch_exact");
    CHECK(exact.is_none());
    CHECK(exact.text ==
          "never compute-bound: each token's activation bytes take longer to load than its "
          "FLOPs to compute, at any batch");
  }
}

TEST_CASE("FLOPs are 2BDF and bytes read X and W and write Y", "[matmul]") {
  Calculation c =
      run("matmul", {{"B", Value::of(256.0)}, {"D", Value::of(8192.0)}, {"F", Value::of(8192.0)}});
  CHECK(output(c, "flops") == 34359738368.0);
  CHECK(output(c, "bytes") == 2.0 * 256 * 8192 + 2.0 * 8192 * 8192 + 2.0 * 256 * 8192);
  CHECK(output(c, "intensity") == Approx(34359738368.0 / 142606336.0));
}

TEST_CASE("a matmul is compute-bound above the critical batch and memory-bound below", "[matmul]") {
  CHECK(output_value(run("matmul", {{"B", Value::of(512.0)}}), "bound").text == "compute");
  CHECK(output_value(run("matmul", {{"B", Value::of(128.0)}}), "bound").text == "memory");
}

TEST_CASE("the worked solution substitutes this call's numbers", "[matmul]") {
  Calculation c = run("matmul", {{"chip", Value::of("h100")}});
  const Step& last_rule = c.steps[4];
  CHECK(last_rule.label == "Critical batch (B much less than D, F)");
  CHECK(last_rule.latex.find("295.2") != std::string::npos);
  CHECK(last_rule.unit == "tokens");
}

TEST_CASE("every calculator's steps name their output and depend only on outputs with steps",
          "[matmul][roofline][registry]") {
  for (const std::string& name : calculator_names()) {
    Calculation c = run(name, {});
    for (const Step& step : c.steps) {
      INFO(name << ": " << step.label);
      CHECK_FALSE(step.output.empty());
      for (const std::string& dep : step.depends) {
        bool found = false;
        for (const Step& other : c.steps) found = found || other.output == dep;
        CHECK(found);
      }
    }
  }
}
