#include "scalebook/transformer/model_config.h"

#include <fstream>
#include <sstream>

#include "helpers.h"
#include "scalebook/transformer/json.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(SCALEBOOK_FIXTURES "/model-configs/" + name + ".json");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

ConfigModel parse(const std::string& text) {
  Result<ConfigModel> r = model_from_config(text);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

Error parse_error(const std::string& text) {
  Result<ConfigModel> r = model_from_config(text);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

std::string key_of(const ConfigModel& c, const std::string& field) {
  for (const ConfigSource& s : c.sources) {
    if (s.field == field) return s.key;
  }
  FAIL("no source for " << field);
  return "";
}

std::vector<std::string> keys(const ConfigModel& c, UnmappedKind kind) {
  std::vector<std::string> out;
  for (const UnmappedKey& u : c.unmapped) {
    if (u.kind == kind) out.push_back(u.key);
  }
  return out;
}

std::string reason(const ConfigModel& c, const std::string& key) {
  for (const UnmappedKey& u : c.unmapped) {
    if (u.key == key) return u.reason;
  }
  FAIL("no unmapped key " << key);
  return "";
}

// Every configuration field, as the catalog lists them, equal to the preset's.
void check_same_fields(const Model& parsed, const Model& preset) {
  std::vector<ModelField> got = model_fields(parsed), want = model_fields(preset);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO(preset.id << " " << want[i].name);
    CHECK(got[i].name == want[i].name);
    CHECK(got[i].value.number == want[i].value.number);
    CHECK(got[i].value.text == want[i].value.text);
  }
  CHECK(count_params(parsed).total == count_params(preset).total);
}

// A minimal LLaMA-like config with one key replaced (or removed, with "").
std::string minimal(const std::string& key = "", const std::string& value = "") {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"hidden_size", "4096"},       {"intermediate_size", "14336"}, {"num_hidden_layers", "32"},
      {"num_attention_heads", "32"}, {"num_key_value_heads", "8"},   {"vocab_size", "128256"}};
  std::string text = "{\"model_type\": \"llama\"";
  for (auto& [k, v] : fields) {
    if (k == key) v = value;
    if (!v.empty()) text += ", \"" + k + "\": " + v;
  }
  if (!key.empty() && value.size() && text.find("\"" + key + "\"") == std::string::npos) {
    text += ", \"" + key + "\": " + value;
  }
  return text + "}";
}

}  // namespace

TEST_CASE("each preset's published config.json reads as the preset, field by field",
          "[model-config]") {
  // The catalog's made-up models (transformers-q1, inference-q1, inference-q5-moe) have no
  // published config; every real one does.
  for (const char* id : {"llama-3-8b", "llama-3-70b", "llama-3-405b", "llama-2-13b", "gemma-7b",
                         "gemma-2-27b", "deepseek-v3"}) {
    INFO(id);
    ConfigModel c = parse(fixture(id));
    check_same_fields(c.model, *find_model(id));
    CHECK(c.model.id == "custom");
    CHECK_FALSE(check_model(c.model).has_value());
  }
}

