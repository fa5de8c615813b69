#include "scalebook/hardware/chip_calc.h"

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook {
namespace {

Schema chip_schema() {
  Schema s{"chip", "every number the catalog holds for one chip, with its source", {}, {}};
  s.inputs = {chip_input()};
  for (const ChipFieldSpec& spec : chip_field_specs()) {
    std::string description = spec.description;
    if (!spec.applies.empty()) description += " (" + spec.applies + " only; absent on the others)";
    s.outputs.push_back(
        {spec.name, spec.is_text ? "" : spec.unit, description, spec.is_text, spec.label});
  }
  return s;
}

SB_EXPLAIN_ONLY std::string latex_name(std::string name) {
  for (size_t i = name.find('_'); i != std::string::npos; i = name.find('_', i + 2)) {
    name.insert(i, "\\");
  }
  return "\\text{" + name + "}";
}

std::optional<Error> compute_chip(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip* chip = chip_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  if (!out.explain()) {  // the numbers only: no notes, no copies
    const std::vector<ChipFieldSpec>& specs = chip_field_specs();
    for (std::size_t i = 0; i < specs.size(); ++i) {
      ChipFieldRef ref = chip_field_ref(*chip, i);
      if (ref.text && !ref.text->empty())
        out.set_text(specs[i].name, *ref.text);
      else if (!ref.text && ref.number != 0)
        out.set(specs[i].name, ref.number);
      else
        out.none(specs[i].name, chip_field_absence(*chip, specs[i]));
    }
    return std::nullopt;
  }
  const std::vector<ChipFieldSpec>& specs = chip_field_specs();
  std::vector<ChipField> fields = chip_fields(*chip);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const ChipField& field = fields[i];
    if (field.value.is_none()) {
      out.none(field.name, chip_field_absence(*chip, specs[i]));
      continue;
    }
    out.set(field.name, field.value);
    if (field.value.is_number()) {
      out.step({field.description + " (" + field.note + ")",
                latex_name(field.name) + " = " + latex_quantity(field.value.number, field.unit),
                field.value.number,
                field.unit,
                field.name,
                {}});
    }
  }
  return std::nullopt;
}

}  // namespace

Calculator chip_calculator() { return {chip_schema(), compute_chip}; }

}  // namespace scalebook
