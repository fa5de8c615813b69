#include "scalebook/core/json.h"

#include "scalebook/core/registry.h"

namespace scalebook {

std::string dump(const Json& json, int indent) {
  // Replace, not throw: a user's text echoed in a message may hold invalid UTF-8, and an
  // exception would abort the WASM module.
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Json to_json(const Value& value) {
  if (value.is_number()) return value.number;
  if (value.is_text()) return value.text;
  return nullptr;
}

// Outputs and a list's columns alike: name, type, unit, description.
Json to_json(const std::vector<OutputSpec>& specs) {
  Json array = Json::array();
  for (const OutputSpec& o : specs) {
    array.push_back({{"name", o.name},
                     {"type", o.is_text ? "text" : "number"},
                     {"unit", o.unit},
                     {"description", o.description},
                     {"label", o.label}});
  }
  return array;
}

Json to_json(const Schema& schema) {
  Json inputs = Json::array();
  for (const InputSpec& in : schema.inputs) {
    Json j = {{"name", in.name},
              {"type", to_string(in.kind)},
              {"unit", in.unit},
              {"description", in.description},
              {"default", to_json(in.default_value)},
              {"label", in.label},
              {"group", to_string(in.group)}};
    if (!in.help.empty()) j["help"] = in.help;
    if (!in.aliases.empty()) j["aliases"] = in.aliases;
    if (in.preset) j["preset"] = in.preset->noun;
    if (in.kind == InputKind::choice) {
      j["choices"] = in.choices;
      if (!in.choice_labels.empty()) j["choice_labels"] = in.choice_labels;
    } else if (in.kind == InputKind::text) {
      j["max_length"] = kMaxTextLength;
    } else {
      j["min"] = in.min;
      j["min_exclusive"] = in.min_exclusive;
      j["max"] = in.max;
    }
    inputs.push_back(j);
  }
  Json outputs = to_json(schema.outputs);
  Json tables = Json::array();
  for (const TableSpec& t : schema.tables) {
    tables.push_back(
        {{"name", t.name}, {"description", t.description}, {"columns", to_json(t.columns)}});
  }
  Json j = {{"name", schema.name}, {"description", schema.description},
            {"inputs", inputs},    {"chip_overrides", takes_chip_overrides(schema)},
            {"outputs", outputs},  {"tables", tables}};
  j["dimensions"] = schema.dimensions.empty() ? Json(nullptr) : Json(schema.dimensions);
  if (schema.long_running) j["long_running"] = true;
  return j;
}

Json to_json(const Calculation& calc, bool explain) {
  return Json::parse(calculation_text(calc, explain));
}

Json to_json(const Error& error) {
  Json e = {{"code", to_string(error.code)}, {"field", error.field}, {"message", error.message}};
  if (error.position >= 0) e["position"] = error.position;
  return {{"error", e}};
}

}  // namespace scalebook
