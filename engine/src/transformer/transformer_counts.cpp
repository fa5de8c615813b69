// The transformer calculator's parameter and FLOP counts (chapter 4, "Global FLOPs and Params
// Calculation"), with their worked steps.
#include <string>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/transformer/remat.h"
#include "transformer_parts.h"

namespace scalebook::transformer_parts {
namespace {

std::string n(double x) { return latex_number(x); }

std::string q(double x, const char* unit) { return latex_quantity(x, unit); }

bool is_moe(const Model& m) { return m.E > 0; }

bool is_mla(const Model& m) { return m.kv_rank > 0; }

std::string mats(const Model& m) { return m.gated ? "3" : "2"; }

SB_EXPLAIN_ONLY std::string attention_layer_latex(const Model& m, const ParamCounts& p) {
  std::string attn;
  if (is_mla(m)) {
    std::string query = m.q_rank > 0 ? "D C_q + C_q N (H + R)" : "D N (H + R)";
    std::string query_n =
        m.q_rank > 0 ? times({m.D, m.q_rank}) + " + " + times({m.q_rank, m.N}) + " \\cdot (" +
                           n(m.H) + " + " + n(m.rope_dim) + ")"
                     : times({m.D, m.N}) + " \\cdot (" + n(m.H) + " + " + n(m.rope_dim) + ")";
    attn = query + " + D (C_{kv} + R) + 2 C_{kv} N H + N H D = " + query_n + " + " + n(m.D) +
           " \\cdot (" + n(m.kv_rank) + " + " + n(m.rope_dim) + ") + " +
           times({2, m.kv_rank, m.N, m.H}) + " + " + times({m.N, m.H, m.D}) + " = " +
           q(p.attention_layer, "params");
  } else {
    attn = "2DH(N + K) = " + times({2, m.D, m.H}) + " \\cdot (" + n(m.N) + " + " + n(m.K) +
           ") = " + q(p.attention_layer, "params");
  }
  return attn;
}

void add_layer_params(const Setup& s, Sheet& sheet) {
  const Model& m = *s.model;
  const ParamCounts& p = s.params;
  sheet.add(
      "params_attention_layer",
      is_mla(m) ? "Latent attention (MLA) projections of one layer"
                : "Attention projections of one layer (W_Q, W_O: DNH; W_K, W_V: DKH)",
      [&] { return attention_layer_latex(m, p); }, p.attention_layer, "params");
  sheet.add(
      "params_mlp_layer",
      [&] {
        return is_moe(m) ? std::string("MLP of one MoE layer: every routed and shared expert")
                         : std::string("MLP of one layer (") + (m.gated ? "gated: " : "plain: ") +
                               mats(m) + " matrices of D x F)";
      },
      [&] {
        std::string mlp =
            is_moe(m) ? "(E + E_s) \\cdot " + mats(m) + " D F_e = (" + n(m.E) + " + " +
                            n(m.shared_experts) + ") \\cdot " +
                            times({m.gated ? 3.0 : 2.0, m.D, m.F_expert > 0 ? m.F_expert : m.F})
                      : mats(m) + "DF = " + times({m.gated ? 3.0 : 2.0, m.D, m.F});
        return std::string(mlp + " = " + q(p.mlp_layer, "params"));
      },
      p.mlp_layer, "params");
}

void add_model_params(const Setup& s, Sheet& sheet) {
  const Model& m = *s.model;
  const ParamCounts& p = s.params;
  sheet.add("params_attention", "Attention projections, all layers",
            [&] {
              return std::string("L \\cdot P_\\text{attn} = " + times({m.L, p.attention_layer}) +
                                 " = " + q(p.attention, "params"));
            },
            p.attention, "params", {"params_attention_layer"});
  sheet.add("params_mlp", "MLPs, all layers",
            [&] {
              std::string mlp = "L \\cdot P_\\text{mlp} = " + times({m.L, p.mlp_layer});
              if (is_moe(m) && m.dense_layers > 0) {
                mlp = "L_d \\cdot " + mats(m) + "DF + (L - L_d) P_\\text{mlp} = " +
                      times({m.dense_layers, p.mlp_dense_layer}) + " + " +
                      times({p.moe_layers, p.mlp_layer});
              }
              return std::string(mlp + " = " + q(p.mlp, "params"));
            },
            p.mlp, "params", {"params_mlp_layer"});
  if (is_moe(m)) {
    sheet.add(
        "params_router", "Routers: E x D in each MoE layer",
        [&] {
          return std::string("(L - L_d) E D = " + times({p.moe_layers, m.E, m.D}) + " = " +
                             q(p.router, "params"));
        },
        p.router, "params");
  } else {
    sheet.set("params_router", 0.0);
  }
  sheet.add(
      "params_embedding",
      m.tied ? "Embedding, tied: one V x D matrix in and out"
             : "Embedding and unembedding, untied: two V x D matrices",
      [&] {
        return std::string(std::string(m.tied ? "VD = " : "2VD = ") +
                           times({m.tied ? 1.0 : 2.0, m.V, m.D}) + " = " +
                           q(p.embedding, "params"));
      },
      p.embedding, "params");
  sheet.add(
      "params_norm",
      [&] {
        return "Norm weights: n = " + format_number(m.norms_per_layer) + " D-wide norms per layer" +
               (m.final_norm ? ", and a final one" : "");
      },
      [&] {
        std::string norm =
            "L n D" + std::string(is_mla(m) ? " + L (C_q + C_{kv})" : "") +
            (m.final_norm ? " + D" : "") + " = " + times({m.L, m.norms_per_layer, m.D}) +
            (is_mla(m) ? " + " + n(m.L) + " \\cdot (" + n(m.q_rank) + " + " + n(m.kv_rank) + ")"
                       : "") +
            (m.final_norm ? " + " + n(m.D) : "");
        return std::string(norm + " = " + q(p.norm, "params"));
      },
      p.norm, "params");
  sheet.add("params", "Total parameters",
            [&] {
              std::string router = is_moe(m) ? " + P_\\text{router}" : "";
              std::string router_n = is_moe(m) ? " + " + n(p.router) : "";
              return std::string("P = P_\\text{emb} + P_\\text{attn} + P_\\text{mlp}" + router +
                                 " + P_\\text{norm} = " + n(p.embedding) + " + " + n(p.attention) +
                                 " + " + n(p.mlp) + router_n + " + " + n(p.norm) + " = " +
                                 q(p.total, "params"));
            },
            p.total, "params",
            {"params_embedding", "params_attention", "params_mlp", "params_norm",
             is_moe(m) ? "params_router" : ""});
  sheet.add(
      "params_active",
      is_moe(m) ? "Parameters one token uses: its k routed experts and the shared ones"
                : "Parameters one token uses: all of them (dense)",
      [&] {
        if (!is_moe(m)) return "P_\\text{active} = P = " + q(p.active, "params");
        return "P - P_\\text{mlp} + (L - L_d)(k + E_s) P_\\text{expert} + L_d P_\\text{dense} = " +
               n(p.total) + " - " + n(p.mlp) + " + " + n(p.moe_layers) + " \\cdot (" +
               n(m.experts_per_token) + " + " + n(m.shared_experts) + ") \\cdot " + n(p.expert) +
               " + " + times({m.dense_layers, p.mlp_dense_layer}) + " = " + q(p.active, "params");
      },
      p.active, "params", {"params"});
  sheet.add("attention_param_fraction", "Attention's share of the parameters",
            [&] {
              return std::string("\\frac{P_\\text{attn}}{P} = \\frac{" + n(p.attention) + "}{" +
                                 n(p.total) + "} = " + n(p.attention / p.total));
            },
            p.attention / p.total, "", {"params_attention", "params"});
  sheet.add("mlp_param_fraction", "The MLPs' share of the parameters",
            [&] {
              return std::string("\\frac{P_\\text{mlp}}{P} = \\frac{" + n(p.mlp) + "}{" +
                                 n(p.total) + "} = " + n(p.mlp / p.total));
            },
            p.mlp / p.total, "", {"params_mlp", "params"});
}

}  // namespace

void add_params(const Setup& s, Sheet& sheet) {
  const Model& m = *s.model;
  sheet.set_text("attention", to_string(attention_kind(m)));
  double G = m.N / m.K;
  sheet.add(
      "G", "Query heads per key/value head",
      [&] {
        return std::string("G = \\frac{N}{K} = \\frac{" + n(m.N) + "}{" + n(m.K) + "} = " + n(G));
      },
      G, "");
  sheet.add(
      "tokens", "Tokens per step",
      [&] {
        return std::string("BT = " + times({s.B, s.T}) + " = " + q(s.B * s.T, "tokens"));
      },
      s.B * s.T, "tokens");
  add_layer_params(s, sheet);
  add_model_params(s, sheet);
}

namespace {

struct Forward {
  double mlp, projections, attention, unembed, total;
};

Forward add_forward(const Setup& s, Sheet& sheet) {
  const Model& m = *s.model;
  const ParamCounts& p = s.params;
  Forward f;
  f.mlp =
      sheet.add("flops_mlp", "MLP FLOPs per token, forward: 2 per weight used",
                [&] {
                  return std::string("2 (P_\\text{mlp,active} + P_\\text{router}) = 2 \\cdot (" +
                                     n(p.mlp_active) + " + " + n(p.router) +
                                     ") = " + q(2 * (p.mlp_active + p.router), "FLOP"));
                },
                2 * (p.mlp_active + p.router), "FLOP", {"params_active"});
  f.projections = sheet.add("flops_projections", "Attention projection FLOPs per token, forward",
                            [&] {
                              return std::string("2 P_\\text{attn} = " + times({2, p.attention}) +
                                                 " = " + q(2 * p.attention, "FLOP"));
                            },
                            2 * p.attention, "FLOP", {"params_attention"});
  double c = s.causal ? 0.5 : 1;
  f.attention = c * s.T * attention_flops_per_key(m);
  sheet.add(
      "flops_attention",
      [&] {
        return std::string(
                   "Dot-product attention FLOPs per token, forward: QK and AV over T keys") +
               (s.causal ? ", half of them under a causal mask" : "");
      },
      [&] {
        std::string half = s.causal ? "\\tfrac{1}{2} \\cdot " : "";
        std::string dot = is_mla(m) ? half + "2 T N (2H + R) L = " + half + times({2, s.T, m.N}) +
                                          " \\cdot (" + n(2 * m.H) + " + " + n(m.rope_dim) +
                                          ") \\cdot " + n(m.L)
                                    : half + "4 T N H L = " + half + times({4, s.T, m.N, m.H, m.L});
        return std::string(dot + " = " + q(f.attention, "FLOP"));
      },
      f.attention, "FLOP");
  f.unembed = sheet.add(
      "flops_unembed", "Unembedding FLOPs per token, forward",
      [&] {
        return std::string("2DV = " + times({2, m.D, m.V}) + " = " + q(2 * m.D * m.V, "FLOP"));
      },
      2 * m.D * m.V, "FLOP");
  f.total = f.mlp + f.projections + f.attention + f.unembed;
  sheet.add("flops_forward", "Forward FLOPs per token (the input embedding is a lookup: no FLOPs)",
            [&] {
              return std::string(n(f.mlp) + " + " + n(f.projections) + " + " + n(f.attention) +
                                 " + " + n(f.unembed) + " = " + q(f.total, "FLOP"));
            },
            f.total, "FLOP",
            {"flops_mlp", "flops_projections", "flops_attention", "flops_unembed"});
  return f;
}

// The FLOPs a remat policy recomputes in the backward pass, per token (remat.h).
double recomputed(const Setup& s, const Forward& f, const char*& what) {
  what = remat_recomputes(s.remat);
  return remat_recomputed_flops(s.remat, {f.mlp, f.projections, f.attention, f.unembed});
}

void add_crossovers(Sheet& sheet, const Forward& f, double T) {
  double per_T = f.attention / T;
  sheet.add("attention_ratio", "Dot-product attention FLOPs over the matmuls' (MLP, projections)",
            [&] {
              return std::string("\\frac{" + n(f.attention) + "}{" + n(f.mlp) + " + " +
                                 n(f.projections) +
                                 "} = " + n(f.attention / (f.mlp + f.projections)));
            },
            f.attention / (f.mlp + f.projections), "",
            {"flops_attention", "flops_mlp", "flops_projections"});
  double layers = f.attention + f.mlp + f.projections;
  sheet.add("attention_share", "Dot-product attention's share of the layers' FLOPs",
            [&] {
              return std::string("\\frac{" + n(f.attention) + "}{" + n(f.attention) + " + " +
                                 n(f.mlp) + " + " + n(f.projections) +
                                 "} = " + n(f.attention / layers));
            },
            f.attention / layers, "", {"flops_attention", "flops_mlp", "flops_projections"});
  auto cross = [&](const char* output, const char* label, double flops, const char* name) {
    sheet.add(output, label,
              [&] {
                return std::string("T^* = \\frac{" + std::string(name) +
                                   "}{\\text{attention FLOPs per key}} = \\frac{" + n(flops) +
                                   "}{" + n(per_T) + "} = " + q(flops / per_T, "tokens"));
              },
              flops / per_T, "tokens", {"flops_attention", "flops_mlp", "flops_projections"});
  };
  cross("crossover_matmuls", "Context where attention FLOPs overtake the MLPs' and projections'",
        f.mlp + f.projections, "F_\\text{mlp} + F_\\text{proj}");
  cross("crossover_mlp", "Context where attention FLOPs overtake the MLPs'", f.mlp,
        "F_\\text{mlp}");
  cross("crossover_projections", "Context where attention FLOPs overtake the projections'",
        f.projections, "F_\\text{proj}");
}

}  // namespace

void add_flops(const Setup& s, Sheet& sheet) {
  Forward f = add_forward(s, sheet);
  sheet.add("flops_backward",
            "Backward FLOPs per token: 2x forward (gradients of weights and inputs)",
            [&] { return std::string("2 \\cdot " + n(f.total) + " = " + q(2 * f.total, "FLOP")); },
            2 * f.total, "FLOP", {"flops_forward"});
  double training = sheet.add(
      "flops_training", "Training FLOPs per token: forward + backward",
      [&] { return std::string("3 \\cdot " + n(f.total) + " = " + q(3 * f.total, "FLOP")); },
      3 * f.total, "FLOP", {"flops_forward"});
  double active = s.params.active;
  sheet.add("flops_6p", "The rule of thumb: 6 x active parameters per token",
            [&] {
              return std::string("6 P_\\text{active} = " + times({6, active}) + " = " +
                                 q(6 * active, "FLOP"));
            },
            6 * active, "FLOP", {"params_active"});
  const char* what = "";
  double extra = recomputed(s, f, what);
  double remat = sheet.add(
      "flops_training_remat",
      [&] {
        return "Training FLOPs per token with remat " + std::string(s.remat) + ": recompute " +
               what;
      },
      [&] {
        return std::string(n(training) + " + " + n(extra) + " = " + q(training + extra, "FLOP"));
      },
      training + extra, "FLOP", {"flops_training"});
  double tokens = s.B * s.T;
  auto step = [&](const char* output, const char* label, double per_token, const char* from) {
    sheet.add(
        output, label,
        [&] {
          return std::string(times({per_token, tokens}) + " = " + q(per_token * tokens, "FLOP"));
        },
        per_token * tokens, "FLOP", {from, "tokens"});
  };
  step("flops_step_forward", "Forward FLOPs for the B T tokens of a step", f.total,
       "flops_forward");
  step("flops_step_training", "Training FLOPs for a step", training, "flops_training");
  step("flops_step_training_remat", "Training FLOPs for a step, with remat", remat,
       "flops_training_remat");
  add_crossovers(sheet, f, s.T);
}

}  // namespace scalebook::transformer_parts
