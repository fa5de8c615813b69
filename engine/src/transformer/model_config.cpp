#include "scalebook/transformer/model_config.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "model_config_keys.h"
#include "scalebook/core/format.h"
#include "scalebook/transformer/model_preset.h"

namespace scalebook {
namespace {

constexpr const char* kWhere = "config.json";

// Only asked after a failed parse: where the syntax error is, for a message a reader of a
// pasted text can act on. nlohmann reports it through a SAX handler's parse_error.
struct ErrorAt : nlohmann::json_sax<Json> {
  std::size_t position = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t at, const std::string&,
                   const nlohmann::detail::exception&) override {
    position = at;
    return false;
  }
};

Error syntax_error(std::string_view text) {
  ErrorAt sax;
  Json::sax_parse(text.begin(), text.end(), &sax);
  // nlohmann counts the characters read, the offending one included.
  std::size_t at = std::min(sax.position > 0 ? sax.position - 1 : 0, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < at; ++i) {
    column = text[i] == '\n' ? 1 : column + 1;
    line += text[i] == '\n';
  }
  Error e{ErrorCode::invalid_argument, "config",
          std::string(kWhere) + " is not JSON: a syntax error at line " + std::to_string(line) +
              ", column " + std::to_string(column)};
  e.position = static_cast<int>(at);
  return e;
}

std::string shown(const Json& v) {
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    return "\"" + (s.size() > 40 ? s.substr(0, 40) + "..." : s) + "\"";
  }
  if (v.is_array()) return "a list";
  if (v.is_object()) return "an object";
  if (v.is_number()) return format_number(v.get<double>());
  return dump(v);
}

std::string kind_of(const Json& v) { return v.is_array() ? "a list" : "an object"; }

// Reads a config's keys, from text_config first when there is one, recording which it used.
class Reader {
 public:
  Reader(const Json& root, const Json* text) : root_(root), text_(text) {}

  // The value of `key` and its path; null counts as absent (path left empty), as
  // transformers reads it. `mark`: the key is taken as read, so it is not listed as unmapped.
  const Json* find(const std::string& key, std::string& path, bool mark = true) {
    for (const Json* level : {text_, &root_}) {
      if (!level) continue;
      auto it = level->find(key);
      if (it == level->end()) continue;
      std::string at = (level == text_ ? "text_config." : "") + key;
      if (mark) used_.insert(at);
      if (it->is_null()) return nullptr;
      path = at;
      return &*it;
    }
    return nullptr;
  }

  // A whole number within `field`'s range, or nothing when absent (or after an error).
  std::optional<double> count(const std::string& key, const std::string& field, std::string& path) {
    const Json* v = find(key, path);
    if (!v) return std::nullopt;
    const ModelFieldSpec* spec = find_model_field_spec(field);
    double lo = spec->min;
    if (!v->is_number()) {
      fail(path, path + " must be a whole number, got " + shown(*v));
      return std::nullopt;
    }
    double x = v->get<double>();
    if (!std::isfinite(x) || x != std::floor(x)) {
      fail(path, path + " must be a whole number, got " + shown(*v));
    } else if (x < lo || x > spec->max) {
      fail(path, path + " must be from " + format_number(lo) + " to " + format_number(spec->max) +
                     ", got " + shown(*v));
    } else {
      return x;
    }
    return std::nullopt;
  }

  std::optional<bool> flag(const std::string& key, std::string& path) {
    const Json* v = find(key, path);
    if (!v) return std::nullopt;
    if (v->is_boolean()) return v->get<bool>();
    fail(path, path + " must be true or false, got " + shown(*v));
    return std::nullopt;
  }

  std::string text(const std::string& key) {
    std::string path;
    const Json* v = find(key, path);
    if (v && v->is_string()) return v->get<std::string>();
    if (v && v->is_array() && !v->empty() && (*v)[0].is_string()) return (*v)[0].get<std::string>();
    return "";
  }

  void fail(const std::string& key, const std::string& message) {
    if (!bad_) bad_ = Error{ErrorCode::invalid_argument, key, message};
  }
  void missing(const std::string& key, const std::string& field) {
    missing_.push_back(key + " (" + field + ")");
    if (missing_key_.empty()) missing_key_ = key;
  }
  bool used(const std::string& path) const { return used_.count(path) > 0; }

  std::optional<Error> error() const {
    if (bad_) return bad_;
    if (missing_.empty()) return std::nullopt;
    std::string message = std::string(kWhere) + (text_ ? "'s text_config" : "") + " has no ";
    for (std::size_t i = 0; i < missing_.size(); ++i) message += (i ? ", no " : "") + missing_[i];
    return Error{ErrorCode::invalid_argument, missing_key_, message};
  }

 private:
  const Json& root_;
  const Json* text_;
  std::set<std::string> used_;
  std::optional<Error> bad_;
  std::vector<std::string> missing_;
  std::string missing_key_;
};

struct Mapping {
  Model model;
  std::map<std::string, ConfigSource> sources;
  std::vector<UnmappedKey> extra;  // keys read but set aside (v_head_dim that differs, ...)

