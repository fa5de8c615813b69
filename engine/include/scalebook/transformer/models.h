#pragma once
// The model catalog: the Transformer configurations the book uses, in its notation (chapter 4),
// each field with where its value comes from. Beside the hardware catalog (catalog.h).
//
// What a configuration describes, and what it leaves out:
//   - L layers, each an attention block and an MLP block, with norms_per_layer D-wide norm
//     weights; a final norm after the last layer when final_norm is yes.
//   - Attention: N query heads and K key/value heads of width H (MHA when K = N, MQA when
//     K = 1, GQA otherwise; K divides N). With kv_rank > 0 it is DeepSeek's multi-head latent
//     attention (MLA): keys and values come out of a kv_rank-wide latent (what the KV cache
//     holds, with rope_dim more for the decoupled RoPE key), queries out of a q_rank-wide one
//     (full rank when q_rank is 0), and query/key heads are H + rope_dim wide.
//   - MLP: gated (W_in1, W_in2, W_out: 3DF parameters) or plain (W_in, W_out: 2DF).
//   - Mixture of experts when E > 0: the first dense_layers layers keep a dense MLP of width F;
//     every other layer has E routed experts and shared_experts shared ones, each an MLP of
//     width F_expert (F when 0), and a router (E x D); a token uses experts_per_token routed
//     experts (the book's k) and every shared one.
//   - Embeddings: V x D, used for input and output (tied) or one each (untied: 2DV).
//   - No biases: none of the book's models has any (LLaMA, Gemma and DeepSeek drop them).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/core/value.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook {

struct Model {
  std::string id;    // lower-case with dashes: llama-3-70b
  std::string name;  // as a reader knows it: LLaMA 3 70B
  double L = 0;      // layers
  double D = 0;      // model (residual) width, d_model
  double F = 0;      // MLP hidden width of one matrix (each branch of a gated MLP)
  double N = 0;      // query heads
  double K = 0;      // key/value heads
  double H = 0;      // head width
  double V = 0;      // vocabulary
  bool gated = true;
  bool tied = false;
  double norms_per_layer = 2;  // D-wide norm weight vectors in one layer
  bool final_norm = true;
  double E = 0;                  // routed experts per MoE layer; 0: a dense model
  double experts_per_token = 0;  // routed experts a token uses (the book's k)
  double shared_experts = 0;     // experts every token uses
  double F_expert = 0;           // hidden width of one expert; 0: F
  double dense_layers = 0;       // leading layers with a dense MLP in an MoE model
  double q_rank = 0;             // MLA query latent width; 0: full-rank queries
  double kv_rank = 0;            // MLA key/value latent width; 0: plain attention
  double rope_dim = 0;           // MLA decoupled RoPE width per query/key head
  std::vector<SourceNote> notes;
};

const std::vector<Model>& models();
const Model* find_model(std::string_view id);
std::vector<std::string> model_ids();

// One configuration field, as every face (CLI, WASM, calculator overrides) lists it.
struct ModelFieldSpec {
  std::string name;  // L, D, ..., gated, experts_per_token, ...
  std::string unit;  // a count's noun ("layers", "heads") or empty
  std::string description;
  bool yes_no = false;  // a yes|no choice; otherwise a whole number in [min, max]
  double min = 0;
  double max = 0;
  std::string label;  // what a form calls it: "Layers L"
};

struct ModelField {
  std::string name;
  Value value;  // a number, or "yes" / "no"
  std::string unit;
  std::string description;
  std::string note;  // where the value comes from
};

// Every field in display order: the shape, the MLP and norms, the experts, latent attention.
const std::vector<ModelFieldSpec>& model_field_specs();
const ModelFieldSpec* find_model_field_spec(std::string_view name);
std::vector<ModelField> model_fields(const Model& model);
std::string model_note(const Model& model, std::string_view field);

// Sets a field by name: a number, or "yes"/"no" for a yes|no field (given as text). False when
// `name` is not a field or the value's kind does not fit it.
bool set_model_field(Model& model, std::string_view name, const Value& value);

// The rules a configuration must keep beyond each field's range: K divides N, a model with
// experts routes each token to 1..E of them, expert fields only with experts, dense_layers
// at most L, q_rank and rope_dim only with kv_rank. The error names the field to fix.
std::optional<Error> check_model(const Model& model);

enum class AttentionKind { mha, gqa, mqa, mla };
AttentionKind attention_kind(const Model& model);
const char* to_string(AttentionKind kind);  // "MHA", "GQA", "MQA", "MLA"

// Parameter counts, in parameters. Attention and MLP per layer are of one MoE layer when the
// model has experts (a dense leading layer's MLP is mlp_dense_layer).
struct ParamCounts {
  double attention_layer = 0;  // projections: 2DH(N + K), or MLA's five matrices
  double mlp_layer = 0;        // gated 3DF (plain 2DF); an MoE layer: (E + shared) experts
  double mlp_dense_layer = 0;  // a dense layer's MLP
  double expert = 0;           // one expert's matrices (0 for a dense model)
  double norm_layer = 0;       // norms_per_layer D, plus MLA's latent norms
  double moe_layers = 0;       // layers with experts
  double attention = 0;        // all layers
  double mlp = 0;              // all layers, every expert (no router)
  double mlp_active = 0;       // the MLP weights one token uses, all layers
  double router = 0;           // E x D per MoE layer
  double embedding = 0;        // DV tied, 2DV untied
  double norm = 0;             // all layers and the final norm
  double total = 0;
  double active = 0;  // what one token uses: total less the routed experts it skips
};

ParamCounts count_params(const Model& model);

// Per-token costs of a forward pass (chapter 4), one definition for the transformer calculator
// and the models of a step (inference) to share.
// Elements the KV cache keeps per token, all layers: a key and a value of K heads, or MLA's
// latent and RoPE key.
double kv_elements_per_token(const Model& model);
// Dot-product attention FLOPs per token per key it attends to, all layers: QK over H (+ R)
// and AV over H.
double attention_flops_per_key(const Model& model);
// Matmul FLOPs per token, forward: 2 per weight the token uses (its experts and the router,
// the projections, the unembedding's DV; the input embedding is a lookup).
double matmul_flops_per_token(const Model& model, const ParamCounts& counts);

}  // namespace scalebook
