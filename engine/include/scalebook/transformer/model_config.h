#pragma once
// A custom model from a Hugging Face style config.json (the text, as a publisher ships it).
//
// What it reads, into the catalog's Model (models.h):
//   L num_hidden_layers, D hidden_size, F intermediate_size, N num_attention_heads,
//   V vocab_size (all required); K num_key_value_heads (default N); H head_dim (default
//   D / N); tied tie_word_embeddings (default by model_type: Gemma ties, the rest do not).
//   Experts: E num_local_experts | num_experts | n_routed_experts, experts_per_token
//   num_experts_per_tok, shared_experts n_shared_experts | num_shared_experts, F_expert
//   moe_intermediate_size, dense_layers first_k_dense_replace.
//   Latent attention (DeepSeek's MLA), when kv_lora_rank is given: kv_rank kv_lora_rank,
//   q_rank q_lora_rank (null: full-rank queries), rope_dim qk_rope_head_dim, and H
//   qk_nope_head_dim (the Model has one head width, so v_head_dim must equal it).
//   gated, norms_per_layer and final_norm are not in a config: they follow model_type.
// A multimodal config's language model under "text_config" (Gemma 3) is read from there,
// falling back to the top level for a key text_config lacks.
//
// Every other key is listed as unmapped, with why: it changes the architecture in a way the
// Model cannot represent (sliding windows, biases, multi-token prediction: "not modelled"),
// it has no effect on sizes or FLOPs (token ids, rope_theta, dtypes: "ignored"), or it is
// not recognised ("unknown").
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/core/value.h"
#include "scalebook/transformer/models.h"

namespace scalebook {

// A config is a few kB; the cap refuses a pasted megabyte before nlohmann parses it.
inline constexpr std::size_t kMaxConfigBytes = 256 * 1024;

struct ConfigSource {
  std::string field;  // L, D, ..., in the catalog's display order
  std::string key;    // the config key it came from ("text_config.hidden_size"); empty: a default
  std::string note;   // how: "num_hidden_layers", "absent: K = N (multi-head attention)"
};

enum class UnmappedKind { not_modelled, ignored, unknown };
const char* to_string(UnmappedKind kind);  // "not modelled", "ignored", "unknown"

struct UnmappedKey {
  std::string key;  // as in the config, nested keys with their parent: "text_config.sliding_window"
  UnmappedKind kind = UnmappedKind::unknown;
  std::string reason;
};

struct ConfigModel {
  Model model;                        // id "custom"; each field's note says which key it came from
  std::vector<ConfigSource> sources;  // one per Model field
  std::vector<UnmappedKey> unmapped;  // in the config's own order
};

// The model a config.json describes; an error naming the key (field) when the text is not a
// JSON object, a required key is missing (the message names every missing one), a value has
// the wrong type or range, or the model breaks a rule of check_model.
Result<ConfigModel> model_from_config(std::string_view text);

// The model as a calculator's inputs: model=custom and every configuration field, which is
// how a custom model reaches the transformer, training and any other calculator with a model.
std::vector<std::pair<std::string, Value>> model_inputs_of(const Model& model);

}  // namespace scalebook
