#pragma once
// A catalog chip as JSON, for the CLI and the WASM API alike (see core/json.h).
#include "scalebook/core/json.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook {

// id, name, vendor, peak_flops by dtype, the headline numbers, notes, and every field.
Json to_json(const Chip& chip);

}  // namespace scalebook
