#include "scalebook/transformer/model_preset.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace scalebook {
namespace {

// Only declared inputs override a model (model_inputs declares every field), so no name
// reaches the model that its schema does not list.
const PresetField* no_undeclared_field(std::string_view) { return nullptr; }

bool given(const std::vector<std::pair<std::string, Value>>& overrides, const char* name) {
  for (const auto& [key, value] : overrides)
    if (key == name) return true;
  return false;
}

Result<std::shared_ptr<const void>> resolve_model_preset(
    const std::string& input, const std::string& id,
    const std::vector<std::pair<std::string, Value>>& overrides) {
  bool custom = id == kCustomModel;
  const Model* found = custom ? nullptr : find_model(id);
  if (!custom && !found) return Error{ErrorCode::not_found, input, "unknown model \"" + id + "\""};
  if (found && overrides.empty())
    return std::shared_ptr<const void>(std::shared_ptr<void>(), found);
  auto m = std::make_shared<Model>();
  if (custom) {
    for (const char* field : {"L", "D", "F", "N", "H", "V"}) {
      if (!given(overrides, field)) {
        return Error{ErrorCode::invalid_argument, field,
                     std::string("a custom model needs ") + field +
                         "; give L, D, F, N, H and V (K defaults to N)"};
      }
    }
    m->id = kCustomModel;
    m->name = "custom model";
  } else {
    *m = *found;
  }
  for (const auto& [name, value] : overrides) set_model_field(*m, name, value);
  if (custom && !given(overrides, "K")) m->K = m->N;
  if (std::optional<Error> bad = check_model(*m)) return *bad;
  return std::shared_ptr<const void>(std::move(m));
}

}  // namespace

const PresetKind& model_preset() {
  static const PresetKind kind{"model", "any configuration field of a model (scalebook model ID)",
                               no_undeclared_field, resolve_model_preset};
  return kind;
}

InputSpec model_input(const std::string& fallback) {
  InputSpec model{"model", InputKind::choice, "",
                  "a model from the catalog (scalebook models), or custom", Value::of(fallback)};
  model.choices = model_ids();
  model.choices.push_back(kCustomModel);
  model.preset = &model_preset();
  model.label = "Model";
  return model;
}

std::vector<InputSpec> model_field_inputs() {
  std::vector<InputSpec> list;
  for (const ModelFieldSpec& f : model_field_specs()) {
    InputSpec spec{f.name,
                   f.yes_no ? InputKind::choice : InputKind::count,
                   f.yes_no ? "" : f.unit,
                   "override: " + f.description,
                   Value::none(),
                   f.yes_no ? 0 : f.min,
                   false,
                   f.yes_no ? 0 : f.max};
    if (f.yes_no) spec.choices = {"yes", "no"};
    spec.overrides = &model_preset();
    spec.label = f.label;
    spec.group = InputGroup::override;
    list.push_back(std::move(spec));
  }
  return list;
}

const Model* model_of(const ResolvedInputs& inputs) {
  return static_cast<const Model*>(inputs.preset("model"));
}

}  // namespace scalebook
