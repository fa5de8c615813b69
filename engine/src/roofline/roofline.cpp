#include "scalebook/roofline/roofline.h"

#include <algorithm>

#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook {
namespace {

InputSpec memory_input() {
  InputSpec spec{"memory", InputKind::choice, "", "where the bytes come from: HBM or VMEM",
                 Value::of("hbm")};
  spec.choices = {"hbm", "vmem"};
  return labelled(spec, "Memory", InputGroup::advanced, {"HBM", "VMEM"});
}

// VMEM feeds the MXUs at a multiple of HBM's bandwidth (the book's estimate, in the catalog).
Result<double> memory_bandwidth(const ResolvedInputs& in, const ChipNumbers& c) {
  if (in.text("memory") != "vmem") return c.hbm_bandwidth;
  double ratio = c.chip->vmem_bandwidth_vs_hbm;
  if (ratio <= 0) {
    return Error{ErrorCode::unsupported, "memory",
                 c.chip->id + " has no vmem_bandwidth_vs_hbm in the catalog; use memory=hbm with " +
                     "hbm_bandwidth set to the bandwidth you mean"};
  }
  return c.hbm_bandwidth * ratio;
}

Schema roofline_schema() {
  Schema s{"roofline", "time bounds of one op from its FLOPs and the bytes it moves", {}, {}};
  s.inputs = {
      labelled({"flops", InputKind::number, "FLOP", "floating-point operations of the op",
                Value::of(1e12), 0, false, 1e30},
               "FLOPs"),
      labelled({"bytes", InputKind::number, "B", "bytes moved between HBM and the cores",
                Value::of(1e9), 0, true, 1e30},
               "HBM bytes"),
      labelled({"comm_bytes", InputKind::number, "B", "bytes sent to another chip (ICI or NVLink)",
                Value::of(0.0), 0, false, 1e30},
               "Chip-to-chip bytes"),
      chip_input(),
      dtype_input("dtype", "Compute dtype", "number format the math runs in", Value::of("bf16")),
      memory_input(),
  };
  for (InputSpec& spec : chip_override_inputs(true)) s.inputs.push_back(spec);
  s.outputs = {
      {"t_compute", "s", "time at the chip's peak FLOP/s", false, "Compute time"},
      {"t_memory", "s", "time to move the bytes from memory", false, "Memory time"},
      {"t_comm", "s", "time to send the chip-to-chip bytes", false, "Communication time"},
      {"t_lower", "s", "lower bound: everything overlaps (the max)", false, "Lower bound time"},
      {"t_upper", "s", "upper bound: nothing overlaps (the sum)", false, "Upper bound time"},
      {"intensity", "FLOP/B", "FLOPs per HBM byte of the op", false, "Arithmetic intensity"},
      {"critical_intensity", "FLOP/B", "FLOPs per HBM byte of the chip", false,
       "Critical intensity"},
      {"comm_intensity", "FLOP/B", "FLOPs per chip-to-chip byte of the op; none without them",
       false, "Communication intensity"},
      {"critical_comm_intensity", "FLOP/B", "the chip's FLOP/s over its chip-to-chip bandwidth",
       false, "Critical communication intensity"},
      {"bound", "", "which time is largest: compute, memory or communication", true, "Bound"},
      {"peak_flops", "FLOP/s", "peak FLOP/s used", false, "Peak FLOP/s"},
      {"hbm_bandwidth", "B/s", "the chip's HBM bandwidth", false, "HBM bandwidth"},
      {"memory_bandwidth", "B/s", "bandwidth of the memory the bytes come from", false,
       "Memory bandwidth"},
      {"comm_bandwidth", "B/s", "chip-to-chip bandwidth used", false, "Chip-to-chip bandwidth"},
      {"achieved_flops", "FLOP/s", "FLOPs divided by the lower-bound time", false,
       "Achieved FLOP/s"},
  };
  return s;
}

const char* bound_of(double t_compute, double t_memory, double t_comm) {
  if (t_compute >= t_memory && t_compute >= t_comm) return "compute";
  return t_memory >= t_comm ? "memory" : "communication";
}

std::optional<Error> compute_roofline(const ResolvedInputs& in, ResultBuilder& out) {
  Dtype dtype = *parse_dtype(in.text("dtype"));
  Result<ChipNumbers> hw = resolve_chip(in, dtype);
  if (!hw.ok()) return hw.error();
  const ChipNumbers& c = hw.value();
  double flops = in.number("flops");
  double bytes = in.number("bytes");
  double comm_bytes = in.number("comm_bytes");

  double t_compute = flops / c.peak_flops;
  Result<double> memory = memory_bandwidth(in, c);
  if (!memory.ok()) return memory.error();
  double bandwidth = memory.value();
  double t_memory = bytes / bandwidth;
  double t_comm = comm_bytes / c.comm_bandwidth;
  double t_lower = std::max({t_compute, t_memory, t_comm});
  double t_upper = t_compute + t_memory + t_comm;
  double intensity = flops / bytes;
  double critical = c.peak_flops / bandwidth;
  double critical_comm = c.peak_flops / c.comm_bandwidth;
  const char* bound = bound_of(t_compute, t_memory, t_comm);

  if (in.explain()) {
    out.steps({
        time_step("Compute time", "math", flops, "FLOP", c.peak_flops, "FLOP/s", "t_compute", {}),
        time_step("Memory time", "mem", bytes, "B", bandwidth, "B/s", "t_memory", {}),
        time_step("Communication time", "comms", comm_bytes, "B", c.comm_bandwidth, "B/s", "t_comm",
                  {}),
        {"Lower bound",
         "T_\\text{lower} = \\max(T_\\text{math}, T_\\text{mem}, T_\\text{comms}) = " +
             latex_quantity(t_lower, "s"),
         t_lower,
         "s",
         "t_lower",
         {"t_compute", "t_memory", "t_comm"}},
        {"Upper bound",
         "T_\\text{upper} = T_\\text{math} + T_\\text{mem} + T_\\text{comms} = " +
             latex_quantity(t_upper, "s"),
         t_upper,
         "s",
         "t_upper",
         {"t_compute", "t_memory", "t_comm"}},
        intensity_step(flops, bytes, {}),
        critical_intensity_step(in.text("memory") == "vmem"
                                    ? "Critical intensity of the chip, reading from VMEM"
                                    : "Critical intensity of the chip",
                                c.peak_flops, bandwidth),
        {"Critical intensity against the chip-to-chip link",
         "I_\\text{crit,link} = \\frac{" + latex_quantity(c.peak_flops, "FLOP/s") + "}{" +
             latex_quantity(c.comm_bandwidth, "B/s") +
             "} = " + latex_quantity(critical_comm, "FLOP/B"),
         critical_comm,
         "FLOP/B",
         "critical_comm_intensity",
         {}},
    });
  }

  out.set({
      {"t_compute", Value::of(t_compute)},
      {"t_memory", Value::of(t_memory)},
      {"t_comm", Value::of(t_comm)},
      {"t_lower", Value::of(t_lower)},
      {"t_upper", Value::of(t_upper)},
      {"intensity", Value::of(intensity)},
      {"critical_intensity", Value::of(critical)},
  });
  // Its reason as a literal: the numbers-only path allocates nothing.
  if (comm_bytes > 0)
    out.set("comm_intensity", flops / comm_bytes);
  else
    out.none("comm_intensity", "no communication: comm_bytes is 0");
  out.set({
      {"critical_comm_intensity", Value::of(critical_comm)},
      {"bound", Value::of(bound)},
      {"peak_flops", Value::of(c.peak_flops)},
      {"hbm_bandwidth", Value::of(c.hbm_bandwidth)},
      {"memory_bandwidth", Value::of(bandwidth)},
      {"comm_bandwidth", Value::of(c.comm_bandwidth)},
      {"achieved_flops", Value::of(flops / t_lower)},
  });
  return std::nullopt;
}

}  // namespace

Calculator roofline_calculator() { return {roofline_schema(), compute_roofline}; }

}  // namespace scalebook
