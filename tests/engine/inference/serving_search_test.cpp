// The serving-search calculator (chapter 8): the book's numbers at its settings (the roofline
// step), the pick within a target, targets nothing meets and models no slice holds, and bad
// input by name.
#include <cmath>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

// LLaMA 3-70B on v5e at an 8k context with int8 weights and cache: the chapter's setting.
Inputs book(Inputs in = {}) {
  for (auto [name, v] : {std::pair{"model", Value::of("llama-3-70b")},
                         {"chip", Value::of("tpu-v5e")},
                         {"S", Value::of(8192.0)},
                         {"dtype_params", Value::of("int8")},
                         {"dtype_kv", Value::of("int8")},
                         {"step", Value::of("roofline")}})
    if (!in.count(name)) in[name] = v;
  return in;
}

}  // namespace

TEST_CASE("serving-search: the smallest slice and its batch, the book's table 3 for int8",
          "[serving-search]") {
  Calculation c = run("serving-search", book());
  // 70.6e9 bytes of int8 weights need 5 of v5e's 16 GB chips: 2x4 is the first slice.
  CHECK(output(c, "min_chips") == 8);
  CHECK(output_value(c, "min_slice").text == "2x4");
  // bf16 needs a 4x4, int4 a 2x2: the book's table 3.
  CHECK(output_value(run("serving-search", book({{"dtype_params", Value::of("bf16")},
                                                 {"dtype_kv", Value::of("bf16")}})),
                     "min_slice")
            .text == "4x4");
  CHECK(output_value(run("serving-search", book({{"dtype_params", Value::of("int4")},
                                                 {"dtype_kv", Value::of("int4")}})),
                     "min_slice")
            .text == "2x2");
  const Table& t = table(c, "slices");
  REQUIRE(t.rows.size() >= 3);
  CHECK(cell(t, 0, "shape").text == "2x4");
  // Caches of 160 kB per token (2 x 8 x 128 x 80) at 8192 tokens beside the weights, in
  // 8 x 16 GB: (128e9 - 70.55e9) / (163,840 x 8192) = 42.8, the book's 43.
  CHECK(cell(t, 0, "max_batch").number == 42);
  // One step at that batch streams the whole HBM: about 16 GB / 8.1e11 B/s, the book's 19 ms.
  CHECK(cell(t, 0, "t_per_token").number == Approx(0.0195).epsilon(0.05));
  CHECK(output_value(c, "too_small").text ==
        "1x1, 1x2, 2x2: the weights (70.6 GB) and a cache do not fit");
}

TEST_CASE("serving-search: LLaMA 3-405B within 15 ms a token, the book's problem 3",
          "[serving-search]") {
  Calculation c =
      run("serving-search",
          book({{"model", Value::of("llama-3-405b")}, {"target_latency", Value::of("15ms")}}));
  // The book: about 149 tokens/s per chip on an 8x8 at batch 143, compute-bound. At the
  // FLOPs bound every batch past ~120 gives the same throughput: the pick keeps 8x8 and the
  // lower latency.
  CHECK(output_value(c, "pick").text == "8x8, tp 64, 1D, batch 128");
  CHECK(output(c, "pick_throughput") == Approx(149).epsilon(0.02));
  CHECK(output(c, "pick_latency") <= 0.015);
  CHECK(output_value(c, "pick_bound").text == "FLOPs");
  CHECK(output(c, "pick_qps") == Approx(output(c, "pick_throughput") / 512));
  CHECK(output(c, "target_miss") == 0);
  // 32 chips' HBM is the least that holds 406 GB of weights and a cache.
  CHECK(output(c, "min_chips") == 32);
  // With its collectives the same search is slower: the engine's own step.
  Calculation full = run("serving-search", book({{"model", Value::of("llama-3-405b")},
                                                 {"target_latency", Value::of(0.015)},
                                                 {"step", Value::of("collectives")}}));
  CHECK(output(full, "pick_throughput") < 0.5 * output(c, "pick_throughput"));
}

TEST_CASE("serving-search: the pick meets every target, and the front is sorted",
          "[serving-search]") {
  Calculation c = run("serving-search",
                      {{"target_latency", Value::of(0.015)}, {"target_ttft", Value::of(2.0)}});
  CHECK(output(c, "pick_latency") <= 0.015);
  CHECK(output(c, "pick_ttft") <= 2.0);
  const Table& front = table(c, "front");
  REQUIRE(front.rows.size() == std::size_t(output(c, "front_points")));
  for (std::size_t i = 1; i < front.rows.size(); ++i) {
    INFO(i);
    // Slower points on the front must be cheaper per token.
    CHECK(cell(front, i, "t_per_token").number >= cell(front, i - 1, "t_per_token").number);
    CHECK(cell(front, i, "tokens_per_s_per_chip").number >
          cell(front, i - 1, "tokens_per_s_per_chip").number);
  }
  // "15ms" is 0.015 s.
  CHECK(output_value(run("serving-search", {{"target_latency", Value::of("15ms")}}), "pick").text ==
        output_value(run("serving-search", {{"target_latency", Value::of(0.015)}}), "pick").text);
}

TEST_CASE("serving-search: a target nothing meets names the closest and by how much",
          "[serving-search]") {
  Calculation c = run("serving-search", book({{"target_latency", Value::of(0.001)}}));
  const double fastest = output(c, "fastest_latency");
  CHECK(output(c, "target_miss") == Approx(fastest - 0.001));
  CHECK(output_value(c, "closest")
            .text.rfind("no configuration meets 1 ms per token: the fastest is ", 0) == 0);
  CHECK(output_value(c, "pick").text == output_value(c, "closest").text);
  Calculation ttft = run("serving-search", book({{"target_ttft", Value::of(0.01)}}));
  CHECK(output_value(ttft, "closest")
            .text.rfind("no configuration meets a first token within 10 ms: the quickest is ", 0) ==
        0);
}

TEST_CASE("serving-search: a model no slice holds says why", "[serving-search]") {
  Calculation c = run("serving-search", {{"model", Value::of("llama-3-405b")},
                                         {"dtype_params", Value::of("bf16")},
                                         {"max_chips", Value::of(16.0)}});
  CHECK(output(c, "fitting") == 0);
  CHECK(output_value(c, "pick").text ==
        "no slice up to 4x4 holds the weights (812 GB) and a cache: a larger slice (max_chips), "
        "narrower dtypes or a shorter context");
  CHECK(table(c, "front").rows.empty());
}

TEST_CASE("serving-search: bad input is named", "[serving-search]") {
  check_error(run_error("serving-search", {{"target_latency", Value::of("15GB")}}),
              ErrorCode::invalid_argument, "target_latency",
              "target_latency is in s, got \"15GB\" (GB is not a unit of it)");
  check_error(run_error("serving-search", {{"output", Value::of(0.0)}}), ErrorCode::out_of_range,
              "output", "output must be >= 1, got 0");
  CHECK(run_error("serving-search", {{"target_latency", Value::of(-1.0)}}).field ==
        "target_latency");
  CHECK(run_error("serving-search", {{"max_chips", Value::of(2.5)}}).field == "max_chips");
  CHECK(run_error("serving-search", {{"prefill_mfu", Value::of(1.5)}}).field == "prefill_mfu");
  CHECK(run_error("serving-search", {{"chip", Value::of("tpu-v9")}}).field == "chip");
  CHECK(run_error("serving-search", {{"context", Value::of("abc")}}).field == "S");
}
