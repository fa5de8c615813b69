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

}  // namespace scalebook
