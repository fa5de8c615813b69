// The `gpu-kernel` roofline against chapter 12's Quiz 1: critical intensities, the B200
// matmuls either side of the knee, the H100 vector add, and the SMs a small kernel fills.
#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

TEST_CASE("gpu-kernel: critical intensity is 295 on H100 and 281 on B200, doubled in fp8",
          "[gpus]") {
  auto critical = [](const char* chip, const char* dtype) {
    return output(run("gpu-kernel", {{"chip", Value::of(chip)}, {"dtype", Value::of(dtype)}}),
                  "critical_intensity");
  };
  CHECK(critical("h100", "bf16") == Approx(295).epsilon(0.01));
  CHECK(critical("b200", "bf16") == Approx(281.25));
  CHECK(critical("h100", "fp8") == Approx(590).epsilon(0.01));
  CHECK(critical("b200", "fp8") == Approx(562.5));
}

TEST_CASE("gpu-kernel: a B200 matmul is memory-bound at batch 64, compute-bound at 512", "[gpus]") {
  // Quiz 1 Q4, with the table's 2.3e15 the answer uses.
  Inputs in = {{"chip", Value::of("b200")},
               {"B", Value::of(64.0)},
               {"D", Value::of(4096.0)},
               {"F", Value::of(8192.0)},
               {"peak_flops_bf16", Value::of(2.3e15)}};
  const Calculation small = run("gpu-kernel", in);
  CHECK(output(small, "bytes") == 68681728);  // 2 (64*4096 + 4096*8192 + 64*8192)
  CHECK(output(small, "time") == Approx(8.59e-6).epsilon(0.001));
  CHECK(output_value(small, "bound").text == "memory");
  in["B"] = Value::of(512.0);
  const Calculation big = run("gpu-kernel", in);
  CHECK(output(big, "time") == Approx(14.94e-6).epsilon(0.001));
  CHECK(output_value(big, "bound").text == "compute");
  // The catalog's 2250e12 (Quiz 1 Q3's figure) gives 15.3 us.
  in.erase("peak_flops_bf16");
  CHECK(output(run("gpu-kernel", in), "time") == Approx(15.27e-6).epsilon(0.001));
}

TEST_CASE("gpu-kernel: an fp32 vector add on H100 is 12N bytes at the CUDA cores' 33.5 TFLOP/s",
          "[gpus]") {
  Inputs in = {
      {"op", Value::of("vector-add")}, {"dtype", Value::of("fp32")}, {"N", Value::of(65536.0)}};
  const Calculation c = run("gpu-kernel", in);
  CHECK(output(c, "bytes") == 12 * 65536);
  CHECK(output(c, "intensity") == Approx(1.0 / 12));
  CHECK(output(c, "peak_flops") == Approx(33.45e12).epsilon(0.001));  // FMA counted once
  CHECK(output(c, "critical_intensity") == Approx(10).epsilon(0.01));
  CHECK(output(c, "time") == Approx(0.2347e-6).epsilon(0.001));
  CHECK(output_value(c, "bound").text == "memory");
  // 4 blocks of 128 x 128 elements on 132 SMs: 3% of them busy.
  CHECK(output(c, "tiles") == 4);
  CHECK(output(c, "occupancy") == Approx(4.0 / 132));
  in["N"] = Value::of(1073741824.0);
  CHECK(output(run("gpu-kernel", in), "time") == Approx(3.846e-3).epsilon(0.001));
}

TEST_CASE("gpu-kernel: tiles fill the SMs in waves", "[gpus]") {
  // 1024 x 8192 outputs: 8 x 64 = 512 tiles over 132 SMs, 4 waves, 97% busy.
  const Calculation c = run("gpu-kernel", {{"B", Value::of(1024.0)}});
  CHECK(output(c, "tiles") == 512);
  CHECK(output(c, "waves") == 4);
  CHECK(output(c, "occupancy") == Approx(512.0 / 528));
}