  void set(const std::string& field, double x, const std::string& key, const std::string& note) {
    set_model_field(model, field, Value::of(x));
    sources[field] = {field, key, note};
  }
  void set_flag(const std::string& field, bool x, const std::string& key, const std::string& note) {
    set_model_field(model, field, Value::of(x ? "yes" : "no"));
    sources[field] = {field, key, note};
  }
};

// Reads `field` from the first of `keys` present; required ones missing are named.
std::optional<double> read(Reader& r, Mapping& m, const std::string& field,
                           std::initializer_list<const char*> keys, bool required) {
  for (const char* key : keys) {
    std::string path;
    if (std::optional<double> x = r.count(key, field, path)) {
      m.set(field, *x, path, path);
      return x;
    }
    if (!path.empty()) return std::nullopt;  // present but bad: named by the reader
  }
  if (required) r.missing(*keys.begin(), field);
  return std::nullopt;
}

void read_shape(Reader& r, Mapping& m, const config_keys::Family* fam) {
  read(r, m, "L", {"num_hidden_layers"}, true);
  read(r, m, "D", {"hidden_size"}, true);
  read(r, m, "F", {"intermediate_size"}, true);
  auto N = read(r, m, "N", {"num_attention_heads"}, true);
  bool vocab_default = fam && fam->vocab > 0;
  if (!read(r, m, "V", {"vocab_size"}, !vocab_default) && vocab_default) {
    m.set("V", fam->vocab, "",
          "absent: transformers' default for model_type " + std::string(fam->type));
  }
  if (!read(r, m, "K", {"num_key_value_heads"}, false) && N) {
    m.set("K", *N, "", "absent: K = N (multi-head attention)");
  }
  std::string path;
  std::optional<bool> tied = r.flag("tie_word_embeddings", path);
  if (tied) {
    m.set_flag("tied", *tied, path, path);
  } else if (path.empty()) {
    m.set_flag("tied", fam && fam->tied, "",
               fam ? "absent: transformers' default for model_type " + std::string(fam->type)
                   : "absent: untied assumed");
  }
}

void read_head(Reader& r, Mapping& m, bool latent) {
  std::string path;
  if (latent) {
    // A latent-attention head's width is its non-RoPE part; head_dim, where a config has it,
    // is the RoPE part (transformers' DeepseekV3Config).
    if (auto H = read(r, m, "H", {"qk_nope_head_dim"}, true)) {
      const Json* v = r.find("v_head_dim", path);
      if (v && !(v->is_number() && v->get<double>() == *H)) {
        m.extra.push_back({path, UnmappedKind::not_modelled,
                           "value heads of another width than qk_nope_head_dim (H): the Model "
                           "has one head width"});
      } else if (v) {
        m.sources["H"].note = m.sources["H"].key + " (= v_head_dim)";
      }
    }
    if (r.find("head_dim", path)) {
      m.extra.push_back({path, UnmappedKind::ignored, "latent attention: H is qk_nope_head_dim"});
    }
    return;
  }
  if (read(r, m, "H", {"head_dim"}, false) || r.error()) return;
  if (!m.sources.count("D") || !m.sources.count("N")) return;
  double D = m.model.D, N = m.model.N;
  if (std::fmod(D, N) != 0) {
    r.fail("head_dim", std::string(kWhere) + " has no head_dim, and hidden_size (" +
                           format_number(D) + ") is not a multiple of num_attention_heads (" +
                           format_number(N) + ")");
    return;
  }
  m.set("H", D / N, "", "absent: hidden_size / num_attention_heads");
}

void read_experts(Reader& r, Mapping& m) {
  auto E = read(r, m, "E", {"num_local_experts", "num_experts", "n_routed_experts"}, false);
  if (!E || *E == 0) return;
  read(r, m, "experts_per_token", {"num_experts_per_tok"}, true);
  read(r, m, "shared_experts", {"n_shared_experts", "num_shared_experts"}, false);
  read(r, m, "F_expert", {"moe_intermediate_size"}, false);
  read(r, m, "dense_layers", {"first_k_dense_replace"}, false);
}

void read_latent(Reader& r, Mapping& m) {
  std::string path;
  if (!r.find("kv_lora_rank", path)) return;
  read(r, m, "kv_rank", {"kv_lora_rank"}, true);
  if (!read(r, m, "q_rank", {"q_lora_rank"}, false) && !r.error()) {
    m.set("q_rank", 0, "", "absent or null: full-rank queries");
  }
  read(r, m, "rope_dim", {"qk_rope_head_dim"}, true);
}

