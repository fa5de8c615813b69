// The `gpu-chip` calculator against chapter 12's Quiz 1 and inline examples: CUDA cores,
// vector FLOPs, FLOPs per Tensor Core a cycle, SMEM and registers, resident warps, and the
// TPU v5p's counterparts.
#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

TEST_CASE("gpu-chip: an H100 has 16,896 CUDA cores, 26.9 / 33.5 TFLOP/s of vector math", "[gpus]") {
  const Calculation c = run("gpu-chip", {});
  CHECK(output_value(c, "kind").text == "GPU");
  CHECK(output(c, "vector_alus") == 16896);
  CHECK(output(c, "matrix_units") == 528);
  CHECK(output(c, "vector_flops_base") == Approx(26.86e12).epsilon(0.001));
  CHECK(output(c, "vector_flops_boost") == Approx(33.45e12).epsilon(0.001));
  CHECK(output(c, "matrix_vector_ratio") == Approx(29.6).epsilon(0.01));  // ~30x
  // gpus-ex1: 990e12 / 132 / 4 / 1.76e9 = 1065 (the book rounds to ~1024).
  CHECK(output(c, "flops_per_unit_cycle") == Approx(1064.3).epsilon(0.001));
  const Calculation book = run("gpu-chip", {{"peak_flops_bf16", Value::of(990e12)}});
  CHECK(output(book, "flops_per_unit_cycle") == Approx(1065.34).epsilon(0.0001));
  // Quiz 1 Q5: 132 x 256 kB of SMEM, 132 x 256 KiB of registers.
  CHECK(output(c, "fast_memory") == Approx(33.792e6));
  CHECK(output(c, "register_memory") == Approx(132 * 262144.0));
  CHECK(output(c, "on_chip_memory") == Approx(68.4e6).epsilon(0.001));
  // gpus-ex3: 256 registers a thread leave 8 warps.
  CHECK(output(c, "resident_warps") == 8);
  CHECK(output(run("gpu-chip", {{"regs_per_thread", Value::of(128.0)}}), "resident_warps") == 16);
  CHECK(output(run("gpu-chip", {{"regs_per_thread", Value::of(8.0)}}), "resident_warps") == 64);
}

TEST_CASE("gpu-chip: a B200 has 18,944 CUDA cores and about 2048 FLOPs per Tensor Core a cycle",
          "[gpus]") {
  const Calculation c = run("gpu-chip", {{"chip", Value::of("b200")}});
  CHECK(output(c, "vector_alus") == 18944);
  CHECK(output(c, "flops_per_unit_cycle") == Approx(2043).epsilon(0.001));  // gpus-ex2
  // Quiz 1 Q6: 80 TFLOP/s with an FMA as two is 40e12 counted once, over 18,944 lanes.
  const Calculation q6 =
      run("gpu-chip", {{"chip", Value::of("b200")}, {"boost_clock_hz", Value::of(40e12 / 18944)}});
  CHECK(output(q6, "vector_flops_boost") == Approx(40e12));
  // The book's exercises pass their own numbers as overrides.
  const Calculation own = run("gpu-chip", {{"sms_per_chip", Value::of(100.0)}});
  CHECK(output(own, "vector_alus") == 12800);
}

TEST_CASE("gpu-chip: a TPU v5p's counterparts: 8192 VPU ALUs, 8 MXUs, 128 MB of VMEM", "[gpus]") {
  const Calculation c = run("gpu-chip", {{"chip", Value::of("tpu-v5p")}});
  CHECK(output_value(c, "kind").text == "TPU");
  CHECK(output(c, "vector_alus") == 8192);  // 2 x 4 x 8 x 128
  CHECK(output(c, "matrix_units") == 8);
  CHECK(output(c, "fast_memory") == 128e6);
  CHECK(output_value(c, "resident_warps").is_none());
  CHECK(output_value(c, "resident_warps").text == "not applicable to a TPU: GPUs only");
}

TEST_CASE(
    "gpu-chip: a field the catalog lacks gives no number and says why; bad input names "
    "the field",
    "[gpus]") {
  const Calculation h800 = run("gpu-chip", {{"chip", Value::of("h800")}});
  CHECK(output_value(h800, "vector_alus").is_none());
  CHECK(output_value(h800, "vector_alus").text ==
        "the catalog lacks sms_per_chip or cuda_cores_per_sm for this chip");
  check_error(run_error("gpu-chip", {{"regs_per_thread", Value::of(300.0)}}),
              ErrorCode::out_of_range, "regs_per_thread",
              "regs_per_thread must be <= 256, got 300");
  const Error unknown = run_error("gpu-chip", {{"chip", Value::of("h900")}});
  CHECK(unknown.field == "chip");
  CHECK(unknown.message.rfind("chip must be one of tpu-v5e, tpu-v5p", 0) == 0);
}
