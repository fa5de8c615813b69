#pragma once
// What model_config.cpp says about a config key it does not map to a Model field, and the
// architecture a model_type implies where a config is silent.
#include <string>

#include "scalebook/core/json.h"
#include "scalebook/transformer/model_config.h"

namespace scalebook::config_keys {

// Why `key` (holding `value`) sets no field: not modelled when it changes the architecture
// in a way the Model cannot represent (judged by its value: a null sliding window is none),
// ignored when it changes no size or FLOP count, unknown otherwise. `windows_off`: the config
// turns sliding windows off (use_sliding_window false), so their sizes are inert.
UnmappedKey classify(const std::string& path, const std::string& key, const Json& value,
                     bool windows_off);

// What a model_type implies about the fields a config never states.
struct Family {
  const char* type;        // "llama"
  bool tied;               // transformers' default for tie_word_embeddings
  double norms_per_layer;  // D-wide norm vectors per layer
  const char* mlp;         // the gated MLP's name: "SwiGLU"
  double vocab = 0;        // transformers' default vocab_size where configs omit it; 0: none
  const char* norms = "";  // what the norms are
};

// The family of a model_type; null for one this reader does not know.
const Family* family(const std::string& model_type);

}  // namespace scalebook::config_keys
