// The transformer calculator's `blocks` list: every contraction of one layer as chapter 4's
// layer figure draws it, with its operand shapes, its parameters and its FLOPs, so a picture of
// the layer prints the engine's numbers instead of multiplying shapes itself. An MoE model's
// layer is one of its MoE layers (its leading dense layers have the dense MLP of width F).
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "transformer_parts.h"

namespace scalebook::transformer_parts {
namespace {

struct Dim {
  std::string name;
  double size;
};

std::string letters(const std::vector<Dim>& dims) {
  std::string out;
  for (const Dim& d : dims) out += (out.empty() ? "" : ",") + d.name;
  return out;
}

std::string sizes(const std::vector<Dim>& dims) {
  std::string out;
  for (const Dim& d : dims) out += (out.empty() ? "" : " \xC3\x97 ") + format_number(d.size);
  return out;
}

class Rows {
 public:
  explicit Rows(const Setup& s) : tokens_(s.B * s.T) {}

  // One contraction. `per_token`: forward FLOPs per token in one layer; `formula`: the
  // training FLOPs of one layer in the book's letters.
  void add(const std::string& id, const std::string& group, const std::string& name,
           const std::vector<Dim>& left, const std::vector<Dim>& right, const std::vector<Dim>& out,
           double params, double per_token, const std::string& formula) {
    table_.rows.push_back({Value::of(id), Value::of(group), Value::of(name),
                           Value::of(letters(left)), Value::of(letters(right)),
                           Value::of(letters(out)), Value::of(sizes(left)), Value::of(sizes(right)),
                           Value::of(sizes(out)), Value::of(params), Value::of(per_token),
                           Value::of(3 * per_token * tokens_), Value::of(formula)});
  }

  Table finish() && {
    for (const OutputSpec& c : block_columns()) table_.columns.push_back(c.name);
    return std::move(table_);
  }

