#include "scalebook/roofline/matmul.h"

#include <algorithm>

#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook {
namespace {

Schema matmul_schema() {
  Schema s{"matmul", "one matmul X[B,D] . W[D,F] -> Y[B,F] on one chip", {}, {}};
  s.inputs = {
      labelled({"B", InputKind::count, "tokens", "rows of X: the token batch", Value::of(256.0), 1,
                false, 1e9},
               "Token batch B"),
      labelled(
          {"D", InputKind::count, "", "contracting dimension", Value::of(8192.0), 1, false, 1e9},
          "Contracting dimension D"),
      labelled({"F", InputKind::count, "", "columns of W", Value::of(8192.0), 1, false, 1e9},
               "Output dimension F"),
      chip_input(),
      dtype_input("dtype", "Dtype", "number format of X, W and Y", Value::of("bf16")),
      dtype_input("dtype_weights", "Weights dtype", "number format of W (default: dtype)",
                  Value::none()),
      dtype_input("dtype_activations", "Activations dtype",
                  "number format of X and Y (default: dtype)", Value::none()),
  };
  for (InputSpec& spec : chip_override_inputs(false)) s.inputs.push_back(spec);
  s.outputs = {
      {"flops", "FLOP", "2BDF multiply-adds counted as two FLOPs", false, "FLOPs"},
      {"bytes", "B", "HBM bytes: read X and W, write Y", false, "HBM bytes"},
      {"intensity", "FLOP/B", "FLOPs per HBM byte", false, "Arithmetic intensity"},
      {"critical_intensity", "FLOP/B", "the chip's peak FLOP/s over its HBM bandwidth", false,
       "Critical intensity"},
      {"critical_batch", "tokens", "B above which it is compute-bound, for B much less than D, F",
       false, "Critical batch"},
      {"critical_batch_exact", "tokens",
       "B above which it is compute-bound with the exact byte count; none if never", false,
       "Critical batch, exact"},
      {"t_compute", "s", "time at the chip's peak FLOP/s", false, "Compute time"},
      {"t_memory", "s", "time to move the bytes over HBM", false, "Memory time"},
      {"t_lower", "s", "lower bound: the max of the two", false, "Lower bound time"},
      {"t_upper", "s", "upper bound: the sum of the two", false, "Upper bound time"},
      {"bound", "", "compute or memory", true, "Bound"},
      {"peak_flops", "FLOP/s", "peak FLOP/s of the compute dtype", false, "Peak FLOP/s"},
      {"hbm_bandwidth", "B/s", "HBM bandwidth used", false, "HBM bandwidth"},
      {"achieved_flops", "FLOP/s", "FLOPs divided by the lower-bound time", false,
       "Achieved FLOP/s"},
  };
  return s;
}

// "2 " before a term, nothing for 1: "2 BD + DF".
std::string coefficient(double bytes) { return bytes == 1 ? "" : latex_number(bytes) + " "; }

struct Formats {
  Dtype activations;
  Dtype weights;
  Dtype compute;  // the wider of the two: int8 weights are upcast to bf16 activations
};

Formats formats_of(const ResolvedInputs& in) {
  Dtype base = *parse_dtype(in.text("dtype"));
  Formats f{base, base, base};
  if (in.has("dtype_activations")) f.activations = *parse_dtype(in.text("dtype_activations"));
  if (in.has("dtype_weights")) f.weights = *parse_dtype(in.text("dtype_weights"));
  f.compute =
      bytes_per_element(f.weights) > bytes_per_element(f.activations) ? f.weights : f.activations;
  return f;
}

std::optional<Error> compute_matmul(const ResolvedInputs& in, ResultBuilder& out) {
  Formats fmt = formats_of(in);
  Result<ChipNumbers> hw = resolve_chip(in, fmt.compute);
  if (!hw.ok()) return hw.error();
  const ChipNumbers& c = hw.value();
  double B = in.number("B"), D = in.number("D"), F = in.number("F");
  double a = bytes_per_element(fmt.activations), w = bytes_per_element(fmt.weights);

  double flops = 2 * B * D * F;
  double bytes = a * B * D + w * D * F + a * B * F;
  double intensity = flops / bytes;
  double critical = c.peak_flops / c.hbm_bandwidth;
  // For B << D, F the weights dominate the bytes: intensity ~ 2BDF / (w DF) = 2B / w.
  double critical_batch = critical * w / 2;
  // Exact: 2BDF / peak = (aBD + wDF + aBF) / hbm, solved for B.
  double slope = 2 * D * F / c.peak_flops - a * (D + F) / c.hbm_bandwidth;
  // slope <= 0: a token's activation bytes take as long over HBM as its FLOPs on the MXUs, so
  // every batch is memory-bound and there is no such B.
  Value exact = slope > 0 ? Value::of(w * D * F / c.hbm_bandwidth / slope)
                          : Value::absent(
                                "never compute-bound: each token's activation bytes take longer "
                                "to load than its FLOPs to compute, at any batch");
  double t_compute = flops / c.peak_flops;
  double t_memory = bytes / c.hbm_bandwidth;
  double t_lower = std::max(t_compute, t_memory);
  const char* bound = t_compute >= t_memory ? "compute" : "memory";

  if (out.explain()) {
    std::string sizes =
        "B = " + latex_number(B) + ",\\ D = " + latex_number(D) + ",\\ F = " + latex_number(F);
    out.steps({
        {"FLOPs",
         "2BDF = 2 \\cdot " + latex_number(B) + " \\cdot " + latex_number(D) + " \\cdot " +
             latex_number(F) + " = " + latex_quantity(flops, "FLOP"),
         flops,
         "FLOP",
         "flops",
         {}},
        {"HBM bytes (" + std::string(to_string(fmt.activations)) + " activations, " +
             to_string(fmt.weights) + " weights)",
         coefficient(a) + "BD + " + coefficient(w) + "DF + " + coefficient(a) +
             "BF \\text{ with } " + sizes + " = " + latex_quantity(bytes, "B"),
         bytes,
         "B",
         "bytes",
         {}},
        intensity_step(flops, bytes, {"flops", "bytes"}),
        critical_intensity_step(
            std::string("Critical intensity of the chip (") + to_string(fmt.compute) + ")",
            c.peak_flops, c.hbm_bandwidth),
        {"Critical batch (B much less than D, F)",
         "I \\approx \\frac{2BDF}{" + latex_number(w) + " DF} = \\frac{2B}{" + latex_number(w) +
             "} > I_\\text{crit} \\iff B > \\frac{" + latex_number(w) + " \\cdot " +
             latex_number(critical) + "}{2} = " + latex_quantity(critical_batch, "tokens"),
         critical_batch,
         "tokens",
         "critical_batch",
         {"critical_intensity"}},
        time_step("Compute time", "math", flops, "FLOP", c.peak_flops, "FLOP/s", "t_compute",
                  {"flops"}),
        time_step("Memory time", "mem", bytes, "B", c.hbm_bandwidth, "B/s", "t_memory", {"bytes"}),
    });
  }

  out.set({
      {"flops", Value::of(flops)},
      {"bytes", Value::of(bytes)},
      {"intensity", Value::of(intensity)},
      {"critical_intensity", Value::of(critical)},
      {"critical_batch", Value::of(critical_batch)},
      {"critical_batch_exact", exact},
      {"t_compute", Value::of(t_compute)},
      {"t_memory", Value::of(t_memory)},
      {"t_lower", Value::of(t_lower)},
      {"t_upper", Value::of(t_compute + t_memory)},
      {"bound", Value::of(bound)},
      {"peak_flops", Value::of(c.peak_flops)},
      {"hbm_bandwidth", Value::of(c.hbm_bandwidth)},
      {"achieved_flops", Value::of(flops / t_lower)},
  });
  return std::nullopt;
}

}  // namespace

Calculator matmul_calculator() { return {matmul_schema(), compute_matmul}; }

}  // namespace scalebook
