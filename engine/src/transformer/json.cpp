#include "scalebook/transformer/json.h"

namespace scalebook {

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

Json to_json(const ConfigModel& config) {
  Json out = to_json(config.model);
  std::vector<ModelField> fields = model_fields(config.model);
  Json mapping = Json::array();
  for (std::size_t i = 0; i < config.sources.size() && i < fields.size(); ++i) {
    const ConfigSource& s = config.sources[i];
    mapping.push_back({{"field", s.field},
                       {"key", s.key.empty() ? Json() : Json(s.key)},
                       {"value", to_json(fields[i].value)},
                       {"note", s.note}});
  }
  Json unmapped = Json::array();
  for (const UnmappedKey& u : config.unmapped) {
    unmapped.push_back({{"key", u.key}, {"kind", to_string(u.kind)}, {"reason", u.reason}});
  }
  Json inputs = Json::object();
  for (const auto& [name, value] : model_inputs_of(config.model)) inputs[name] = to_json(value);
  out["mapping"] = mapping;
  out["unmapped"] = unmapped;
  out["inputs"] = inputs;
  return out;
}

}  // namespace scalebook
