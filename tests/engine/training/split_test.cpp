// The training-split calculator against chapter 5's FSDP x TP section
// (problems/training.json: wx-xopt-4x4x4, wx-mixed-threshold, wx-16x16x16-figure), each number
// derived by hand from the v5p's C = 4.59e14 FLOP/s and W_ici = 2 x 9e10 B/s (alpha = 2550),
// with the book's simplified layer: D = 8192, F = 4D = 32768 unless given, bf16 (2 bytes).
#include <cmath>
#include <string>

#include "helpers.h"
#include "scalebook/core/registry.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

Calculation split(Inputs in = {}) { return run("training-split", in); }
Error bad(Inputs in) { return run_error("training-split", in); }

}  // namespace

TEST_CASE("the 4x4x4 example: X_opt = sqrt(48000 / 32768 * 2 * 64) = 13.69, so X = 16, Y = 4",
          "[split]") {
  Calculation c = split();
  CHECK(output(c, "chips") == 64);
  CHECK(output(c, "axes") == 3);
  CHECK(output(c, "M_X") == 2);
  CHECK(output(c, "M_Y") == 1);
  CHECK(output(c, "alpha") == Approx(2550));
  CHECK(output(c, "x_opt") == Approx(std::sqrt(48000.0 / 32768 * 2 * 64)));
  CHECK(output(c, "x_opt") == Approx(13.693).epsilon(1e-4));
  CHECK(output(c, "y_opt") == Approx(64 / 13.693).epsilon(1e-4));
  CHECK(output(c, "best_x") == 16);
  CHECK(output(c, "best_y") == 4);
  // At 16 x 4: FSDP 2 * 2 * 8192 * 32768 / (4 * 1.8e11 * 2) = 7.457e-4 s outlasts TP's
  // 2 * 2 * 48000 * 8192 / (16 * 1.8e11 * 1) = 5.461e-4 s; the math is
  // 4 * 48000 * 8192 * 32768 / (64 * 4.59e14) = 1.7545e-3 s, so the ratio is 2.353.
  CHECK(output(c, "best_t_comms") == Approx(4.0 * 8192 * 32768 / (4 * 1.8e11 * 2)));
  CHECK(output(c, "t_math") == Approx(4.0 * 48000 * 8192 * 32768 / (64 * 4.59e14)));
  CHECK(output(c, "best_ratio") == Approx(2.3529).epsilon(1e-4));
  CHECK(output_value(c, "bound").text == "compute");
}

TEST_CASE("the strip has every power of two X from 1 to N, the pure ends on every axis",
          "[split]") {
  Calculation c = split();
  const Table& t = table(c, "splits");
  REQUIRE(t.rows.size() == 7);  // X = 1, 2, 4, ..., 64
  for (std::size_t i = 0; i < 7; ++i) {
    CHECK(cell(t, i, "X").number == std::exp2(double(i)));
    CHECK(cell(t, i, "X").number * cell(t, i, "Y").number == 64);
  }
  // X = 1 is pure TP over all three axes: no FSDP traffic, 4 * 48000 * 8192 / (1.8e11 * 3).
  CHECK(cell(t, 0, "M_X").number == 0);
  CHECK(cell(t, 0, "M_Y").number == 3);
  CHECK(cell(t, 0, "t_fsdp").number == 0);
  CHECK(cell(t, 0, "t_tp").number == Approx(4.0 * 48000 * 8192 / (1.8e11 * 3)));
  // X = 64 is pure FSDP over all three: ratio (B / N) * M / alpha = 750 * 3 / 2550 = 0.882.
  CHECK(cell(t, 6, "M_X").number == 3);
  CHECK(cell(t, 6, "t_tp").number == 0);
  CHECK(cell(t, 6, "ratio").number == Approx(750.0 * 3 / 2550));
  CHECK(cell(t, 6, "bound").text == "ici");
  CHECK(cell(t, 4, "best").text == "yes");
  CHECK(cell(t, 3, "best").text == "no");
  CHECK(output(c, "fsdp_ratio") == Approx(750.0 * 3 / 2550));
}

TEST_CASE("a slice of 8960 chips splits at every power of two dividing it, and N itself",
          "[split]") {
  Calculation c = split({{"shape", text("16x20x28")}, {"B", num(4194304)}});
  const Table& t = table(c, "splits");
  // 8960 = 2^8 x 35: X = 1 .. 256, then 8960.
  REQUIRE(t.rows.size() == 10);
  CHECK(cell(t, 8, "X").number == 256);
  CHECK(cell(t, 9, "X").number == 8960);
  CHECK(cell(t, 9, "Y").number == 1);
}

TEST_CASE("the mixed threshold: alpha^2 / (2F) = 2550^2 / 65536 = 99.2 tokens per chip",
          "[split]") {
  Calculation c = split({{"shape", text("16x16x16")}});
  CHECK(output(c, "mixed_batch") == Approx(2550.0 * 2550 / (2 * 32768)));
  CHECK(output(c, "fsdp_batch") == Approx(850));
  // The 16x16x16 figure's prediction: N alpha^2 / (2F) = 4096 x 99.2 = 4.06e5 tokens.
  CHECK(output(c, "mixed_global") == Approx(4096 * 2550.0 * 2550 / (2 * 32768)));
  // TP's limit on one axis: F / alpha = 32768 / 2550 = 12.85.
  CHECK(output(c, "max_tp") == Approx(32768 / 2550.0));
}

