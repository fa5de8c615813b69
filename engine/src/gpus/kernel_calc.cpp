// The `gpu-kernel` calculator: a vector add or a matmul on one GPU, its FLOPs and bytes, the
// roofline time on the Tensor Cores or the CUDA cores, and how much of the GPU's SMs its
// output tiles fill. The model is gpus/kernel.h's.
#include "scalebook/gpus/kernel_calc.h"

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

InputSpec count(const char* name, const char* unit, const char* description, double fallback,
                const char* label, InputGroup group = InputGroup::main) {
  return labelled({name, InputKind::count, unit, description, Value::of(fallback), 1, false, 1e15},
                  label, group);
}

std::vector<InputSpec> inputs() {
  InputSpec op{"op", InputKind::choice, "", "the kernel: a vector add or a matmul",
               Value::of("matmul")};
  op.choices = {"vector-add", "matmul"};
  op = labelled(std::move(op), "Operation", InputGroup::main, {"Vector add", "Matmul"});
  InputSpec chip = chip_input();
  chip.default_value = Value::of("h100");
  chip.description = "a GPU from the hardware catalog";
  chip.label = "GPU";
  InputSpec unit{"unit", InputKind::choice, "",
                 "which cores do the math (default: Tensor Cores for a matmul, CUDA cores for a "
                 "vector add)",
                 Value::none()};
  unit.choices = {"tensor-cores", "cuda-cores"};
  unit = labelled(std::move(unit), "Cores", InputGroup::main, {"Tensor Cores", "CUDA cores"});
  InputSpec memory{"memory", InputKind::choice, "",
                   "where the operands stream from: HBM, the L2 cache, or SMEM (a tile staged in "
                   "shared memory)",
                   Value::of("hbm")};
  memory.choices = {"hbm", "l2", "smem"};
  memory = labelled(std::move(memory), "Operands in", InputGroup::main, {"HBM", "L2", "SMEM"});
  return {
      op,
      count("N", "elements", "vector length (vector add)", 65536, "N"),
      count("B", "tokens", "matmul rows: [B, D] x [D, F]", 64, "B"),
      count("D", "", "matmul contracting dimension", 4096, "D"),
      count("F", "", "matmul output columns", 8192, "F"),
      dtype_input("dtype", "Dtype", "number format of inputs, outputs and math", Value::of("bf16")),
      chip,
      unit,
      memory,
      count("tile", "", "output tile side: a block computes tile x tile outputs", 128, "Tile side",
            InputGroup::advanced)};
}

const Schema& schema() {
  static const Schema s{
      "gpu-kernel",
      "chapter 12's GPU kernel roofline: a vector add or a matmul on the Tensor Cores or the "
      "CUDA cores against HBM, L2 or SMEM, and the SM occupancy its output tiles get",
      inputs(),
      {num("flops", "FLOP", "the kernel's FLOPs: N, or 2BDF", "FLOPs"),
       num("bytes", "B", "bytes read and written", "Bytes"),
       num("intensity", "FLOP/B", "FLOPs per byte", "Arithmetic intensity"),
       num("peak_flops", "FLOP/s", "the chosen cores' FLOP/s for the dtype", "Peak FLOP/s"),
       num("hbm_bandwidth", "B/s", "the GPU's HBM bandwidth", "HBM bandwidth"),
       num("memory_bandwidth", "B/s", "the bandwidth of the memory the operands stream from",
           "Memory bandwidth"),
       num("critical_intensity", "FLOP/B", "peak / memory bandwidth: compute-bound above it",
           "Critical intensity"),
       num("t_math", "s", "FLOPs / peak", "T math"),
       num("t_comms", "s", "bytes / memory bandwidth", "T comms"),
       num("time", "s", "the roofline: max(T math, T comms)", "Roofline time"),
       text("bound", "compute or memory: the larger time", "Bound"),
       num("tiles", "tiles", "output tiles (vector: blocks of tile^2 elements)", "Tiles"),
       num("sms", "SMs", "the GPU's SMs", "SMs"),
       num("waves", "waves", "rounds of one tile per SM", "Waves"),
       num("occupancy", "", "tiles / (waves x SMs): the SMs' time the tiles fill",
           "SM occupancy")}};
  return s;
}

