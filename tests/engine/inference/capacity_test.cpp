// The serving-capacity calculator (chapter 8's prefill / generate planner): the book's
// eviction and balance numbers, the closed forms between its outputs, and bad input by name.
#include <cmath>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

// LLaMA 3-70B on v5e, int8 weights and cache: prefill on a 4x4, decode on a 2x4 at batch 32.
Inputs book(Inputs in = {}) {
  for (auto [name, v] : {std::pair{"model", Value::of("llama-3-70b")},
                         {"chip", Value::of("tpu-v5e")},
                         {"dtype_params", Value::of("int8")},
                         {"dtype_kv", Value::of("int8")},
                         {"prefill_shape", Value::of("4x4")},
                         {"shape", Value::of("2x4")},
                         {"batch", Value::of(32.0)},
                         {"T", Value::of(8192.0)},
                         {"S", Value::of(8192.0)},
                         {"output", Value::of(512.0)}})
    if (!in.count(name)) in[name] = v;
  return in;
}

}  // namespace

TEST_CASE("serving-capacity: the book's prefill, decode step and 3 to 1 balance",
          "[serving-capacity]") {
  Calculation c = run("serving-capacity", book());
  // 2 x 70.6e9 x 8192 / (16 x 1.97e14 x 0.4) = 0.92 s; the attention's FLOPs add a few percent
  // (the book's 0.91 s leaves them out).
  CHECK(output(c, "t_prefill") == Approx(0.92).epsilon(0.07));
  CHECK(output(c, "t_prefill") > 2 * 70.55e9 * 8192 / (16 * 1.97e14 * 0.4));
  // A 2x4 at batch 32 streams its weights and caches in about the book's 19 ms.
  CHECK(output(c, "t_step") == Approx(0.019).epsilon(0.05));
  // P / 0.91 = 32 G / (0.019 x 512): about 3 prefill slices for each decode slice.
  CHECK(output(c, "ratio") == Approx(3.0).epsilon(0.1));
  CHECK(output(c, "ratio") == Approx(output(c, "decode_rate") / output(c, "prefill_rate")));
  CHECK(output(c, "decode_rate") == Approx(32 / (output(c, "t_step") * 512)));
  // 10 requests a second: whole slices of each, and their chips.
  CHECK(output(c, "prefill_slices") == std::ceil(10 / output(c, "prefill_rate")));
  CHECK(output(c, "decode_slices") == std::ceil(10 / output(c, "decode_rate")));
  CHECK(output(c, "chips") == 16 * output(c, "prefill_slices") + 8 * output(c, "decode_slices"));
  CHECK(output(c, "kv_transfer_bytes") == 163840.0 * 8192);
  CHECK(output_value(c, "decode_fits").text == "yes");
}

TEST_CASE("serving-capacity: sequences and tokens leaving each step, the book's 96",
          "[serving-capacity]") {
  Calculation c = run("serving-capacity", book({{"output", Value::of(4096.0)}}));
  CHECK(output(c, "finished_per_step") == 32.0 / 4096);
  CHECK(output(c, "evicted_per_step") == 96);
}

TEST_CASE("serving-capacity: colocated slices stall their batch for each prefill",
          "[serving-capacity]") {
  Calculation c = run("serving-capacity", book({{"prefill_shape", Value::of("2x4")}}));
  // A slice that also prefills serves fewer requests than one that only decodes.
  const double decode_only = output(c, "decode_rate");
  CHECK(10 / output(c, "colocated_slices") < decode_only);
  CHECK(output(c, "colocated_chips") == 8 * output(c, "colocated_slices"));
  CHECK(output(c, "colocated_cost_per_hour") == Approx(1.2 * output(c, "colocated_chips")));
  CHECK(output(c, "cost_per_million") ==
        Approx(1.2 * output(c, "chips") / (10 * 512 * 3600) * 1e6));
}

TEST_CASE(
    "serving-capacity: a batch that does not fit is a result, a slice that cannot "
    "prefill an error",
    "[serving-capacity]") {
  Calculation c = run("serving-capacity", book({{"batch", Value::of(500.0)}}));
  CHECK(output_value(c, "decode_fits").text.rfind("no: over by ", 0) == 0);
  check_error(run_error("serving-capacity", book({{"prefill_shape", Value::of("1x1")}})),
              ErrorCode::invalid_argument, "prefill_shape",
              "prefill slice 1x1: a replica (tp 1) needs 71.9 GB a chip for its weights and one "
              "prompt's cache, over its 16 GB; give a larger prefill slice");
  CHECK(run_error("serving-capacity", book({{"prefill_shape", Value::of("4x")}})).field ==
        "prefill_shape");
  CHECK(run_error("serving-capacity", book({{"rate", Value::of(0.0)}})).field == "rate");
  CHECK(run_error("serving-capacity", book({{"output", Value::of(1.5)}})).field == "output");
  CHECK(run_error("serving-capacity", book({{"prefill_mfu", Value::of(0.0)}})).field ==
        "prefill_mfu");
}
