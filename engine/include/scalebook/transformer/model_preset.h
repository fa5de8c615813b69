#pragma once
// The model preset: a catalog model, or `custom` built from its fields, with any
// configuration field overridden. The transformer calculator's `model` input is one; later
// calculators (training, inference) take the same input the same way.
#include "scalebook/core/registry.h"
#include "scalebook/core/schema.h"
#include "scalebook/transformer/models.h"

namespace scalebook {

// The id that builds a model from its fields alone (L, D, F, N, H and V needed).
inline constexpr const char* kCustomModel = "custom";

const PresetKind& model_preset();

// The `model` input: catalog ids and custom, default `fallback`.
InputSpec model_input(const std::string& fallback);
// One input per configuration field, each overriding the model's, in the override group.
std::vector<InputSpec> model_field_inputs();

// The resolved model of a calculator with model inputs; null for one without.
const Model* model_of(const ResolvedInputs& inputs);

}  // namespace scalebook
