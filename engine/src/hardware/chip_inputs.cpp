#include "scalebook/hardware/chip_inputs.h"

#include <memory>

#include "scalebook/core/format.h"

namespace scalebook {

namespace {

const std::vector<PresetField>& chip_preset_fields() {
  static const std::vector<PresetField> fields = [] {
    std::vector<PresetField> list;
    for (const ChipFieldSpec& spec : chip_field_specs()) {
      if (!spec.is_text) list.push_back({spec.name, spec.unit, spec.whole});
    }
    return list;
  }();
  return fields;
}

const PresetField* find_chip_preset_field(std::string_view name) {
  for (const PresetField& field : chip_preset_fields())
    if (field.name == name) return &field;
  return nullptr;
}

Result<std::shared_ptr<const void>> resolve_chip_preset(
    const std::string& input, const std::string& id,
    const std::vector<std::pair<std::string, Value>>& overrides) {
  const Chip* found = find_chip(id);
  if (!found) return Error{ErrorCode::not_found, input, "unknown chip \"" + id + "\""};
  if (overrides.empty()) return std::shared_ptr<const void>(std::shared_ptr<void>(), found);
  auto own = std::make_shared<Chip>(*found);
  for (const auto& [name, value] : overrides) set_chip_field(*own, name, value.number);
  return std::shared_ptr<const void>(std::move(own));
}

}  // namespace

const PresetKind& chip_preset() {
  static const PresetKind kind{"chip", "any number field of a chip (scalebook chip ID)",
                               find_chip_preset_field, resolve_chip_preset};
  return kind;
}

InputSpec chip_input() {
  InputSpec spec{"chip", InputKind::choice, "", "accelerator from the hardware catalog",
                 Value::of(kDefaultChip)};
  spec.choices = chip_ids();
  spec.preset = &chip_preset();
  spec.label = "Chip";
  return spec;
}

const Chip* chip_of(const ResolvedInputs& inputs) {
  return static_cast<const Chip*>(inputs.preset("chip"));
}

InputSpec dtype_input(const char* name, const char* label, const char* description,
                      Value fallback) {
  InputSpec spec{name, InputKind::choice, "", description, std::move(fallback)};
  spec.choices = dtype_names();
  spec.label = label;
  return spec;
}

std::vector<InputSpec> chip_override_inputs(bool with_comm) {
  constexpr InputGroup kOverride = InputGroup::override;
  std::vector<InputSpec> specs = {
      labelled(
          {"peak_flops", InputKind::number, "FLOP/s",
           "override: the chip's peak FLOP/s for the compute dtype", Value::none(), 1, false, 1e21},
          "Peak FLOP/s", kOverride),
      labelled({"hbm_bandwidth", InputKind::number, "B/s", "override: the chip's HBM bandwidth",
                Value::none(), 1, false, 1e18},
               "HBM bandwidth", kOverride),
  };
  if (with_comm) {
    specs.push_back(labelled({"comm_bandwidth", InputKind::number, "B/s",
                              "override: chip-to-chip bandwidth to one peer, one direction",
                              Value::none(), 1, false, 1e18},
                             "Chip-to-chip bandwidth", kOverride));
  }
  return specs;
}

namespace {

// An override the caller gave; shared by calculators whose schema has it and those without.
bool given(const ResolvedInputs& inputs, const char* name) {
  return inputs.declares(name) && inputs.has(name);
}

}  // namespace

Result<ChipNumbers> resolve_chip(const ResolvedInputs& inputs, Dtype compute_dtype) {
  ChipNumbers numbers;
  numbers.chip = chip_of(inputs);
  if (!numbers.chip) {
    return Error{ErrorCode::not_found, "chip", "unknown chip \"" + inputs.text("chip") + "\""};
  }
  const Chip& chip = *numbers.chip;
  numbers.peak_flops =
      given(inputs, "peak_flops") ? inputs.number("peak_flops") : peak_flops(chip, compute_dtype);
  if (numbers.peak_flops <= 0) {
    return Error{ErrorCode::unsupported, "dtype",
                 chip.id + " has no " + to_string(compute_dtype) +
                     " peak in the catalog; give peak_flops to set one"};
  }
  numbers.hbm_bandwidth =
      given(inputs, "hbm_bandwidth") ? inputs.number("hbm_bandwidth") : chip.hbm_bandwidth;
  numbers.comm_bandwidth =
      given(inputs, "comm_bandwidth") ? inputs.number("comm_bandwidth") : chip.comm_bandwidth;
  // Only a calculator that moves bytes between chips (it has comm_bytes) needs the link.
  if (numbers.comm_bandwidth <= 0 && given(inputs, "comm_bytes")) {
    return Error{ErrorCode::unsupported, "comm_bandwidth",
                 chip.id + " has no comm_bandwidth in the catalog; give comm_bandwidth to set one"};
  }
  return numbers;
}

Step intensity_step(double flops, double bytes, std::vector<std::string> depends) {
  double intensity = flops / bytes;
  return {"Arithmetic intensity",
          "I = \\frac{" + latex_quantity(flops, "FLOP") + "}{" + latex_quantity(bytes, "B") +
              "} = " + latex_quantity(intensity, "FLOP/B"),
          intensity,
          "FLOP/B",
          "intensity",
          std::move(depends)};
}

Step time_step(const std::string& label, const std::string& symbol, double amount,
               const std::string& amount_unit, double rate, const std::string& rate_unit,
               const std::string& output, std::vector<std::string> depends) {
  double time = amount / rate;
  return {label,
          "T_\\text{" + symbol + "} = \\frac{" + latex_quantity(amount, amount_unit) + "}{" +
              latex_quantity(rate, rate_unit) + "} = " + latex_quantity(time, "s"),
          time,
          "s",
          output,
          std::move(depends)};
}

Step critical_intensity_step(const std::string& label, double peak_flops, double hbm_bandwidth) {
  double critical = peak_flops / hbm_bandwidth;
  return {label,
          "I_\\text{crit} = \\frac{" + latex_quantity(peak_flops, "FLOP/s") + "}{" +
              latex_quantity(hbm_bandwidth, "B/s") + "} = " + latex_quantity(critical, "FLOP/B"),
          critical,
          "FLOP/B",
          "critical_intensity",
          {}};
}

}  // namespace scalebook