// Fields no config states, from what the model_type's architecture has.
void defaults(Mapping& m, const config_keys::Family* fam, const std::string& type) {
  std::string t = "model_type " + (type.empty() ? std::string("(none)") : type);
  std::string key = fam ? "model_type" : "";
  m.set_flag("gated", true, key,
             fam ? "not in a config: a gated MLP (" + std::string(fam->mlp) + ", " + t + ")"
                 : "not in a config: a gated MLP assumed (" + t + " is not one this reader knows)");
  m.set("norms_per_layer", fam ? fam->norms_per_layer : 2, key,
        fam ? "not in a config: " + std::string(fam->norms) + " (" + t + ")"
            : "not in a config: two norms per layer assumed");
  m.set_flag("final_norm", true, key, "not in a config: a norm after the last layer");
  const char* zero[][2] = {{"E", "absent: a dense model"},
                           {"experts_per_token", "no experts"},
                           {"shared_experts", "absent: no shared experts"},
                           {"F_expert", "absent: experts as wide as F"},
                           {"dense_layers", "absent: experts in every layer"},
                           {"q_rank", "plain attention (no kv_lora_rank)"},
                           {"kv_rank", "plain attention (no kv_lora_rank)"},
                           {"rope_dim", "plain attention (no kv_lora_rank)"}};
  for (const auto& [field, note] : zero) {
    if (!m.sources.count(field)) m.set(field, 0, "", note);
  }
}

std::string model_name(Reader& r, const std::string& type) {
  std::string name = r.text("_name_or_path");
  if (name.empty()) name = r.text("architectures");
  if (name.empty()) name = type;
  return name.empty() ? "custom model" : name;
}

void list_unmapped(const Json& root, const Json* text, Reader& r, ConfigModel& out,
                   const std::vector<UnmappedKey>& extra) {
  std::string p;
  const Json* use = r.find("use_sliding_window", p, false);
  bool windows_off = use && use->is_boolean() && !use->get<bool>();
  for (const Json* level : {&root, text}) {
    if (!level) continue;
    std::string prefix = level == text ? "text_config." : "";
    for (const auto& [key, value] : level->items()) {
      std::string path = prefix + key;
      if (level == &root && key == "text_config") continue;
      auto set_aside = std::find_if(extra.begin(), extra.end(),
                                    [&](const UnmappedKey& u) { return u.key == path; });
      if (set_aside != extra.end()) {
        out.unmapped.push_back(*set_aside);
      } else if (!r.used(path)) {
        out.unmapped.push_back(config_keys::classify(path, key, value, windows_off));
      }
    }
  }
}

}  // namespace

Result<ConfigModel> model_from_config(std::string_view text) {
  if (text.size() > kMaxConfigBytes) {
    return Error{ErrorCode::out_of_range, "config",
                 std::string(kWhere) + " must be at most " + std::to_string(kMaxConfigBytes) +
                     " bytes, got " + std::to_string(text.size())};
  }
  Json root = Json::parse(text.begin(), text.end(), nullptr, false);
  if (root.is_discarded()) return syntax_error(text);
  if (!root.is_object()) {
    return Error{ErrorCode::invalid_argument, "config",
                 std::string(kWhere) + " must be a JSON object, got " +
                     (root.is_array() || root.is_object() ? kind_of(root) : shown(root))};
  }
  const Json* text_config = nullptr;
  auto nested = root.find("text_config");
  if (nested != root.end() && !nested->is_null()) {
    if (!nested->is_object()) {
      return Error{ErrorCode::invalid_argument, "text_config",
                   "text_config must be an object, got " + shown(*nested)};
    }
    text_config = &*nested;
  }
  Reader r(root, text_config);
  std::string type = r.text("model_type");
  const config_keys::Family* fam = config_keys::family(type);
  Mapping m;
  read_shape(r, m, fam);
  std::string path;
  bool latent = r.find("kv_lora_rank", path) != nullptr;
  read_head(r, m, latent);
  read_experts(r, m);
  if (latent) read_latent(r, m);
  if (std::optional<Error> e = r.error()) return *e;
  defaults(m, fam, type);

  ConfigModel out;
  out.model = m.model;
  out.model.id = kCustomModel;
  out.model.name = model_name(r, type);
  for (const ModelFieldSpec& spec : model_field_specs()) {
    const ConfigSource& s = m.sources[spec.name];
    out.sources.push_back(s);
    // A note that is its key reads "config.json: hidden_size"; a default says itself.
    bool from_key = !s.key.empty() && s.note.rfind(s.key, 0) == 0;
    out.model.notes.push_back({spec.name, from_key ? std::string(kWhere) + ": " + s.note : s.note});
  }
  if (std::optional<Error> bad = check_model(out.model)) {
    std::string key = m.sources[bad->field].key;
    bad->message = (key.empty() ? bad->field : key) + ": " + bad->message;
    if (!key.empty()) bad->field = key;
    return *bad;
  }
  list_unmapped(root, text_config, r, out, m.extra);
  return out;
}

std::vector<std::pair<std::string, Value>> model_inputs_of(const Model& model) {
  std::vector<std::pair<std::string, Value>> inputs{{"model", Value::of(kCustomModel)}};
  for (const ModelField& f : model_fields(model)) inputs.emplace_back(f.name, f.value);
  return inputs;
}

}  // namespace scalebook