TEST_CASE("the curves: FSDP rises with the batch, TP stays flat, the mix as its square root",
          "[split]") {
  Calculation c = split({{"F", num(30000)}});
  const Table& t = table(c, "curves");
  REQUIRE(t.rows.size() == 26);  // 1 to 1e5 tokens per chip, five points a decade
  CHECK(cell(t, 0, "per_chip").number == Approx(1));
  CHECK(cell(t, 25, "per_chip").number == Approx(1e5));
  // At 1000 tokens per chip (row 15): FSDP 1000 * 3 / 2550 = 1.176; TP 3 * 30000 / (64 * 2550)
  // = 0.551 at every batch; the mix at X_opt sqrt(1000 * 30000 * 2) / 2550 = 3.038.
  CHECK(cell(t, 15, "per_chip").number == Approx(1000));
  CHECK(cell(t, 15, "fsdp").number == Approx(1000.0 * 3 / 2550));
  CHECK(cell(t, 15, "tp").number == Approx(3.0 * 30000 / (64 * 2550)));
  CHECK(cell(t, 0, "tp").number == Approx(3.0 * 30000 / (64 * 2550)));
  CHECK(cell(t, 15, "mixed").number == Approx(std::sqrt(1000.0 * 30000 * 2) / 2550));
  // The mix crosses 1 near its threshold: 2550^2 / 60000 = 108.4 tokens per chip (row 10 is
  // 100, just under; row 11 is 158, over).
  CHECK(cell(t, 10, "mixed").number < 1);
  CHECK(cell(t, 11, "mixed").number > 1);
  for (std::size_t i = 0; i < t.rows.size(); ++i) CHECK(cell(t, i, "tp").number < 1);
}

TEST_CASE("named splits: the book's four on 16x16x16, each against the batch", "[split]") {
  Calculation c = split({{"shape", text("16x16x16")},
                         {"B", num(1048576)},
                         {"splits", text("4096x1 1x4096, 512x8 1024x4")}});
  const Table& t = table(c, "times");
  REQUIRE(t.rows.size() == 4 * 26);
  CHECK(cell(t, 0, "split").text == "4096 x 1");
  CHECK(cell(t, 26, "split").text == "1 x 4096");
  CHECK(cell(t, 52, "split").text == "512 x 8");
  CHECK(cell(t, 78, "split").text == "1024 x 4");
  // 512 x 8 at B = 4096 x 1e5 (its last row): TP 4 * 4.096e8 * 8192 / (512 * 1.8e11) = 0.1456 s
  // outlasts FSDP's 4 * 8192 * 32768 / (8 * 1.8e11 * 2) = 3.73e-4 s.
  CHECK(cell(t, 77, "t_comms").number == Approx(4 * 4.096e8 * 8192 / (512 * 1.8e11)));
  // Without splits: pure FSDP, pure TP and the powers of two either side of X_opt =
  // sqrt(1048576 / 32768 * 2 * 4096) = 512, which is one of them.
  const Calculation plain = split({{"shape", text("16x16x16")}, {"B", num(1048576)}});
  const Table& d = table(plain, "times");
  CHECK(d.rows.size() == 3 * 26);
  CHECK(cell(d, 52, "split").text == "512 x 8");
}

TEST_CASE("training-split refuses what it cannot split, naming the field", "[split]") {
  check_error(bad({{"shape", text("1x1x1")}}), ErrorCode::invalid_argument, "shape",
              "the slice has 1 chip; FSDP x TP needs at least 2 to split");
  check_error(bad({{"shape", text("4x4")}}), ErrorCode::invalid_argument, "shape",
              "shape has 2 axes but tpu-v5p is a 3D torus");
  check_error(bad({{"M_X", num(3)}}), ErrorCode::out_of_range, "M_Y",
              "M_X + M_Y = 4 axes is more than the slice's 3; FSDP and TP span different axes");
  check_error(bad({{"splits", text("512x4")}, {"shape", text("16x16x16")}}),
              ErrorCode::invalid_argument, "splits",
              "splits: 512x4 is 2048 chips, the slice has 4096");
  check_error(bad({{"splits", text("fsdp")}}), ErrorCode::invalid_argument, "splits",
              "splits: \"fsdp\" is not X x Y, like 512x8");
  check_error(bad({{"splits", text("1x64 2x32 4x16 8x8 16x4 32x2 64x1 1x64 2x32")}}),
              ErrorCode::out_of_range, "splits", "splits names 9 splits; at most 8");
  check_error(bad({{"chip", text("h100")}}), ErrorCode::unsupported, "chip",
              "training-split splits a TPU slice over ICI, and h100 has no ICI torus in the "
              "catalog; pick a TPU");
}
