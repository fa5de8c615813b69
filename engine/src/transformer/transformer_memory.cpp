// The transformer calculator's memory: the KV cache (chapter 4, "Key-Value caching"),
// activations under each remat policy ("Gradient checkpointing") and the training state.
#include <algorithm>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "transformer_parts.h"

namespace scalebook::transformer_parts {
namespace {

std::string n(double x) { return latex_number(x); }

std::string q(double x, const std::string& unit) { return latex_quantity(x, unit); }

// The book's estimate of the intermediates a layer keeps for backprop without remat, in
// D-wide tensors per token (chapter 4: "~20").
constexpr double kSavedWithoutRemat = 20;

void add_kv(const Setup& s, Sheet& sheet) {
  const Model& m = s.model;
  bool mla = m.kv_rank > 0;
  double per_token = mla ? m.L * (m.kv_rank + m.rope_dim) * s.kv : 2 * m.L * m.K * m.H * s.kv;
  std::string latex = mla ? "L (C_{kv} + R) b_{kv} = " + n(m.L) + " \\cdot (" + n(m.kv_rank) +
                                " + " + n(m.rope_dim) + ") \\cdot " + n(s.kv)
                          : "2 L K H b_{kv} = " + times({2, m.L, m.K, m.H, s.kv});
  sheet.add(
      "kv_bytes_per_token",
      mla ? "KV cache per token: the key/value latent and the RoPE key, every layer"
          : "KV cache per token: a key and a value of K heads, every layer",
      [&] { return std::string(latex + " = " + q(per_token, "B")); }, per_token, "B");
  sheet.add("kv_bytes_per_sequence", "KV cache of one sequence of S tokens",
            [&] {
              return std::string("S \\cdot " + n(per_token) + " = " + times({s.S, per_token}) +
                                 " = " + q(per_token * s.S, "B"));
            },
            per_token * s.S, "B", {"kv_bytes_per_token"});
  sheet.add("kv_cache_bytes", "KV cache of the batch",
            [&] {
              return std::string("B \\cdot " + n(per_token * s.S) + " = " +
                                 times({s.B, per_token * s.S}) + " = " +
                                 q(per_token * s.S * s.B, "B"));
            },
            per_token * s.S * s.B, "B", {"kv_bytes_per_sequence"});
}

// Widths (elements per token) of what each policy saves in one layer, averaged over the layers
// when an MoE model keeps dense ones.
struct Saved {
  std::vector<double> attention;  // outputs of the attention matmuls
  std::vector<double> mlp;        // outputs of the MLP matmuls: in (1 or 2) and out
  double total(const std::vector<double>& terms) const {
    double sum = 0;
    for (double t : terms) sum += t;
    return sum;
  }
};

Saved saved_widths(const Setup& s) {
  const Model& m = s.model;
  const ParamCounts& p = s.params;
  Saved w;
  if (m.kv_rank > 0) {
    if (m.q_rank > 0) w.attention.push_back(m.q_rank);
    w.attention.push_back(m.N * (m.H + m.rope_dim));
    w.attention.push_back(m.kv_rank + m.rope_dim);
    w.attention.push_back(2 * m.N * m.H);
  } else {
    w.attention = {m.N * m.H, 2 * m.K * m.H};
  }
  w.attention.push_back(m.D);
  double in = m.gated ? 2 : 1;
  double hidden = m.F;
  if (m.E > 0) {
    double expert_F = m.F_expert > 0 ? m.F_expert : m.F;
    double moe_hidden = (m.experts_per_token + m.shared_experts) * expert_F;
    hidden = (m.dense_layers * m.F + p.moe_layers * moe_hidden) / m.L;
  }
  w.mlp = {in * hidden, m.D};
  return w;
}

std::string sum_latex(const std::vector<double>& terms) {
  std::string out;
  for (double t : terms) out += (out.empty() ? "" : " + ") + n(t);
  return "(" + out + ")";
}

void add_activations(const Setup& s, Sheet& sheet) {
  const Model& m = s.model;
  double tokens = s.B * s.T;
  Saved w = saved_widths(s);
  std::vector<double> big = w.attention;
  big.insert(big.end(), w.mlp.begin(), w.mlp.end());
  struct Policy {
    std::string name, output, label, widths_latex;
    double width;
  };
  std::vector<Policy> policies = {
      {"none", "act_layer_none",
       "Activations per layer without remat: about 20 D-wide intermediates per token (the "
       "book's estimate)",
       n(kSavedWithoutRemat) + " \\cdot " + n(m.D), kSavedWithoutRemat * m.D},
      {"big-matmuls", "act_layer_big_matmuls",
       "Activations per layer saving the outputs of the 7 big matmuls (Q, K, V, O and the "
       "MLP's)",
       sum_latex(big), w.total(big)},
      {"ffw-matmuls", "act_layer_ffw_matmuls",
       "Activations per layer saving the MLP's 3 matmul outputs (its two D x F inputs and the "
       "output)",
       sum_latex(w.mlp), w.total(w.mlp)},
      {"block", "act_layer_block", "Activations per layer saving only the layer's input", n(m.D),
       m.D},
  };
  double chosen = 0;
  for (const Policy& p : policies) {
    double bytes = p.width * tokens * s.a;
    sheet.add(p.output, p.label,
              [&] {
                return std::string(p.widths_latex + " \\cdot BT \\cdot b_a = " +
                                   times({p.width, tokens, s.a}) + " = " + q(bytes, "B"));
              },
              bytes, "B", {"tokens"});
    if (p.name == s.remat) chosen = bytes;
  }
  if (s.has_checkpoints) {
    chosen = s.checkpoints * m.D * tokens * s.a;
    sheet.add("act_layer", "Activations per layer: the given checkpoints, each D wide",
              [&] {
                return std::string(
                    "c D \\cdot BT \\cdot b_a = " + times({s.checkpoints, m.D, tokens, s.a}) +
                    " = " + q(chosen, "B"));
              },
              chosen, "B", {"tokens"});
  } else {
    std::string policy_output = "act_layer_" + s.remat;
    std::replace(policy_output.begin(), policy_output.end(), '-', '_');
    sheet.add("act_layer", "Activations per layer under remat " + s.remat,
              [&] { return std::string(q(chosen, "B")); }, chosen, "B", {policy_output});
  }
  sheet.add("activation_bytes", "Activations saved, all layers",
            [&] {
              return std::string("L \\cdot " + n(chosen) + " = " + times({m.L, chosen}) + " = " +
                                 q(m.L * chosen, "B"));
            },
            m.L * chosen, "B", {"act_layer"});
}

void add_training_state(const Setup& s, Sheet& sheet) {
  double P = s.params.total;
  double weights =
      sheet.add("weight_bytes", "Weights",
                [&] {
                  return std::string("P b_w = " + times({P, s.w}) + " = " + q(P * s.w, "B"));
                },
                P * s.w, "B", {"params"});
  double grads =
      sheet.add("gradient_bytes", "Gradients, one per weight in its format",
                [&] {
                  return std::string("P b_w = " + times({P, s.w}) + " = " + q(P * s.w, "B"));
                },
                P * s.w, "B", {"params"});
  double opt = P * s.optimizer_states * s.opt;
  sheet.add("optimizer_bytes",
            "Optimizer state: " + s.optimizer + " keeps " + format_number(s.optimizer_states) +
                " values per parameter",
            [&] {
              return std::string("P s b_o = " + times({P, s.optimizer_states, s.opt}) + " = " +
                                 q(opt, "B"));
            },
            opt, "B", {"params"});
  double acts = sheet.number("activation_bytes");
  double total = weights + grads + opt + acts;
  sheet.add("training_bytes", "Training memory: weights, gradients, optimizer state, activations",
            [&] {
              return std::string(n(weights) + " + " + n(grads) + " + " + n(opt) + " + " + n(acts) +
                                 " = " + q(total, "B"));
            },
            total, "B", {"weight_bytes", "gradient_bytes", "optimizer_bytes", "activation_bytes"});
}

}  // namespace

void add_memory(const Setup& s, Sheet& sheet) {
  add_kv(s, sheet);
  add_activations(s, sheet);
  add_training_state(s, sheet);
}

}  // namespace scalebook::transformer_parts
