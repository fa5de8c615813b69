#pragma once
// A catalog model as JSON, for the CLI and the WASM API alike (see core/json.h).
#include "scalebook/core/json.h"
#include "scalebook/transformer/model_config.h"
#include "scalebook/transformer/models.h"

namespace scalebook {

// id, name, parameter counts, notes, and every configuration field.
Json to_json(const Model& model);

// A model read from a config.json: the model's JSON as above, plus `mapping` (per field: field,
// key or null for a default, value, note), `unmapped` (key, kind, reason) and `inputs` (the
// calculator inputs that give the model: model=custom and every field).
Json to_json(const ConfigModel& config);

}  // namespace scalebook
