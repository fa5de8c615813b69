#include "scalebook/transformer/models.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "models_data.h"
#include "scalebook/core/format.h"

namespace scalebook {
namespace {

// A Model member by name: the one list the catalog's faces and the calculator's overrides read.
struct FieldDef {
  ModelFieldSpec spec;
  double Model::*number = nullptr;
  bool Model::*flag = nullptr;
};

FieldDef num(const char* name, const char* label, const char* unit, const char* description,
             double min, double max, double Model::*member) {
  return {{name, unit, description, false, min, max, label}, member, nullptr};
}

FieldDef yes_no(const char* name, const char* label, const char* description, bool Model::*member) {
  return {{name, "", description, true, 0, 1, label}, nullptr, member};
}

const std::vector<FieldDef>& field_defs() {
  static const std::vector<FieldDef> defs = {
      num("L", "Layers L", "layers", "layers", 1, 1e5, &Model::L),
      num("D", "Model width D", "", "model width d_model", 1, 1e7, &Model::D),
      num("F", "MLP width F", "", "MLP hidden width of one matrix (of each branch when gated)", 1,
          1e7, &Model::F),
      num("N", "Query heads N", "heads", "query heads", 1, 1e5, &Model::N),
      num("K", "KV heads K", "heads", "key/value heads (N: MHA, 1: MQA); divides N", 1, 1e5,
          &Model::K),
      num("H", "Head width H", "", "head width", 1, 1e5, &Model::H),
      num("V", "Vocabulary size V", "tokens", "vocabulary size", 1, 1e8, &Model::V),
      yes_no("gated", "Gated MLP", "gated MLP: 3 matrices of D x F (no: 2)", &Model::gated),
      yes_no("tied", "Tied embeddings", "one V x D embedding for input and output (no: one each)",
             &Model::tied),
      num("norms_per_layer", "Norms per layer", "norms", "D-wide norm weight vectors per layer", 0,
          100, &Model::norms_per_layer),
      yes_no("final_norm", "Final norm", "a D-wide norm after the last layer", &Model::final_norm),
      num("E", "Experts E", "experts", "routed experts per MoE layer; 0: a dense model", 0, 1e5,
          &Model::E),
      num("experts_per_token", "Experts per token k", "experts",
          "routed experts each token uses (the book's k)", 0, 1e5, &Model::experts_per_token),
      num("shared_experts", "Shared experts", "experts",
          "experts every token uses besides its routed ones", 0, 1e5, &Model::shared_experts),
      num("F_expert", "Expert width", "", "hidden width of one expert; 0: F", 0, 1e7,
          &Model::F_expert),
      num("dense_layers", "Dense layers", "layers",
          "leading layers that keep a dense MLP of width F", 0, 1e5, &Model::dense_layers),
      num("q_rank", "Query latent rank", "",
          "latent attention: query latent width; 0: full-rank queries", 0, 1e7, &Model::q_rank),
      num("kv_rank", "KV latent rank", "",
          "latent attention: key/value latent width; 0: plain attention", 0, 1e7, &Model::kv_rank),
      num("rope_dim", "RoPE width", "", "latent attention: RoPE width added to each query/key head",
          0, 1e5, &Model::rope_dim),
  };
  return defs;
}

const FieldDef* find_def(std::string_view name) {
  for (const FieldDef& def : field_defs()) {
    if (def.spec.name == name) return &def;
  }
  return nullptr;
}

Error field_error(ErrorCode code, const std::string& field, const std::string& message) {
  return Error{code, field, message};
}

}  // namespace

namespace models_data {

std::vector<SourceNote> cite(std::initializer_list<Cite> cites) {
  std::vector<SourceNote> notes;
  for (const Cite& c : cites) {
    std::string_view fields = c.fields;
    while (!fields.empty()) {
      const std::size_t end = std::min(fields.find(' '), fields.size());
      if (end > 0) notes.push_back({std::string(fields.substr(0, end)), c.note});
      fields.remove_prefix(std::min(end + 1, fields.size()));
    }
  }
  return notes;
}

}  // namespace models_data

const std::vector<Model>& models() {
  static const std::vector<Model> list = models_data::presets();
  return list;
}

const Model* find_model(std::string_view id) {
  for (const Model& m : models()) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

std::vector<std::string> model_ids() {
  std::vector<std::string> ids;
  for (const Model& m : models()) ids.push_back(m.id);
  return ids;
}

const std::vector<ModelFieldSpec>& model_field_specs() {
  static const std::vector<ModelFieldSpec> specs = [] {
    std::vector<ModelFieldSpec> list;
    for (const FieldDef& def : field_defs()) list.push_back(def.spec);
    return list;
  }();
  return specs;
}

const ModelFieldSpec* find_model_field_spec(std::string_view name) {
  const FieldDef* def = find_def(name);
  return def ? &def->spec : nullptr;
}

std::string model_note(const Model& model, std::string_view field) {
  for (const SourceNote& n : model.notes) {
    if (n.field == field) return n.note;
  }
  return "";
}

std::vector<ModelField> model_fields(const Model& model) {
  std::vector<ModelField> fields;
  for (const FieldDef& def : field_defs()) {
    Value value =
        def.number ? Value::of(model.*def.number) : Value::of(model.*def.flag ? "yes" : "no");
    fields.push_back({def.spec.name, value, def.spec.unit, def.spec.description,
                      model_note(model, def.spec.name)});
  }
  return fields;
}

bool set_model_field(Model& model, std::string_view name, const Value& value) {
  const FieldDef* def = find_def(name);
  if (!def) return false;
  if (def->number) {
    if (!value.is_number()) return false;
    model.*def->number = value.number;
    return true;
  }
  if (!value.is_text() || (value.text != "yes" && value.text != "no")) return false;
  model.*def->flag = value.text == "yes";
  return true;
}

std::optional<Error> check_model(const Model& m) {
  auto n = [](double x) { return format_number(x); };
  if (std::fmod(m.N, m.K) != 0) {
    return field_error(ErrorCode::invalid_argument, "K",
                       "K must divide N (" + n(m.N) + "), got " + n(m.K));
  }
  if (m.E > 0) {
    if (m.experts_per_token < 1) {
      return field_error(ErrorCode::out_of_range, "experts_per_token",
                         "experts_per_token must be >= 1 for a model with experts (E = " + n(m.E) +
                             "), got " + n(m.experts_per_token));
    }
    if (m.experts_per_token > m.E) {
      return field_error(
          ErrorCode::out_of_range, "experts_per_token",
          "experts_per_token must be <= E (" + n(m.E) + "), got " + n(m.experts_per_token));
    }
  } else {
    for (const char* field : {"experts_per_token", "shared_experts", "F_expert", "dense_layers"}) {
      double x = m.*find_def(field)->number;
      if (x != 0) {
        return field_error(ErrorCode::invalid_argument, field,
                           std::string(field) + " needs experts, but E is 0; got " + n(x));
      }
    }
  }
  if (m.dense_layers > m.L) {
    return field_error(ErrorCode::out_of_range, "dense_layers",
                       "dense_layers must be <= L (" + n(m.L) + "), got " + n(m.dense_layers));
  }
  if (m.kv_rank == 0) {
    for (const char* field : {"q_rank", "rope_dim"}) {
      double x = m.*find_def(field)->number;
      if (x != 0) {
        return field_error(
            ErrorCode::invalid_argument, field,
            std::string(field) + " needs latent attention, but kv_rank is 0; got " + n(x));
      }
    }
  }
  return std::nullopt;
}

AttentionKind attention_kind(const Model& m) {
  if (m.kv_rank > 0) return AttentionKind::mla;
  if (m.K == m.N) return AttentionKind::mha;
  return m.K == 1 ? AttentionKind::mqa : AttentionKind::gqa;
}

const char* to_string(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::mha:
      return "MHA";
    case AttentionKind::gqa:
      return "GQA";
    case AttentionKind::mqa:
      return "MQA";
    case AttentionKind::mla:
      return "MLA";
  }
  return "MHA";
}

ParamCounts count_params(const Model& m) {
  ParamCounts c;
  if (m.kv_rank > 0) {
    double qk = m.H + m.rope_dim;  // query/key head width
    double q = m.q_rank > 0 ? m.D * m.q_rank + m.q_rank * m.N * qk : m.D * m.N * qk;
    double kv = m.D * (m.kv_rank + m.rope_dim) + m.kv_rank * m.N * 2 * m.H;
    c.attention_layer = q + kv + m.N * m.H * m.D;
  } else {
    c.attention_layer = 2 * m.D * m.H * (m.N + m.K);  // W_Q, W_O: DNH; W_K, W_V: DKH
  }
  double matrices = m.gated ? 3 : 2;
  c.mlp_dense_layer = matrices * m.D * m.F;
  c.moe_layers = m.E > 0 ? m.L - m.dense_layers : 0;
  double dense_count = m.L - c.moe_layers;
  c.expert = m.E > 0 ? matrices * m.D * (m.F_expert > 0 ? m.F_expert : m.F) : 0;
  c.mlp_layer = m.E > 0 ? (m.E + m.shared_experts) * c.expert : c.mlp_dense_layer;
  c.norm_layer = m.norms_per_layer * m.D + m.q_rank + m.kv_rank;
  c.attention = m.L * c.attention_layer;
  c.mlp = dense_count * c.mlp_dense_layer + c.moe_layers * c.mlp_layer;
  c.mlp_active = dense_count * c.mlp_dense_layer +
                 c.moe_layers * (m.experts_per_token + m.shared_experts) * c.expert;
  c.router = c.moe_layers * m.E * m.D;
  c.embedding = (m.tied ? 1 : 2) * m.V * m.D;
  c.norm = m.L * c.norm_layer + (m.final_norm ? m.D : 0);
  c.total = c.embedding + c.attention + c.mlp + c.router + c.norm;
  c.active = c.total - c.mlp + c.mlp_active;
  return c;
}

double kv_elements_per_token(const Model& m) {
  return m.kv_rank > 0 ? m.L * (m.kv_rank + m.rope_dim) : 2 * m.L * m.K * m.H;
}

double attention_flops_per_key(const Model& m) { return m.L * 2 * m.N * (m.H + m.rope_dim + m.H); }

double matmul_flops_per_token(const Model& m, const ParamCounts& c) {
  return 2 * (c.mlp_active + c.attention + c.router + m.D * m.V);
}

}  // namespace scalebook
