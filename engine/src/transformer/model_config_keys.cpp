#include "model_config_keys.h"

#include <iterator>

namespace scalebook::config_keys {
namespace {

constexpr const char* kNoEffect = "no effect on sizes or FLOPs";
constexpr const char* kRouting =
    "routing detail: no effect on sizes or FLOPs (the router is counted as E x D)";
constexpr const char* kDtype = "weight dtype: the calculators take dtypes as their own inputs";

// Keys every faithful reading may pass over: training, tokenizer, numerics and bookkeeping.
constexpr const char* kInert[] = {"_name_or_path",
                                  "attention_dropout",
                                  "attn_logit_softcapping",
                                  "auto_map",
                                  "bos_token_id",
                                  "boi_token_index",
                                  "cache_implementation",
                                  "eoi_token_index",
                                  "eos_token_id",
                                  "final_logit_softcapping",
                                  "hidden_act",
                                  "hidden_activation",
                                  "hidden_dropout",
                                  "image_token_index",
                                  "initializer_range",
                                  "max_position_embeddings",
                                  "mm_tokens_per_image",
                                  "pad_token_id",
                                  "pretraining_tp",
                                  "query_pre_attn_scalar",
                                  "rms_norm_eps",
                                  "rope_local_base_freq",
                                  "rope_scaling",
                                  "rope_theta",
                                  "transformers_version",
                                  "use_cache",
                                  "layer_norm_eps",
                                  "partial_rotary_factor",
                                  "embedding_multiplier",
                                  "attention_multiplier"};

constexpr const char* kRoutingKeys[] = {"aux_loss_alpha",
                                        "ep_size",
                                        "n_group",
                                        "norm_topk_prob",
                                        "output_router_logits",
                                        "routed_scaling_factor",
                                        "router_aux_loss_coef",
                                        "router_jitter_noise",
                                        "scoring_func",
                                        "seq_aux",
                                        "topk_group",
                                        "topk_method"};

bool among(const std::string& key, const char* const* begin, const char* const* end) {
  for (const char* const* k = begin; k != end; ++k) {
    if (key == *k) return true;
  }
  return false;
}

bool off(const Json& v) {
  return v.is_null() || (v.is_boolean() && !v.get<bool>()) || (v.is_array() && v.empty());
}

bool is_one(const Json& v) { return v.is_number() && v.get<double>() == 1; }

UnmappedKey make(const std::string& path, UnmappedKind kind, std::string reason) {
  return {path, kind, std::move(reason)};
}

}  // namespace

UnmappedKey classify(const std::string& path, const std::string& key, const Json& value,
                     bool windows_off) {
  using K = UnmappedKind;
  if (key == "sliding_window" || key == "sliding_window_size" || key == "use_sliding_window" ||
      key == "sliding_window_pattern" || key == "layer_types" || key == "max_window_layers") {
    if (windows_off) return make(path, K::ignored, "sliding windows are off (use_sliding_window)");
    if (off(value)) return make(path, K::ignored, "no sliding window");
    return make(path, K::not_modelled,
                "sliding-window (local) attention: every layer is taken as global, so attention "
                "FLOPs and the KV cache are full attention's");
  }
  if (key == "attention_bias" || key == "mlp_bias" || key == "bias") {
    if (off(value)) return make(path, K::ignored, "no biases, as the Model");
    return make(path, K::not_modelled, "biases: the Model has none");
  }
  if (key == "num_nextn_predict_layers") {
    if (value.is_number() && value.get<double>() == 0) return make(path, K::ignored, kNoEffect);
    return make(path, K::not_modelled, "multi-token prediction: its extra module is not counted");
  }
  if (key == "moe_layer_freq" || key == "decoder_sparse_step") {
    if (is_one(value)) return make(path, K::ignored, "experts in every layer, as the Model");
    return make(path, K::not_modelled, "experts only in some layers after the dense ones");
  }
  if (key == "mlp_only_layers") {
    if (off(value)) return make(path, K::ignored, "no dense layers among the expert layers");
    return make(path, K::not_modelled, "dense layers among the expert layers");
  }
  if (key == "shared_expert_intermediate_size") {
    return make(path, K::not_modelled,
                "a shared expert of its own width: the Model gives every expert F_expert");
  }
  if (key == "vision_config" || key == "audio_config") {
    return make(path, K::not_modelled, "the encoder is not counted, only the language model");
  }
  // Reached only when the config gives no experts, or no kv_lora_rank: read then, not now.
  if (key == "num_experts_per_tok" || key == "n_shared_experts" || key == "num_shared_experts" ||
      key == "moe_intermediate_size" || key == "first_k_dense_replace") {
    return make(path, K::ignored, "no experts: the config gives no expert count (or 0)");
  }
  if (key == "q_lora_rank" || key == "qk_rope_head_dim" || key == "qk_nope_head_dim" ||
      key == "v_head_dim") {
    return make(path, K::ignored, "plain attention: the config gives no kv_lora_rank");
  }
  if (key == "model_type" || key == "architectures") {
    return make(path, K::ignored, "names the model; its fields come from text_config");
  }
  if (key == "quantization_config" || key == "torch_dtype" || key == "dtype") {
    return make(path, K::ignored, kDtype);
  }
  if (among(key, std::begin(kRoutingKeys), std::end(kRoutingKeys))) {
    return make(path, K::ignored, kRouting);
  }
  if (among(key, std::begin(kInert), std::end(kInert))) return make(path, K::ignored, kNoEffect);
  return make(path, K::unknown, "not recognised");
}

const Family* family(const std::string& model_type) {
  static const char* kTwo = "two RMSNorms, before attention and before the MLP";
  static const char* kFour = "four RMSNorms, before and after attention and the MLP";
  static const Family families[] = {
      {"llama", false, 2, "SwiGLU", 0, kTwo},
      {"mistral", false, 2, "SwiGLU", 0, kTwo},
      {"mixtral", false, 2, "SwiGLU", 0, kTwo},
      {"qwen2", false, 2, "SwiGLU", 0, kTwo},
      {"qwen2_moe", false, 2, "SwiGLU", 0, kTwo},
      {"qwen3", false, 2, "SwiGLU", 0, kTwo},
      {"qwen3_moe", false, 2, "SwiGLU", 0, kTwo},
      {"deepseek_v2", false, 2, "SwiGLU", 0, kTwo},
      {"deepseek_v3", false, 2, "SwiGLU", 0, kTwo},
      {"gemma", true, 2, "GeGLU", 0, kTwo},
      {"gemma2", true, 4, "GeGLU", 0, kFour},
      // transformers' Gemma3TextConfig: Google's Gemma 3 configs leave vocab_size to it.
      {"gemma3_text", true, 4, "GeGLU", 262208, kFour},
  };
  for (const Family& f : families) {
    if (model_type == f.type) return &f;
  }
  return nullptr;
}

}  // namespace scalebook::config_keys

namespace scalebook {

const char* to_string(UnmappedKind kind) {
  switch (kind) {
    case UnmappedKind::not_modelled:
      return "not modelled";
    case UnmappedKind::ignored:
      return "ignored";
    case UnmappedKind::unknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace scalebook
