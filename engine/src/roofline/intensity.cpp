#include "scalebook/roofline/intensity.h"

#include <algorithm>

#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook {
namespace {

Schema intensity_schema() {
  Schema s{
      "intensity", "arithmetic intensity of an elementwise op, a dot product or a matmul", {}, {}};
  InputSpec op{"op", InputKind::choice, "", "the operation", Value::of("matmul")};
  op.choices = {"elementwise", "dot", "matmul", "batched-matmul"};
  op = labelled(op, "Operation", InputGroup::main,
                {"Elementwise", "Dot product", "Matmul", "Batched matmul"});
  s.inputs = {
      op,
      labelled({"N", InputKind::count, "", "vector length (elementwise, dot)", Value::of(1e6), 1,
                false, 1e12},
               "Vector length N"),
      labelled(
          {"B", InputKind::count, "tokens", "batch (matmuls)", Value::of(256.0), 1, false, 1e9},
          "Token batch B"),
      labelled({"D", InputKind::count, "", "contracting dimension (matmuls)", Value::of(8192.0), 1,
                false, 1e9},
               "Contracting dimension D"),
      labelled({"F", InputKind::count, "", "output dimension (matmuls)", Value::of(8192.0), 1,
                false, 1e9},
               "Output dimension F"),
      chip_input(),
      dtype_input("dtype", "Dtype", "number format of every operand", Value::of("bf16")),
      dtype_input("dtype_weights", "Weights dtype",
                  "format of the weights or second operand (default: dtype)", Value::none()),
      dtype_input("dtype_activations", "Activations dtype",
                  "format of the activations and result (default: dtype)", Value::none()),
  };
  for (InputSpec& spec : chip_override_inputs(false)) s.inputs.push_back(spec);
  s.outputs = {
      {"flops", "FLOP", "floating-point operations", false, "FLOPs"},
      {"bytes", "B", "bytes read and written", false, "Bytes"},
      {"intensity", "FLOP/B", "FLOPs per byte", false, "Arithmetic intensity"},
      {"intensity_limit", "FLOP/B", "the intensity as the sizes grow (B fixed for a matmul)", false,
       "Intensity limit"},
      {"critical_intensity", "FLOP/B", "the chip's peak FLOP/s over its HBM bandwidth", false,
       "Critical intensity"},
      {"bound", "", "compute or memory", true, "Bound"},
      {"t_lower", "s", "the larger of compute and memory time", false, "Lower bound time"},
  };
  return s;
}

struct Counts {
  double flops, bytes, limit;
  std::string flops_latex, bytes_latex, limit_latex;
};

// a: bytes per activation (and output) element; w: per weight (second operand) element.
Counts count(const std::string& op, double N, double B, double D, double F, double a, double w) {
  if (op == "elementwise") {  // z = x + y: one FLOP per element, read two, write one
    return {N,
            (a + w + a) * N,
            1 / (a + w + a),
            "N = " + latex_number(N),
            "(" + latex_number(a + w + a) + ")N",
            "\\frac{1}{" + latex_number(a + w + a) + "}"};
  }
  if (op == "dot") {  // N multiplies and N - 1 adds; read both vectors, write one scalar
    return {2 * N - 1,
            (a + w) * N + a,
            2 / (a + w),
            "2N - 1",
            latex_number(a + w) + "N + " + latex_number(a),
            "\\frac{2}{" + latex_number(a + w) + "}"};
  }
  if (op == "batched-matmul") {  // a D x F matrix per batch element: no weight reuse
    return {2 * B * D * F,
            a * B * D + w * B * D * F + a * B * F,
            2 / w,
            "2BDF",
            latex_number(a) + "BD + " + latex_number(w) + "BDF + " + latex_number(a) + "BF",
            "\\frac{2}{" + latex_number(w) + "}"};
  }
  return {2 * B * D * F,
          a * B * D + w * D * F + a * B * F,
          2 * B / w,
          "2BDF",
          latex_number(a) + "BD + " + latex_number(w) + "DF + " + latex_number(a) + "BF",
          "\\frac{2B}{" + latex_number(w) + "}"};
}

std::optional<Error> compute_intensity(const ResolvedInputs& in, ResultBuilder& out) {
  Dtype base = *parse_dtype(in.text("dtype"));
  Dtype acts = in.has("dtype_activations") ? *parse_dtype(in.text("dtype_activations")) : base;
  Dtype weights = in.has("dtype_weights") ? *parse_dtype(in.text("dtype_weights")) : base;
  double a = bytes_per_element(acts), w = bytes_per_element(weights);
  Dtype compute = w > a ? weights : acts;
  Result<ChipNumbers> hw = resolve_chip(in, compute);
  if (!hw.ok()) return hw.error();
  const std::string& op = in.text("op");
  Counts c = count(op, in.number("N"), in.number("B"), in.number("D"), in.number("F"), a, w);
  double intensity = c.flops / c.bytes;
  double critical = hw.value().peak_flops / hw.value().hbm_bandwidth;
  double t_compute = c.flops / hw.value().peak_flops;
  double t_memory = c.bytes / hw.value().hbm_bandwidth;

  if (in.explain()) {
    out.steps({
        {"FLOPs of the " + op,
         c.flops_latex + " = " + latex_quantity(c.flops, "FLOP"),
         c.flops,
         "FLOP",
         "flops",
         {}},
        {"Bytes moved",
         c.bytes_latex + " = " + latex_quantity(c.bytes, "B"),
         c.bytes,
         "B",
         "bytes",
         {}},
        intensity_step(c.flops, c.bytes, {"flops", "bytes"}),
        {"Intensity as the sizes grow",
         "I \\to " + c.limit_latex + " = " + latex_quantity(c.limit, "FLOP/B"),
         c.limit,
         "FLOP/B",
         "intensity_limit",
         {}},
        critical_intensity_step("Critical intensity of the chip", hw.value().peak_flops,
                                hw.value().hbm_bandwidth),
    });
  }

  out.set({
      {"flops", Value::of(c.flops)},
      {"bytes", Value::of(c.bytes)},
      {"intensity", Value::of(intensity)},
      {"intensity_limit", Value::of(c.limit)},
      {"critical_intensity", Value::of(critical)},
      {"bound", Value::of(t_compute >= t_memory ? "compute" : "memory")},
      {"t_lower", Value::of(std::max(t_compute, t_memory))},
  });
  return std::nullopt;
}

}  // namespace

Calculator intensity_calculator() { return {intensity_schema(), compute_intensity}; }

}  // namespace scalebook
