#pragma once
// The inputs every hardware-facing calculator shares: a chip from the catalog, a dtype,
// and per-call overrides of the chip's numbers (a reader's own chip).
#include <string>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/core/schema.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook {

struct ChipNumbers {
  const Chip* chip = nullptr;
  double peak_flops = 0;      // FLOP/s for the compute dtype
  double hbm_bandwidth = 0;   // B/s
  double comm_bandwidth = 0;  // B/s
};

// The chip preset: any catalog chip, any of whose numeric fields a caller may override.
const PresetKind& chip_preset();
InputSpec chip_input();
// The chosen chip with the caller's overrides applied; null for a calculator without one.
const Chip* chip_of(const ResolvedInputs& inputs);
// A choice of dtype_names(); `label` is what a form calls it ("Weights dtype").
InputSpec dtype_input(const char* name, const char* label, const char* description, Value fallback);
// peak_flops, hbm_bandwidth and, with `with_comm`, comm_bandwidth.
std::vector<InputSpec> chip_override_inputs(bool with_comm);

// The chip's numbers with overrides applied; an error when the chip has no peak for
// `compute_dtype` and none was given, or (for a calculator with a comm_bytes input) no
// comm_bandwidth.
Result<ChipNumbers> resolve_chip(const ResolvedInputs& inputs, Dtype compute_dtype);

// Worked-solution steps every roofline-style calculator shows the same way.
Step intensity_step(double flops, double bytes, std::vector<std::string> depends);
// "T_symbol = amount / rate = time": compute, memory and link times alike.
Step time_step(const std::string& label, const std::string& symbol, double amount,
               const std::string& amount_unit, double rate, const std::string& rate_unit,
               const std::string& output, std::vector<std::string> depends);
Step critical_intensity_step(const std::string& label, double peak_flops, double hbm_bandwidth);

}  // namespace scalebook
