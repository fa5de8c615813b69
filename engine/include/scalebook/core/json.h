#pragma once
// Engine structs as JSON: the one marshaller behind the CLI's JSON, the WASM API (which hands
// JS the text to parse) and the shared fixtures. Numbers print as the shortest text that reads
// back to the same double, so every face sees the same bits; a missing value is null, and a
// calculation's absent outputs are null with their reasons under "absent".
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scalebook/core/schema.h"
#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook {

using Json = nlohmann::ordered_json;

// Compact with indent -1; invalid UTF-8 in a string is replaced, never thrown.
std::string dump(const Json& json, int indent = -1);

Json to_json(const Value& value);
// Outputs and a list's columns alike: name, type, unit, description, label.
Json to_json(const std::vector<OutputSpec>& specs);
Json to_json(const Schema& schema);
// The outputs (and lists) keyed by name in schema order, then "absent" ({output: reason}) when
// an output has no value, then `steps` when `explain`: the
// text written directly (the WASM API's hot path), the same as dump(to_json(calc, explain)).
std::string calculation_text(const Calculation& calc, bool explain);
std::string steps_text(const std::vector<Step>& steps);
Json to_json(const Calculation& calc, bool explain);
// {"error": {"code", "field", "message"[, "position"]}}
Json to_json(const Error& error);

}  // namespace scalebook