 private:
  double tokens_;
  Table table_;
};

void add_projections(const Setup& s, Rows& rows) {
  const Model& m = *s.model;
  Dim B{"B", s.B}, T{"T", s.T}, S{"S", s.T}, D{"D", m.D}, N{"N", m.N}, K{"K", m.K}, H{"H", m.H};
  if (m.kv_rank > 0) {
    Dim Cq{"C_q", m.q_rank}, Ckv{"C_kv", m.kv_rank}, HR{"H+R", m.H + m.rope_dim};
    Dim CR{"C_kv+R", m.kv_rank + m.rope_dim};
    if (m.q_rank > 0) {
      rows.add("q_down", "attention", "W_DQ", {B, T, D}, {D, Cq}, {B, T, Cq}, m.D * m.q_rank,
               2 * m.D * m.q_rank, "6BTDC_q");
      rows.add("q", "attention", "W_UQ", {B, T, Cq}, {Cq, N, HR}, {B, T, N, HR},
               m.q_rank * m.N * HR.size, 2 * m.q_rank * m.N * HR.size, "6BTC_qN(H+R)");
    } else {
      rows.add("q", "attention", "W_Q", {B, T, D}, {D, N, HR}, {B, T, N, HR}, m.D * m.N * HR.size,
               2 * m.D * m.N * HR.size, "6BTDN(H+R)");
    }
    rows.add("kv_down", "attention", "W_DKV", {B, S, D}, {D, CR}, {B, S, CR}, m.D * CR.size,
             2 * m.D * CR.size, "6BTD(C_kv+R)");
    rows.add("k", "attention", "W_UK", {B, S, Ckv}, {Ckv, N, H}, {B, S, N, H},
             m.kv_rank * m.N * m.H, 2 * m.kv_rank * m.N * m.H, "6BTC_kvNH");
    rows.add("v", "attention", "W_UV", {B, S, Ckv}, {Ckv, N, H}, {B, S, N, H},
             m.kv_rank * m.N * m.H, 2 * m.kv_rank * m.N * m.H, "6BTC_kvNH");
    return;
  }
  rows.add("q", "attention", "W_Q", {B, T, D}, {D, N, H}, {B, T, N, H}, m.D * m.N * m.H,
           2 * m.D * m.N * m.H, "6BTDNH");
  rows.add("k", "attention", "W_K", {B, S, D}, {D, K, H}, {B, S, K, H}, m.D * m.K * m.H,
           2 * m.D * m.K * m.H, "6BTDKH");
  rows.add("v", "attention", "W_V", {B, S, D}, {D, K, H}, {B, S, K, H}, m.D * m.K * m.H,
           2 * m.D * m.K * m.H, "6BTDKH");
}

// QK and AV, batched over B and the key/value heads, over S = T keys (half under a causal mask).
void add_dot_products(const Setup& s, Rows& rows) {
  const Model& m = *s.model;
  bool mla = m.kv_rank > 0;
  double c = s.causal ? 0.5 : 1;
  double qk_width = m.H + m.rope_dim;
  Dim B{"B", s.B}, T{"T", s.T}, S{"S", s.T}, H{"H", m.H};
  Dim K = mla ? Dim{"N", m.N} : Dim{"K", m.K};
  Dim G{"G", m.N / K.size};
  Dim HR = mla ? Dim{"H+R", qk_width} : H;
  std::string half = s.causal ? "\xC2\xBD\xC2\xB7" : "";
  std::vector<Dim> scores = mla ? std::vector<Dim>{B, T, S, K} : std::vector<Dim>{B, T, S, K, G};
  std::vector<Dim> q = mla ? std::vector<Dim>{B, T, K, HR} : std::vector<Dim>{B, T, K, G, H};
  std::vector<Dim> o = mla ? std::vector<Dim>{B, T, K, H} : std::vector<Dim>{B, T, K, G, H};
  rows.add("qk", "dot-product", "Q\xC2\xB7K", q, {B, S, K, HR}, scores, 0,
           c * 2 * s.T * m.N * qk_width, half + (mla ? "6BTSN(H+R)" : "6BTSNH"));
  rows.add("av", "dot-product", "softmax\xC2\xB7V", scores, {B, S, K, H}, o, 0,
           c * 2 * s.T * m.N * m.H, half + "6BTSNH");
}

void add_output(const Setup& s, Rows& rows) {
  const Model& m = *s.model;
  Dim B{"B", s.B}, T{"T", s.T}, D{"D", m.D}, N{"N", m.N}, H{"H", m.H};
  rows.add("o", "attention", "W_O", {B, T, N, H}, {N, H, D}, {B, T, D}, m.N * m.H * m.D,
           2 * m.N * m.H * m.D, "6BTDNH");
}

void add_mlp(const Setup& s, Rows& rows) {
  const Model& m = *s.model;
  Dim B{"B", s.B}, T{"T", s.T}, D{"D", m.D};
  bool moe = m.E > 0;
  double width = moe && m.F_expert > 0 ? m.F_expert : m.F;
  Dim F{"F", width};
  if (!moe) {
    std::vector<std::string> names =
        m.gated ? std::vector<std::string>{"in1", "in2"} : std::vector<std::string>{"in"};
    for (const std::string& id : names) {
      rows.add(id, "mlp", "W_" + id, {B, T, D}, {D, F}, {B, T, F}, m.D * width, 2 * m.D * width,
               "6BTDF");
    }
    rows.add("out", "mlp", "W_out", {B, T, F}, {F, D}, {B, T, D}, width * m.D, 2 * width * m.D,
             "6BTDF");
    return;
  }
  // Every expert's weights are the layer's; a token runs its k routed and the shared ones.
  double experts = m.E + m.shared_experts;
  double used = m.experts_per_token + m.shared_experts;
  Dim E{"E", m.E};
  rows.add("router", "mlp", "W_router", {B, T, D}, {D, E}, {B, T, E}, m.D * m.E, 2 * m.D * m.E,
           "6BTDE");
  std::string k = m.shared_experts > 0 ? "(k+E_s)" : "k";
  Dim X{m.shared_experts > 0 ? "E+E_s" : "E", experts};
  Dim kd{k, used};
  std::vector<std::string> names =
      m.gated ? std::vector<std::string>{"in1", "in2"} : std::vector<std::string>{"in"};
  for (const std::string& id : names) {
    rows.add(id, "mlp", "W_" + id, {B, T, D}, {X, D, F}, {B, T, kd, F}, experts * m.D * width,
             used * 2 * m.D * width, "6BT" + k + "DF");
  }
  rows.add("out", "mlp", "W_out", {B, T, kd, F}, {X, F, D}, {B, T, D}, experts * width * m.D,
           used * 2 * width * m.D, "6BT" + k + "DF");
}

}  // namespace

std::vector<OutputSpec> block_columns() {
  return {
      {"block", "", "which contraction: q, k, v, qk, av, o, in1, in2 (or in), out, router, ...",
       true, "Block"},
      {"group", "", "attention (projections), dot-product or mlp", true, "Group"},
      {"name", "", "the weight (W_Q, ...) or the product (Q\xC2\xB7K)", true, "Name"},
      {"left", "", "dimensions of the left operand (the activations)", true, "Left operand"},
      {"right", "", "dimensions of the right operand (the weight, or K and V)", true,
       "Right operand"},
      {"out", "", "dimensions of the result", true, "Result"},
      {"left_size", "", "sizes of the left operand", true, "Left operand sizes"},
      {"right_size", "", "sizes of the right operand", true, "Right operand sizes"},
      {"out_size", "", "sizes of the result", true, "Result sizes"},
      {"params", "params", "parameters in one layer", false, "Parameters"},
      {"flops_token", "FLOP", "forward FLOPs per token in one layer", false, "FLOPs per token"},
      {"flops_training", "FLOP", "training FLOPs of one layer for the step's B T tokens", false,
       "Training FLOPs"},
      {"formula", "", "the training FLOPs of one layer in the book's letters", true, "Formula"},
  };
}

void add_blocks(const Setup& s, Sheet& sheet) {
  Rows rows(s);
  add_projections(s, rows);
  add_dot_products(s, rows);
  add_output(s, rows);
  add_mlp(s, rows);
  sheet.table("blocks", std::move(rows).finish());
}

}  // namespace scalebook::transformer_parts
