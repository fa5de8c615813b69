// The chip tables are written as ChipDefs and turned into Chips by one function
// (catalog_data::make_chip), which lists every field again: a field a table sets but that
// function forgot would reach no chip, and this fails.
#include <string>

#include "helpers.h"
#include "scalebook/hardware/catalog.h"

using namespace scalebook;

TEST_CASE("every catalog field beyond the peaks has a value on some chip", "[catalog]") {
  const std::string peak = "peak_flops_";
  for (const ChipFieldSpec& spec : chip_field_specs()) {
    if (spec.name.compare(0, peak.size(), peak) == 0 && spec.name != "peak_flops_fp4") continue;
    bool some = false;
    for (const Chip& chip : chips()) {
      for (const ChipField& field : chip_fields(chip))
        if (field.name == spec.name && !field.value.is_none()) some = true;
    }
    INFO(spec.name);
    CHECK(some);
  }
}