TEST_CASE("gpu-kernel: SMEM and L2 lower the critical intensity below HBM's", "[gpus]") {
  auto with = [](const char* chip, const char* memory) {
    return run("gpu-kernel", {{"chip", Value::of(chip)}, {"memory", Value::of(memory)}});
  };
  // SMEM: 132 SMs x 32 banks x 4 B x 1.98 GHz = 33.45 TB/s, so 989e12 / 33.45e12 = 29.6.
  const Calculation smem = with("h100", "smem");
  CHECK(output(smem, "memory_bandwidth") == Approx(132 * 128 * 1.98e9));
  CHECK(output(smem, "critical_intensity") == Approx(9.89e14 / (132 * 128 * 1.98e9)));
  CHECK(output(smem, "hbm_bandwidth") == 3.35e12);
  // The default 64 x 4096 x 8192 matmul (intensity 62.5) is memory-bound from HBM, and
  // compute-bound from SMEM, where its bytes take 68.7 MB / 33.45 TB/s = 2.05 us.
  CHECK(output_value(with("h100", "hbm"), "bound").text == "memory");
  CHECK(output_value(smem, "bound").text == "compute");
  CHECK(output(smem, "t_comms") == Approx(68681728 / (132 * 128 * 1.98e9)));
  // L2: the chapter's measured 5.5 TB/s on H100 (and H200, the same die): 989 / 5.5 = 180.
  CHECK(output(with("h100", "l2"), "critical_intensity") == Approx(9.89e14 / 5.5e12));
  CHECK(output(with("h200", "l2"), "memory_bandwidth") == 5.5e12);
  // B200: 148 SMs x 128 B x 2.1 GHz boost = 39.8 TB/s; a measured L2 bandwidth only when the reader
  // gives one.
  CHECK(output(with("b200", "smem"), "memory_bandwidth") == Approx(148 * 128 * 2.1e9));
  check_error(run_error("gpu-kernel", {{"chip", Value::of("b200")}, {"memory", Value::of("l2")}}),
              ErrorCode::unsupported, "memory",
              "memory=l2 needs the GPU's L2 bandwidth, which NVIDIA does not publish and the "
              "catalog has measured only for the H100 and H200; give l2_bandwidth for b200");
  CHECK(output(run("gpu-kernel", {{"chip", Value::of("b200")},
                                  {"memory", Value::of("l2")},
                                  {"l2_bandwidth", Value::of(2e13)}}),
               "critical_intensity") == Approx(2.25e15 / 2e13));
  // Zero is not a bandwidth: an override must be positive.
  check_error(run_error("gpu-kernel",
                        {{"memory", Value::of("smem")}, {"smem_bytes_per_cycle", Value::of(0.0)}}),
              ErrorCode::out_of_range, "smem_bytes_per_cycle",
              "smem_bytes_per_cycle must be > 0, got 0");
  CHECK(run_error("gpu-kernel", {{"memory", Value::of("vmem")}}).field == "memory");
}

TEST_CASE("gpu-kernel: bad input names the field", "[gpus]") {
  check_error(run_error("gpu-kernel",
                        {{"op", Value::of("vector-add")}, {"unit", Value::of("tensor-cores")}}),
              ErrorCode::invalid_argument, "unit",
              "unit must be cuda-cores for a vector add: Tensor Cores only multiply matrices");
  check_error(run_error("gpu-kernel", {{"chip", Value::of("tpu-v5e")}}),
              ErrorCode::invalid_argument, "chip",
              "chip must be a GPU: tpu-v5e is a TPU, which has no SMs or CUDA cores");
  check_error(run_error("gpu-kernel", {{"chip", Value::of("v100")}}), ErrorCode::unsupported,
              "chip", "v100 has no dense bf16 peak in the catalog; give peak_flops_bf16");
  check_error(run_error("gpu-kernel", {{"B", Value::of(0.5)}}), ErrorCode::invalid_argument, "B",
              "B must be a whole number, got 0.5");
  CHECK(run_error("gpu-kernel", {{"N", Value::of(std::nan(""))}}).field == "N");
}
