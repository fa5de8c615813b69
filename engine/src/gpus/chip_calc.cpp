// The `gpu-chip` calculator. A GPU is SMs of 4 subpartitions, each a Tensor Core, a warp
// scheduler with 32 fp32 lanes (CUDA cores) and 16,384 32-bit registers, beside the SM's
// SMEM; a TPU is 1 or 2 TensorCores, each with MXUs, a VPU of (sublanes, lanes) slots of ALUs,
// vector registers and VMEM. The explorer sets them side by side, counterpart to counterpart:
//   vector ALUs       SMs x CUDA cores per SM      | TensorCores x sublanes x lanes x ALUs
//   matrix units      SMs x Tensor Cores per SM    | MXUs
//   FLOPs per unit    peak / units / clock         | the same
//   fast memory       SMs x SMEM per SM            | VMEM
//   register memory   SMs x register file per SM   | TensorCores x vector registers
// Vector FLOP/s count one operation per lane a cycle (chapter 12's Quiz 1: an FMA once).
#include "scalebook/gpus/chip_calc.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/gpus/kernel.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook {
namespace {

constexpr auto num = number_output;
constexpr auto text = text_output;

// Chapter 12: a warp is 32 threads, a register 32 bits, and an SM keeps at most 64 warps.
constexpr double kWarpThreads = 32;
constexpr double kRegisterBytes = 4;
constexpr double kMaxWarpsPerSm = 64;

std::vector<InputSpec> inputs() {
  InputSpec chip = chip_input();
  chip.default_value = Value::of("h100");
  chip.description = "a GPU (or a TPU, for its counterparts) from the hardware catalog";
  return {chip,
          dtype_input("dtype", "Dtype", "number format of the matrix peak", Value::of("bf16")),
          labelled({"regs_per_thread", InputKind::count, "registers",
                    "32-bit registers each thread of a kernel uses (at most 256)", Value::of(256.0),
                    1, false, 256},
                   "Registers per thread")};
}

const Schema& schema() {
  static const Schema s{
      "gpu-chip",
      "chapter 12's chip explorer: a GPU's (or TPU's) vector and matrix units, FLOPs per unit "
      "per cycle, on-chip memory and resident warps, derived from the catalog",
      inputs(),
      {text("kind", "GPU or TPU", "Kind"),
       num("cores", "cores", "SMs (GPU) or TensorCores (TPU)", "SMs / TensorCores"),
       num("vector_alus", "ALUs", "fp32 CUDA cores (GPU) or VPU ALUs (TPU)", "Vector ALUs"),
       num("matrix_units", "units", "Tensor Cores (GPU) or MXUs (TPU)", "Matrix units"),
       num("vector_flops_base", "FLOP/s", "CUDA cores x base clock, an FMA counted once",
           "Vector FLOP/s (base)"),
       num("vector_flops_boost", "FLOP/s", "CUDA cores x boost clock, an FMA counted once",
           "Vector FLOP/s (boost)"),
       num("matrix_flops", "FLOP/s", "dense peak for the dtype", "Matrix FLOP/s"),
       num("matrix_vector_ratio", "x", "matrix peak / vector FLOP/s at boost", "Matrix / vector"),
       num("clock", "Hz", "the clock the per-cycle figure divides by", "Clock"),
       num("flops_per_unit_cycle", "FLOP/cycle", "peak / matrix units / clock",
           "FLOPs per unit per cycle"),
       num("fast_memory", "B", "SMEM over all SMs (GPU) or VMEM (TPU)", "SMEM / VMEM"),
       num("register_memory", "B", "register files over all SMs, or vector registers (TPU)",
           "Registers"),
       num("on_chip_memory", "B", "the two together", "On-chip memory"),
       num("resident_warps", "warps",
           "warps an SM keeps at once: register file / (32 threads x 4 B x registers a thread), "
           "at most 64",
           "Resident warps")}};
  return s;
}

struct Counts {
  bool gpu = true;
  double cores = 0, vector_alus = 0, matrix_units = 0;
  double vector_base = 0, vector_boost = 0, matrix = 0, clock = 0;
  double fast = 0, registers = 0, warps = 0;
};

Counts counts_of(const Chip& c, Dtype dtype, double regs) {
  Counts k;
  k.gpu = !is_tpu(c);
  k.matrix = peak_flops(c, dtype);
  if (k.gpu) {
    k.cores = c.sms_per_chip;
    k.vector_alus = c.sms_per_chip * c.cuda_cores_per_sm;
    k.matrix_units = c.sms_per_chip * c.tensor_cores_per_sm;
    k.vector_base = cuda_core_flops(c, c.base_clock_hz);
    k.vector_boost = cuda_core_flops(c, c.boost_clock_hz);
    k.clock = c.clock_hz > 0 ? c.clock_hz : c.boost_clock_hz;
    k.fast = c.sms_per_chip * c.smem_per_sm;
    k.registers = c.sms_per_chip * c.registers_per_sm;
    k.warps = std::min(kMaxWarpsPerSm,
                       std::floor(c.registers_per_sm / (kWarpThreads * kRegisterBytes * regs)));
  } else {
    k.cores = c.tensorcores_per_chip;
    k.vector_alus = c.tensorcores_per_chip * c.vpu_sublanes * c.vpu_lanes * c.vpu_alus_per_slot;
    k.matrix_units = c.mxus_per_chip;
    k.clock = c.clock_hz;
    k.fast = c.vmem_capacity;
    k.registers = c.tensorcores_per_chip * c.vreg_capacity_per_core;
  }
  return k;
}

// A number, or why there is none: the catalog lacks a field it is made of.
void set_or_none(ResultBuilder& out, const char* name, double value, const char* needs) {
  if (value > 0 && std::isfinite(value))
    out.set(name, value);
  else
    out.none(name, std::string("the catalog lacks ") + needs + " for this chip");
}

SB_EXPLAIN_ONLY std::vector<Step> steps(const Chip& c, const Counts& k, Dtype dtype, double regs) {
  std::vector<Step> st;
  auto add = [&](std::string label, std::string latex, double value, const char* unit,
                 const char* output) {
    if (value > 0 && std::isfinite(value))
      st.push_back({std::move(label), std::move(latex), value, unit, output, {}});
  };
  const double units_cycle = k.matrix / k.matrix_units / k.clock;
  if (k.gpu) {
    add("CUDA cores: SMs x fp32 lanes per SM",
        latex_number(c.sms_per_chip) + " \\times " + latex_number(c.cuda_cores_per_sm) + " = " +
            latex_number(k.vector_alus),
        k.vector_alus, "ALUs", "vector_alus");
    add("Tensor Cores: SMs x Tensor Cores per SM",
        latex_number(c.sms_per_chip) + " \\times " + latex_number(c.tensor_cores_per_sm) + " = " +
            latex_number(k.matrix_units),
        k.matrix_units, "units", "matrix_units");
    add("Vector FLOP/s at the base clock, one operation per lane a cycle",
        latex_number(k.vector_alus) + " \\times " + latex_quantity(c.base_clock_hz, "Hz") + " = " +
            latex_quantity(k.vector_base, "FLOP/s"),
        k.vector_base, "FLOP/s", "vector_flops_base");
    add("Vector FLOP/s at the boost clock",
        latex_number(k.vector_alus) + " \\times " + latex_quantity(c.boost_clock_hz, "Hz") + " = " +
            latex_quantity(k.vector_boost, "FLOP/s"),
        k.vector_boost, "FLOP/s", "vector_flops_boost");
    add("Tensor Cores over CUDA cores",
        "\\frac{" + latex_quantity(k.matrix, "FLOP/s") + "}{" +
            latex_quantity(k.vector_boost, "FLOP/s") +
            "} = " + latex_number(k.matrix / k.vector_boost),
        k.matrix / k.vector_boost, "x", "matrix_vector_ratio");
  } else {
    add("VPU ALUs: TensorCores x sublanes x lanes x ALUs per slot",
        latex_number(c.tensorcores_per_chip) + " \\times " + latex_number(c.vpu_sublanes) +
            " \\times " + latex_number(c.vpu_lanes) + " \\times " +
            latex_number(c.vpu_alus_per_slot) + " = " + latex_number(k.vector_alus),
        k.vector_alus, "ALUs", "vector_alus");
  }
  add(std::string(to_string(dtype)) + " FLOPs per matrix unit per cycle: peak / units / clock",
      "\\frac{" + latex_quantity(k.matrix, "FLOP/s") + "}{" + latex_number(k.matrix_units) +
          " \\times " + latex_quantity(k.clock, "Hz") + "} = " + latex_number(units_cycle),
      units_cycle, "FLOP/cycle", "flops_per_unit_cycle");
  add(k.gpu ? "SMEM: SMs x SMEM per SM" : "VMEM, from the catalog",
      "M = " + latex_quantity(k.fast, "B"), k.fast, "B", "fast_memory");
  add(k.gpu ? "Registers: SMs x register file per SM"
            : "Vector registers: TensorCores x registers per core",
      "R = " + latex_quantity(k.registers, "B"), k.registers, "B", "register_memory");
  if (k.gpu) {
    add("Resident warps at " + format_number(regs) + " registers a thread (at most 64)",
        "\\frac{" + latex_quantity(c.registers_per_sm, "B") +
            "}{32 \\times 4\\ \\text{B} \\times " + latex_number(regs) +
            "} = " + latex_number(k.warps),
        k.warps, "warps", "resident_warps");
  }
  return st;
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip& c = *chip_of(in);
  const Dtype dtype = parse_dtype(in.text("dtype")).value_or(Dtype::bf16);
  const double regs = in.number("regs_per_thread");
  const Counts k = counts_of(c, dtype, regs);
  const char* gpu_only = "not applicable to a TPU: GPUs only";
  out.set_text("kind", k.gpu ? "GPU" : "TPU");
  set_or_none(out, "cores", k.cores, k.gpu ? "sms_per_chip" : "tensorcores_per_chip");
  set_or_none(out, "vector_alus", k.vector_alus,
              k.gpu ? "sms_per_chip or cuda_cores_per_sm" : "the VPU's shape");
  set_or_none(out, "matrix_units", k.matrix_units,
              k.gpu ? "sms_per_chip or tensor_cores_per_sm" : "mxus_per_chip");
  if (k.gpu) {
    set_or_none(out, "vector_flops_base", k.vector_base, "CUDA cores or a base clock");
    set_or_none(out, "vector_flops_boost", k.vector_boost, "CUDA cores or a boost clock");
  } else {
    out.none("vector_flops_base", gpu_only);
    out.none("vector_flops_boost", gpu_only);
  }
  set_or_none(out, "matrix_flops", k.matrix, "a dense peak for the dtype");
  if (k.gpu)
    set_or_none(out, "matrix_vector_ratio", k.matrix / k.vector_boost,
                "a dense peak or the vector FLOP/s");
  else
    out.none("matrix_vector_ratio", gpu_only);
  set_or_none(out, "clock", k.clock, "a clock");
  set_or_none(out, "flops_per_unit_cycle", k.matrix / k.matrix_units / k.clock,
              "a peak, matrix units or a clock");
  set_or_none(out, "fast_memory", k.fast, k.gpu ? "smem_per_sm" : "vmem_capacity");
  set_or_none(out, "register_memory", k.registers,
              k.gpu ? "registers_per_sm" : "vreg_capacity_per_core");
  set_or_none(out, "on_chip_memory", k.fast > 0 && k.registers > 0 ? k.fast + k.registers : 0,
              "on-chip memory or registers");
  if (k.gpu)
    set_or_none(out, "resident_warps", k.warps, "registers_per_sm");
  else
    out.none("resident_warps", gpu_only);
  if (out.explain()) out.steps(steps(c, k, dtype, regs));
  return std::nullopt;
}

}  // namespace

Calculator gpu_chip_calculator() { return {schema(), compute}; }

}  // namespace scalebook
