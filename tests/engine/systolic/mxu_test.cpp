#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

TEST_CASE("a 128x128 MXU at 1.5 GHz does about 5e13 FLOP/s, a v5e's four about 2e14 (tpus-ex1)",
          "[mxu]") {
  Calculation c = run("mxu", {});  // defaults: TPU v5e, 4 MXUs of 128x128 at 1.5 GHz
  CHECK(output(c, "flops_per_cycle") == 2 * 8 * 128 * 128 / 8);  // 32768
  CHECK(output(c, "peak_flops_per_mxu") == 49152000000000.0);
  CHECK(output(c, "peak_flops_per_mxu") == Approx(5e13).epsilon(0.05));
  CHECK(output(c, "peak_flops") == 196608000000000.0);
  CHECK(output(c, "peak_flops") == Approx(1.97e14).epsilon(0.01));  // the spec table's bf16 peak
}

TEST_CASE("each further 8-row LHS tile through a weight tile costs 8 cycles", "[mxu]") {
  Inputs in = {{"M", Value::of(1024.0)},
               {"N", Value::of(128.0)},
               {"K", Value::of(128.0)},
               {"mxus", Value::of(1.0)}};
  Calculation before = run("mxu", in);
  in["M"] = Value::of(1032.0);
  Calculation after = run("mxu", in);
  CHECK(output(after, "cycles") - output(before, "cycles") == 8);
  CHECK(output(after, "cycles_per_lhs_tile") == 8);
  SECTION("with only 8 rows the next weight tile's 128-cycle load sets the pace") {
    in["M"] = Value::of(8.0);
    CHECK(output(run("mxu", in), "cycles_per_lhs_tile") == 128);
  }
}

TEST_CASE("a 1024^3 matmul on a v5e takes 16766 cycles, 98% of peak", "[mxu]") {
  // 8 x 8 = 64 weight tiles, 16 per MXU; 128 to load the first, 1024 cycles per tile, 254 skew.
  Calculation c = run("mxu", {});
  CHECK(output(c, "weight_tiles") == 64);
  CHECK(output(c, "tiles_per_mxu") == 16);
  CHECK(output(c, "cycles") == 128 + 15 * 1024 + 1024 + 254);
  CHECK(output(c, "time") == Approx(16766 / 1.5e9).epsilon(1e-12));
  CHECK(output(c, "achieved_flops") == Approx(2.0 * 1024 * 1024 * 1024 * 1.5e9 / 16766));
  CHECK(output(c, "efficiency") == Approx(16384.0 / 16766).epsilon(1e-12));
  CHECK(output(c, "padding_waste") == 0);
}

TEST_CASE("dimensions that are not multiples of the array are padded and the padding wasted",
          "[mxu]") {
  Calculation c =
      run("mxu", {{"M", Value::of(1001.0)}, {"N", Value::of(100.0)}, {"K", Value::of(100.0)}});
  CHECK(output(c, "M_padded") == 1008);
  CHECK(output(c, "N_padded") == 128);
  CHECK(output(c, "K_padded") == 128);
  CHECK(output(c, "padding_waste") == Approx(1 - 1001.0 * 100 * 100 / (1008.0 * 128 * 128)));
  SECTION("v6e's 256-wide MXU does 4x the FLOPs a cycle but wastes 75% on 128-wide weights") {
    Calculation v6e =
        run("mxu", {{"N", Value::of(128.0)}, {"K", Value::of(128.0)}, {"array", Value::of(256.0)}});
    CHECK(output(v6e, "flops_per_cycle") == 4 * 32768);
    CHECK(output(v6e, "K_padded") == 256);
    CHECK(output(v6e, "padding_waste") == 0.75);
  }
}

TEST_CASE("bad mxu inputs name the field", "[mxu][errors]") {
  check_error(run_error("mxu", {{"mxus", Value::of(0.0)}}), ErrorCode::out_of_range, "mxus",
              "mxus must be >= 1, got 0");
  check_error(run_error("mxu", {{"array", Value::of(127.5)}}), ErrorCode::invalid_argument, "array",
              "array must be a whole number, got 127.5");
  check_error(run_error("mxu", {{"clock", Value::of(0.0)}}), ErrorCode::out_of_range, "clock",
              "clock must be > 0, got 0");
  check_error(run_error("mxu", {{"N", Value::of(-128.0)}}), ErrorCode::out_of_range, "N",
              "N must be >= 1, got -128");
}

TEST_CASE("the mxu calculator takes a chip's MXUs from the catalog and asks when it has none",
          "[mxu]") {
  using namespace scalebook::test;
  Calculation v5e = run("mxu", {{"chip", Value::of("tpu-v5e")}});
  CHECK(output(v5e, "peak_flops") == Approx(4 * 2 * 128.0 * 128 * 1.5e9));
  Error gpu = run_error("mxu", {{"chip", Value::of("h100")}});
  CHECK(gpu.field == "mxus");
  CHECK(gpu.message == "h100 has no mxus_per_chip in the catalog; give mxus to set one");
  Calculation own = run("mxu", {{"chip", Value::of("h100")},
                                {"mxus", Value::of(528.0)},
                                {"array", Value::of(8.0)},
                                {"clock", Value::of(1.76e9)}});
  CHECK(output(own, "peak_flops") == Approx(528 * 2 * 64 * 1.76e9));
}
