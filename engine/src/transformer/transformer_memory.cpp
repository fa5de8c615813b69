// The transformer calculator's memory: the KV cache (chapter 4, "Key-Value caching"),
// activations under each remat policy ("Gradient checkpointing") and the training state.
#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "transformer_parts.h"

namespace scalebook::transformer_parts {
namespace {

std::string n(double x) { return latex_number(x); }

std::string q(double x, const char* unit) { return latex_quantity(x, unit); }

// The book's estimate of the intermediates a layer keeps for backprop without remat, in
// D-wide tensors per token (chapter 4: "~20").
constexpr double kSavedWithoutRemat = 20;

void add_kv(const Setup& s, Sheet& sheet) {
  const Model& m = *s.model;
  bool mla = m.kv_rank > 0;
  double per_token = kv_elements_per_token(m) * s.kv;
  sheet.add(
      "kv_bytes_per_token",
      mla ? "KV cache per token: the key/value latent and the RoPE key, every layer"
          : "KV cache per token: a key and a value of K heads, every layer",
      [&] {
        std::string latex = mla ? "L (C_{kv} + R) b_{kv} = " + n(m.L) + " \\cdot (" + n(m.kv_rank) +
                                      " + " + n(m.rope_dim) + ") \\cdot " + n(s.kv)
                                : "2 L K H b_{kv} = " + times({2, m.L, m.K, m.H, s.kv});
        return std::string(latex + " = " + q(per_token, "B"));
      },
      per_token, "B");
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

// Widths (elements per token) of the tensors a policy saves, in a fixed array: the
// numbers-only path allocates nothing for them.
class Widths {
 public:
  void push_back(double width) { widths_[size_++] = width; }
  void append(const Widths& other) {
    for (double w : other) push_back(w);
  }
  const double* begin() const { return widths_.data(); }
  const double* end() const { return widths_.data() + size_; }
  double total() const {
    double sum = 0;
    for (double w : *this) sum += w;
    return sum;
  }

 private:
  std::array<double, 8> widths_{};  // the 7 big matmuls' outputs at most
  std::size_t size_ = 0;
};

// What each policy saves in one layer, averaged over the layers when an MoE model keeps
// dense ones.
struct Saved {
  Widths attention;  // outputs of the attention matmuls
  Widths mlp;        // outputs of the MLP matmuls: in (1 or 2) and out
};

Saved saved_widths(const Setup& s) {
  const Model& m = *s.model;
  const ParamCounts& p = s.params;
  Saved w;
  if (m.kv_rank > 0) {
    if (m.q_rank > 0) w.attention.push_back(m.q_rank);
    w.attention.push_back(m.N * (m.H + m.rope_dim));
    w.attention.push_back(m.kv_rank + m.rope_dim);
    w.attention.push_back(2 * m.N * m.H);
  } else {
    w.attention.push_back(m.N * m.H);
    w.attention.push_back(2 * m.K * m.H);
  }
  w.attention.push_back(m.D);
  double in = m.gated ? 2 : 1;
  double hidden = m.F;
  if (m.E > 0) {
    double expert_F = m.F_expert > 0 ? m.F_expert : m.F;
    double moe_hidden = (m.experts_per_token + m.shared_experts) * expert_F;
    hidden = (m.dense_layers * m.F + p.moe_layers * moe_hidden) / m.L;
  }
  w.mlp.push_back(in * hidden);
  w.mlp.push_back(m.D);
  return w;
}

SB_EXPLAIN_ONLY std::string sum_latex(const Widths& terms) {
  std::string out;
  for (double t : terms) out += (out.empty() ? "" : " + ") + n(t);
  return "(" + out + ")";
}

// Returns the activations saved, all layers.
double add_activations(const Setup& s, Sheet& sheet) {
  const Model& m = *s.model;
  double tokens = s.B * s.T;
  Saved w = saved_widths(s);
  Widths big = w.attention;
  big.append(w.mlp);
  struct Policy {
    std::string_view name;
    const char* output;
    const char* label;
    double width;
    std::function<std::string()> widths_latex;
  };
  const Policy policies[] = {
      {"none", "act_layer_none",
       "Activations per layer without remat: about 20 D-wide intermediates per token (the "
       "book's estimate)",
       kSavedWithoutRemat * m.D, [&] { return n(kSavedWithoutRemat) + " \\cdot " + n(m.D); }},
      {"big-matmuls", "act_layer_big_matmuls",
       "Activations per layer saving the outputs of the 7 big matmuls (Q, K, V, O and the "
       "MLP's)",
       big.total(), [&] { return sum_latex(big); }},
      {"ffw-matmuls", "act_layer_ffw_matmuls",
       "Activations per layer saving the MLP's 3 matmul outputs (its two D x F inputs and the "
       "output)",
       w.mlp.total(), [&] { return sum_latex(w.mlp); }},
      {"block", "act_layer_block", "Activations per layer saving only the layer's input", m.D,
       [&] { return n(m.D); }},
  };
  double chosen = 0;
  const char* chosen_output = "";
  for (const Policy& p : policies) {
    double bytes = p.width * tokens * s.a;
    sheet.add(p.output, p.label,
              [&] {
                return std::string(p.widths_latex() + " \\cdot BT \\cdot b_a = " +
                                   times({p.width, tokens, s.a}) + " = " + q(bytes, "B"));
              },
              bytes, "B", {"tokens"});
    if (p.name == s.remat) {
      chosen = bytes;
      chosen_output = p.output;
    }
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
    sheet.add(
        "act_layer", [&] { return "Activations per layer under remat " + std::string(s.remat); },
        [&] { return std::string(q(chosen, "B")); }, chosen, "B", {chosen_output});
  }
  return sheet.add("activation_bytes", "Activations saved, all layers",
                   [&] {
                     return std::string("L \\cdot " + n(chosen) + " = " + times({m.L, chosen}) +
                                        " = " + q(m.L * chosen, "B"));
                   },
                   m.L * chosen, "B", {"act_layer"});
}

void add_training_state(const Setup& s, Sheet& sheet, double acts) {
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
  sheet.add(
      "optimizer_bytes",
      [&] {
        return "Optimizer state: " + std::string(s.optimizer) + " keeps " +
               format_number(s.optimizer_states) + " values per parameter";
      },
      [&] {
        return std::string("P s b_o = " + times({P, s.optimizer_states, s.opt}) + " = " +
                           q(opt, "B"));
      },
      opt, "B", {"params"});
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
  add_training_state(s, sheet, add_activations(s, sheet));
}

}  // namespace scalebook::transformer_parts
