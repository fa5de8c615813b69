// The training calculator's model input: the transformer domain's presets and custom, and the
// book's simplified layer, book-mlp, built from L, D and F alone.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "parts.h"
#include "scalebook/transformer/model_preset.h"

namespace scalebook::training_parts {
namespace {

const PresetField* no_undeclared_field(std::string_view) { return nullptr; }

Result<std::shared_ptr<const void>> resolve(
    const std::string& input, const std::string& id,
    const std::vector<std::pair<std::string, Value>>& overrides) {
  if (id != kBookMlp) return model_preset().resolve(input, id, overrides);
  auto m = std::make_shared<Model>();
  m->id = kBookMlp;
  m->name = "the book's MLP layer";
  m->L = kBookL;
  m->D = kBookD;
  m->F = kBookF;
  m->gated = false;
  for (const auto& [name, value] : overrides) {
    if (name != "L" && name != "D" && name != "F") {
      return Error{ErrorCode::invalid_argument, name,
                   "model=book-mlp takes only L, D and F; " + name + " is not part of it"};
    }
    set_model_field(*m, name, value);
  }
  return std::shared_ptr<const void>(std::move(m));
}

const PresetKind& training_model_preset() {
  static const PresetKind kind{"model", "any configuration field of a model (scalebook model ID)",
                               no_undeclared_field, resolve};
  return kind;
}

}  // namespace

InputSpec training_model_input() {
  InputSpec spec = model_input("llama-3-70b");
  spec.description =
      "a model from the catalog (scalebook models), custom, or book-mlp: the chapter's layer of "
      "two matmuls W_in[D,F], W_out[F,D] and no attention (D, F, L default 8192, 32768, 32)";
  spec.choices.push_back(kBookMlp);
  spec.preset = &training_model_preset();
  return spec;
}

std::vector<InputSpec> training_model_field_inputs() {
  std::vector<InputSpec> list = model_field_inputs();
  for (InputSpec& spec : list) spec.overrides = &training_model_preset();
  return list;
}

const Model* training_model_of(const ResolvedInputs& inputs) {
  return static_cast<const Model*>(inputs.preset("model"));
}

}  // namespace scalebook::training_parts