SB_EXPLAIN_ONLY std::vector<Step> steps(const Chip& gpu, const KernelInput& k,
                                        const KernelCost& c) {
  std::vector<Step> st;
  const double b = bytes_per_element(k.dtype);
  const std::string dt = to_string(k.dtype);
  if (k.op == KernelOp::vector_add) {
    st.push_back(
        {"FLOPs: one add per element", "N = " + latex_number(k.N), c.flops, "FLOP", "flops", {}});
    st.push_back(
        {"Bytes: read two " + dt + " vectors, write one",
         "3 N \\times " + latex_number(b) + "\\ \\text{B} = " + latex_quantity(c.bytes, "B"),
         c.bytes,
         "B",
         "bytes",
         {}});
  } else {
    st.push_back({"FLOPs: a multiply and an add per B x D x F",
                  "2 B D F = 2 \\times " + latex_number(k.B) + " \\times " + latex_number(k.D) +
                      " \\times " + latex_number(k.F) + " = " + latex_quantity(c.flops, "FLOP"),
                  c.flops,
                  "FLOP",
                  "flops",
                  {}});
    st.push_back({"Bytes: read x[B, D] and W[D, F], write y[B, F] in " + dt,
                  latex_number(b) + " (BD + DF + BF) = " + latex_quantity(c.bytes, "B"),
                  c.bytes,
                  "B",
                  "bytes",
                  {}});
  }
  st.push_back(intensity_step(c.flops, c.bytes, {"flops", "bytes"}));
  if (k.unit == KernelUnit::tensor_cores) {
    st.push_back({gpu.name + ": dense " + dt + " Tensor Core peak, from the catalog",
                  "C = " + latex_quantity(c.peak_flops, "FLOP/s"),
                  c.peak_flops,
                  "FLOP/s",
                  "peak_flops",
                  {}});
  } else {
    st.push_back({gpu.name + ": CUDA cores x boost clock, one operation per lane a cycle (an FMA "
                             "counts once, where spec sheets count it twice)",
                  "C = " + latex_number(gpu.sms_per_chip) + " \\times " +
                      latex_number(gpu.cuda_cores_per_sm) + " \\times " +
                      latex_quantity(gpu.boost_clock_hz, "Hz") + " = " +
                      latex_quantity(c.peak_flops, "FLOP/s"),
                  c.peak_flops,
                  "FLOP/s",
                  "peak_flops",
                  {}});
  }
  const char* memory = k.memory == KernelMemory::smem ? "SMEM"
                       : k.memory == KernelMemory::l2 ? "L2"
                                                      : "HBM";
  if (k.memory == KernelMemory::smem) {
    st.push_back({"SMEM bandwidth: SMs x bytes an SM reads a cycle x boost clock",
                  "W = " + latex_number(gpu.sms_per_chip) + " \\times " +
                      latex_quantity(gpu.smem_bytes_per_cycle, "B") + " \\times " +
                      latex_quantity(gpu.boost_clock_hz, "Hz") + " = " +
                      latex_quantity(c.memory_bandwidth, "B/s"),
                  c.memory_bandwidth,
                  "B/s",
                  "memory_bandwidth",
                  {}});
  } else {
    st.push_back({gpu.name + ": " + memory +
                      (k.memory == KernelMemory::l2 ? " bandwidth, as measured (catalog)"
                                                    : " bandwidth, from the catalog"),
                  "W = " + latex_quantity(c.memory_bandwidth, "B/s"),
                  c.memory_bandwidth,
                  "B/s",
                  "memory_bandwidth",
                  {}});
  }
  st.push_back(
      critical_intensity_step(std::string("Critical intensity: peak over ") + memory + " bandwidth",
                              c.peak_flops, c.memory_bandwidth));
  st.push_back(time_step("Math time", "math", c.flops, "FLOP", c.peak_flops, "FLOP/s", "t_math",
                         {"flops", "peak_flops"}));
  st.push_back(time_step(std::string(memory) + " time", "comms", c.bytes, "B", c.memory_bandwidth,
                         "B/s", "t_comms", {"bytes", "memory_bandwidth"}));
  st.push_back({std::string("Roofline: the larger, so ") +
                    (c.compute_bound ? "compute-bound" : "memory-bound"),
                "T = \\max(T_\\text{math}, T_\\text{comms}) = " + latex_quantity(c.time, "s"),
                c.time,
                "s",
                "time",
                {"t_math", "t_comms"}});
  st.push_back({"Occupancy: " + format_number(c.tiles) + " tiles over " + format_number(c.sms) +
                    " SMs in " + format_number(c.waves) + " waves",
                "\\frac{" + latex_number(c.tiles) + "}{" + latex_number(c.waves) + " \\times " +
                    latex_number(c.sms) + "} = " + latex_number(c.occupancy),
                c.occupancy,
                "",
                "occupancy",
                {}});
  return st;
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip* gpu = chip_of(in);
  if (is_tpu(*gpu)) {
    return Error{ErrorCode::invalid_argument, "chip",
                 "chip must be a GPU: " + gpu->id + " is a TPU, which has no SMs or CUDA cores"};
  }
  KernelInput k;
  k.op = in.text("op") == "vector-add" ? KernelOp::vector_add : KernelOp::matmul;
  k.N = in.number("N");
  k.B = in.number("B");
  k.D = in.number("D");
  k.F = in.number("F");
  k.dtype = parse_dtype(in.text("dtype")).value_or(Dtype::bf16);
  const bool vector = k.op == KernelOp::vector_add;
  const std::string unit = in.has("unit") ? in.text("unit")
                           : vector       ? "cuda-cores"
                                          : "tensor-cores";
  k.unit = unit == "cuda-cores" ? KernelUnit::cuda_cores : KernelUnit::tensor_cores;
  k.tile = in.number("tile");
  const std::string memory = in.text("memory");
  k.memory = memory == "smem" ? KernelMemory::smem
             : memory == "l2" ? KernelMemory::l2
                              : KernelMemory::hbm;
  Result<KernelCost> cost = gpu_kernel(*gpu, k);
  if (!cost.ok()) return cost.error();
  const KernelCost& c = cost.value();
  out.set("flops", c.flops);
  out.set("bytes", c.bytes);
  out.set("intensity", c.intensity);
  out.set("peak_flops", c.peak_flops);
  out.set("hbm_bandwidth", c.hbm_bandwidth);
  out.set("memory_bandwidth", c.memory_bandwidth);
  out.set("critical_intensity", c.critical_intensity);
  out.set("t_math", c.t_math);
  out.set("t_comms", c.t_comms);
  out.set("time", c.time);
  out.set_text("bound", c.compute_bound ? "compute" : "memory");
  out.set("tiles", c.tiles);
  out.set("sms", c.sms);
  out.set("waves", c.waves);
  out.set("occupancy", c.occupancy);
  if (out.explain()) out.steps(steps(*gpu, k, c));
  return std::nullopt;
}

}  // namespace

Calculator gpu_kernel_calculator() { return {schema(), compute}; }

}  // namespace scalebook
