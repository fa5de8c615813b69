#pragma once
// A catalog model as JSON, for the CLI and the WASM API alike (see core/json.h).
#include "scalebook/core/json.h"
#include "scalebook/transformer/models.h"

namespace scalebook {

// id, name, parameter counts, notes, and every configuration field.
Json to_json(const Model& model);

}  // namespace scalebook