TEST_CASE("LLaMA 3 70B's config: each field names its key, the rest are listed", "[model-config]") {
  ConfigModel c = parse(fixture("llama-3-70b"));
  CHECK(c.model.name == "LlamaForCausalLM");
  CHECK(key_of(c, "L") == "num_hidden_layers");
  CHECK(key_of(c, "D") == "hidden_size");
  CHECK(key_of(c, "F") == "intermediate_size");
  CHECK(key_of(c, "N") == "num_attention_heads");
  CHECK(key_of(c, "K") == "num_key_value_heads");
  CHECK(key_of(c, "H") == "");  // LLaMA 3's config has no head_dim: D / N
  CHECK(c.sources[5].note == "absent: hidden_size / num_attention_heads");
  CHECK(key_of(c, "V") == "vocab_size");
  CHECK(key_of(c, "tied") == "tie_word_embeddings");
  CHECK(key_of(c, "gated") == "model_type");
  CHECK(c.sources[7].note == "not in a config: a gated MLP (SwiGLU, model_type llama)");
  CHECK(model_note(c.model, "L") == "config.json: num_hidden_layers");
  CHECK(keys(c, UnmappedKind::not_modelled).empty());
  CHECK(keys(c, UnmappedKind::unknown).empty());
  CHECK(keys(c, UnmappedKind::ignored) ==
        std::vector<std::string>{
            "attention_bias", "attention_dropout", "bos_token_id", "eos_token_id", "hidden_act",
            "initializer_range", "max_position_embeddings", "pretraining_tp", "rms_norm_eps",
            "rope_scaling", "rope_theta", "torch_dtype", "transformers_version", "use_cache"});
  CHECK(c.unmapped[0].reason == "no biases, as the Model");
}

TEST_CASE("DeepSeek-V3's config maps experts and latent attention, and names what it cannot",
          "[model-config]") {
  ConfigModel c = parse(fixture("deepseek-v3"));
  CHECK(key_of(c, "E") == "n_routed_experts");
  CHECK(key_of(c, "experts_per_token") == "num_experts_per_tok");
  CHECK(key_of(c, "shared_experts") == "n_shared_experts");
  CHECK(key_of(c, "F_expert") == "moe_intermediate_size");
  CHECK(key_of(c, "dense_layers") == "first_k_dense_replace");
  CHECK(key_of(c, "q_rank") == "q_lora_rank");
  CHECK(key_of(c, "kv_rank") == "kv_lora_rank");
  CHECK(key_of(c, "rope_dim") == "qk_rope_head_dim");
  CHECK(key_of(c, "H") == "qk_nope_head_dim");
  CHECK(c.sources[5].note == "qk_nope_head_dim (= v_head_dim)");
  CHECK(keys(c, UnmappedKind::not_modelled) ==
        std::vector<std::string>{"num_nextn_predict_layers"});
  CHECK(c.unmapped.size() == 27);  // the other keys of the 46 in DeepSeek's config
  CHECK(keys(c, UnmappedKind::unknown).empty());
}

TEST_CASE("Gemma 2's sliding windows are named as not modelled; Gemma ties by default",
          "[model-config]") {
  ConfigModel g2 = parse(fixture("gemma-2-27b"));
  CHECK(keys(g2, UnmappedKind::not_modelled) ==
        std::vector<std::string>{"sliding_window", "sliding_window_size"});
  CHECK(reason(g2, "sliding_window") ==
        "sliding-window (local) attention: every layer is taken as global, so attention FLOPs "
        "and the KV cache are full attention's");
  CHECK(g2.model.norms_per_layer == 4);
  ConfigModel g = parse(fixture("gemma-7b"));
  CHECK(key_of(g, "tied") == "");
  CHECK(g.sources[8].note == "absent: transformers' default for model_type gemma");
  CHECK(key_of(g, "H") == "head_dim");
}

TEST_CASE("Mixtral's experts are as wide as its MLP, every layer routed", "[model-config]") {
  ConfigModel c = parse(fixture("mixtral-8x7b"));
  CHECK(c.model.E == 8);
  CHECK(c.model.experts_per_token == 2);
  CHECK(c.model.F_expert == 0);
  CHECK(c.model.dense_layers == 0);
  CHECK(key_of(c, "E") == "num_local_experts");
  // Mixtral 8x7B: 46.7B parameters, 12.9B active (Mistral's announcement).
  CHECK(count_params(c.model).total == Approx(46.70e9).epsilon(1e-3));
  CHECK(count_params(c.model).active == Approx(12.88e9).epsilon(1e-3));
  CHECK(keys(c, UnmappedKind::not_modelled).empty());  // sliding_window is null
}

