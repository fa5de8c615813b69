#include "json_out.h"

namespace scalebook::cli {

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
                     {"description", o.description}});
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
              {"default", to_json(in.default_value)}};
    if (in.kind == InputKind::choice) {
      j["choices"] = in.choices;
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
  return j;
}

Json to_json(const Table& table) {
  Json rows = Json::array();
  for (const std::vector<Value>& row : table.rows) {
    Json r = Json::object();
    for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i) {
      r[table.columns[i]] = to_json(row[i]);
    }
    rows.push_back(r);
  }
  return rows;
}

Json to_json(const Calculation& calc, bool explain) {
  Json j = Json::object();
  for (const auto& [name, value] : calc.outputs) j[name] = to_json(value);
  for (const auto& [name, table] : calc.tables) j[name] = to_json(table);
  if (explain) {
    Json steps = Json::array();
    for (const Step& s : calc.steps) {
      steps.push_back({{"label", s.label},
                       {"latex", s.latex},
                       {"value", s.value},
                       {"unit", s.unit},
                       {"output", s.output},
                       {"depends", s.depends}});
    }
    j["steps"] = steps;
  }
  return j;
}

Json to_json(const Chip& chip) {
  Json peaks = Json::object();
  for (const PeakFlops& p : chip.peaks) peaks[to_string(p.dtype)] = p.flops_per_s;
  Json notes = Json::object();
  for (const SourceNote& n : chip.notes) notes[n.field] = n.note;
  Json fields = Json::array();
  for (const ChipField& f : chip_fields(chip)) {
    fields.push_back({{"name", f.name},
                      {"value", to_json(f.value)},
                      {"unit", f.unit},
                      {"description", f.description},
                      {"note", f.note}});
  }
  return {{"id", chip.id},
          {"name", chip.name},
          {"vendor", chip.vendor},
          {"peak_flops", peaks},
          {"hbm_bandwidth", chip.hbm_bandwidth},
          {"hbm_capacity", chip.hbm_capacity},
          {"comm_bandwidth", chip.comm_bandwidth},
          {"comm_link", chip.comm_link},
          {"notes", notes},
          {"fields", fields}};
}

Json to_json(const Model& model) {
  Json notes = Json::object();
  for (const SourceNote& n : model.notes) notes[n.field] = n.note;
  Json fields = Json::array();
  for (const ModelField& f : model_fields(model)) {
    fields.push_back({{"name", f.name},
                      {"value", to_json(f.value)},
                      {"unit", f.unit},
                      {"description", f.description},
                      {"note", f.note}});
  }
  ParamCounts params = count_params(model);
  return {{"id", model.id},         {"name", model.name},
          {"params", params.total}, {"params_active", params.active},
          {"notes", notes},         {"fields", fields}};
}

Json to_json(const Error& error) {
  Json e = {{"code", to_string(error.code)}, {"field", error.field}, {"message", error.message}};
  if (error.position >= 0) e["position"] = error.position;
  return {{"error", e}};
}

}  // namespace scalebook::cli
