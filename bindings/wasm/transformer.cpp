// Embind marshalling of the model catalog and config.json reading (one file per domain, as
// systolic.cpp).
#include <emscripten/bind.h>

#include <string>

#include "scalebook/core/json.h"
#include "scalebook/transformer/json.h"
#include "scalebook/transformer/model_config.h"
#include "scalebook/transformer/models.h"

namespace {

std::string models() {
  scalebook::Json array = scalebook::Json::array();
  for (const scalebook::Model& model : scalebook::models())
    array.push_back(scalebook::to_json(model));
  return scalebook::dump(array);
}

// The model a config.json's text describes, as the CLI's `model --from-config` prints it.
std::string model_from_config(const std::string& text) {
  auto result = scalebook::model_from_config(text);
  if (!result.ok()) return scalebook::dump(scalebook::to_json(result.error()));
  return scalebook::dump({{"model", scalebook::to_json(result.value())}});
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook_transformer) {
  emscripten::function("models", &models);
  emscripten::function("modelFromConfig", &model_from_config);
}