TEST_CASE("Gemma 3's language model is read from text_config", "[model-config]") {
  ConfigModel c = parse(fixture("gemma-3-27b"));
  CHECK(c.model.name == "Gemma3ForConditionalGeneration");
  CHECK(c.model.L == 62);
  CHECK(c.model.D == 5376);
  CHECK(c.model.F == 21504);
  CHECK(c.model.N == 32);
  CHECK(c.model.K == 16);
  CHECK(c.model.H == 128);
  CHECK(c.model.V == 262208);  // Google's config leaves it to transformers' default
  CHECK(c.model.tied);
  CHECK(key_of(c, "L") == "text_config.num_hidden_layers");
  CHECK(key_of(c, "V") == "");
  CHECK(keys(c, UnmappedKind::not_modelled) ==
        std::vector<std::string>{"vision_config", "text_config.sliding_window"});
  CHECK(reason(c, "model_type") == "names the model; its fields come from text_config");
  CHECK(keys(c, UnmappedKind::unknown).empty());
}

TEST_CASE("the mapping crosses as JSON with the calculator inputs of the model", "[model-config]") {
  ConfigModel c = parse(fixture("llama-3-8b"));
  Json j = to_json(c);
  CHECK(j["id"] == "custom");
  CHECK(j["mapping"][0] == Json{{"field", "L"},
                                {"key", "num_hidden_layers"},
                                {"value", 32},
                                {"note", "num_hidden_layers"}});
  CHECK(j["mapping"][5]["key"].is_null());
  CHECK(j["inputs"]["model"] == "custom");
  CHECK(j["inputs"]["K"] == 8);
  CHECK(j["inputs"]["tied"] == "no");
  Inputs inputs;
  for (const auto& [name, value] : model_inputs_of(c.model)) inputs[name] = value;
  Calculation custom = run("transformer", inputs);
  Calculation preset = run("transformer", {{"model", Value::of("llama-3-8b")}});
  CHECK(output(custom, "params") == output(preset, "params"));
}

TEST_CASE("a config that is not a JSON object is refused with where it breaks", "[model-config]") {
  Error e = parse_error("{\n  \"hidden_size\": 4096,\n  oops\n}");
  check_error(e, ErrorCode::invalid_argument, "config",
              "config.json is not JSON: a syntax error at line 3, column 3");
  CHECK(e.position == 27);
  check_error(parse_error(""), ErrorCode::invalid_argument, "config",
              "config.json is not JSON: a syntax error at line 1, column 1");
  check_error(parse_error("[1, 2]"), ErrorCode::invalid_argument, "config",
              "config.json must be a JSON object, got a list");
  check_error(parse_error("\"llama\""), ErrorCode::invalid_argument, "config",
              "config.json must be a JSON object, got \"llama\"");
  check_error(parse_error(std::string(kMaxConfigBytes + 1, ' ')), ErrorCode::out_of_range, "config",
              "config.json must be at most 262144 bytes, got 262145");
  check_error(parse_error(std::string(100000, '[')), ErrorCode::invalid_argument, "config",
              "config.json is not JSON: a syntax error at line 1, column 100001");
  check_error(parse_error("{\"text_config\": 3}"), ErrorCode::invalid_argument, "text_config",
              "text_config must be an object, got 3");
}

TEST_CASE("every missing required key is named, with the field it gives", "[model-config]") {
  check_error(parse_error("{}"), ErrorCode::invalid_argument, "num_hidden_layers",
              "config.json has no num_hidden_layers (L), no hidden_size (D), no "
              "intermediate_size (F), no num_attention_heads (N), no vocab_size (V)");
  check_error(parse_error(minimal("hidden_size", "")), ErrorCode::invalid_argument, "hidden_size",
              "config.json has no hidden_size (D)");
  check_error(parse_error(minimal("vocab_size", "null")), ErrorCode::invalid_argument, "vocab_size",
              "config.json has no vocab_size (V)");
  check_error(parse_error("{\"text_config\": {\"hidden_size\": 8}}"), ErrorCode::invalid_argument,
              "num_hidden_layers",
              "config.json's text_config has no num_hidden_layers (L), no intermediate_size (F), "
              "no num_attention_heads (N), no vocab_size (V)");
  check_error(parse_error(minimal("num_local_experts", "8")), ErrorCode::invalid_argument,
              "num_experts_per_tok", "config.json has no num_experts_per_tok (experts_per_token)");
  check_error(parse_error(minimal("kv_lora_rank", "512")), ErrorCode::invalid_argument,
              "qk_nope_head_dim",
              "config.json has no qk_nope_head_dim (H), no qk_rope_head_dim (rope_dim)");
}

