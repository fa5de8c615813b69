#pragma once
// Engine structs to JSON: the CLI's machine-readable face. The WASM binding marshals the
// same shapes to JS objects; tests/node checks that the two agree.
#include <nlohmann/json.hpp>

#include "scalebook/catalog.h"
#include "scalebook/models.h"
#include "scalebook/registry.h"

namespace scalebook::cli {

using Json = nlohmann::ordered_json;

Json to_json(const Value& value);
Json to_json(const std::vector<OutputSpec>& specs);
Json to_json(const Schema& schema);
Json to_json(const Table& table);
Json to_json(const Calculation& calc, bool explain);
Json to_json(const Chip& chip);
Json to_json(const Model& model);
Json to_json(const Error& error);

}  // namespace scalebook::cli