TEST_CASE("a value of the wrong type or range is refused naming its key", "[model-config]") {
  check_error(parse_error(minimal("num_hidden_layers", "80.5")), ErrorCode::invalid_argument,
              "num_hidden_layers", "num_hidden_layers must be a whole number, got 80.5");
  check_error(parse_error(minimal("num_hidden_layers", "\"80\"")), ErrorCode::invalid_argument,
              "num_hidden_layers", "num_hidden_layers must be a whole number, got \"80\"");
  check_error(parse_error(minimal("hidden_size", "-4096")), ErrorCode::invalid_argument,
              "hidden_size", "hidden_size must be from 1 to 1e7, got -4096");
  check_error(parse_error(minimal("vocab_size", "1e300")), ErrorCode::invalid_argument,
              "vocab_size", "vocab_size must be from 1 to 1e8, got 1e300");
  check_error(parse_error(minimal("num_attention_heads", "[32]")), ErrorCode::invalid_argument,
              "num_attention_heads", "num_attention_heads must be a whole number, got a list");
  check_error(parse_error(minimal("tie_word_embeddings", "1")), ErrorCode::invalid_argument,
              "tie_word_embeddings", "tie_word_embeddings must be true or false, got 1");
  check_error(parse_error(minimal("num_key_value_heads", "5")), ErrorCode::invalid_argument,
              "num_key_value_heads", "num_key_value_heads: K must divide N (32), got 5");
  check_error(parse_error(minimal("num_attention_heads", "7")), ErrorCode::invalid_argument,
              "head_dim",
              "config.json has no head_dim, and hidden_size (4096) is not a multiple of "
              "num_attention_heads (7)");
}

TEST_CASE("expert and latent keys without experts or a latent rank are set aside",
          "[model-config]") {
  ConfigModel c = parse(minimal("num_experts_per_tok", "2"));
  CHECK(c.model.E == 0);
  CHECK(c.model.experts_per_token == 0);
  CHECK(reason(c, "num_experts_per_tok") == "no experts: the config gives no expert count (or 0)");
  ConfigModel z = parse(minimal("num_local_experts", "0"));
  CHECK(key_of(z, "E") == "num_local_experts");
  ConfigModel q = parse(minimal("q_lora_rank", "1536"));
  CHECK(q.model.q_rank == 0);
  CHECK(reason(q, "q_lora_rank") == "plain attention: the config gives no kv_lora_rank");
}

TEST_CASE("unknown keys are listed as not recognised, never refused", "[model-config]") {
  ConfigModel c = parse(minimal("my_own_field", "{\"a\": 1}"));
  REQUIRE(c.unmapped.size() == 1);
  CHECK(c.unmapped[0].key == "my_own_field");
  CHECK(c.unmapped[0].kind == UnmappedKind::unknown);
  CHECK(c.unmapped[0].reason == "not recognised");
  ConfigModel other = parse(
      "{\"hidden_size\": 64, \"intermediate_size\": 256, "
      "\"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
      "\"vocab_size\": 100, \"model_type\": \"mystery\"}");
  CHECK(other.model.name == "mystery");
  CHECK(other.sources[7].note ==
        "not in a config: a gated MLP assumed (model_type mystery is not one this reader knows)");
  CHECK_FALSE(other.model.tied);
}
