// The layer the step model trains: the book's two-matmul MLP, or a catalog Transformer's counts
// (chapter 4's, through count_params).
#include <algorithm>

#include "scalebook/training/training.h"
#include "scalebook/transformer/remat.h"

namespace scalebook {
namespace {

// The book's estimate of what a layer keeps for the backward pass without remat, in D-wide
// tensors per token (chapter 4: "~20").
constexpr double kSavedWithoutRemat = 20;

}  // namespace

TrainingShape book_mlp_shape(double D, double F, double L) {
  TrainingShape s;
  s.book_mlp = true;
  s.L = L;
  s.D = D;
  s.F = F;
  s.params = 2 * D * F * L;
  s.params_active = s.params;
  s.blocks = 1;
  s.flops_layer_forward = 4 * D * F;  // two matmuls of 2DF per token
  s.flops_forward = s.flops_layer_forward * L;
  // none: In and Tmp, all the backward needs; the matmul policies save Tmp and Out; block In.
  s.act_width = {D + F, F + D, F + D, D};
  return s;
}

TrainingShape shape_of_model(const Model& m) {
  ParamCounts p = count_params(m);
  TrainingShape s;
  s.L = m.L;
  s.D = m.D;
  s.F = m.F;
  s.N = m.N;
  s.E = m.E;
  s.k = m.experts_per_token;
  s.moe_layers = p.moe_layers;
  s.params = p.total;
  s.params_active = p.active;
  s.params_routed = m.E * p.expert * p.moe_layers;
  s.blocks = 2;
  // Forward FLOPs per token: every matmul weight a token uses (the input embedding is a lookup,
  // the unembedding a DV matmul) twice, plus QK and AV over T keys, added by the caller per T.
  const double unembed = m.D * m.V;
  const double matmul_weights = p.mlp_active + p.attention + p.router + unembed;
  s.flops_forward = 2 * matmul_weights;
  s.flops_projections = 2 * p.attention;
  s.flops_unembed = 2 * unembed;
  s.flops_layer_forward = 2 * (p.mlp_active + p.attention + p.router) / m.L;
  s.flops_attention = 2 * m.N * (2 * m.H + m.rope_dim) * m.L;
  // Saved widths per token per layer (chapter 4's remat policies, as the transformer
  // calculator counts them), averaged over the layers when an MoE model keeps dense ones.
  double attention = 0;
  if (m.kv_rank > 0) {
    attention = (m.q_rank > 0 ? m.q_rank : 0) + m.N * (m.H + m.rope_dim) + m.kv_rank + m.rope_dim +
                2 * m.N * m.H + m.D;
  } else {
    attention = m.N * m.H + 2 * m.K * m.H + m.D;
  }
  double hidden = m.F;
  if (m.E > 0) {
    double expert_F = m.F_expert > 0 ? m.F_expert : m.F;
    hidden = (m.dense_layers * m.F +
              p.moe_layers * (m.experts_per_token + m.shared_experts) * expert_F) /
             m.L;
  }
  const double mlp = (m.gated ? 2 : 1) * hidden + m.D;
  s.act_width = {kSavedWithoutRemat * m.D, attention + mlp, mlp, m.D};
  return s;
}

// Attention's dot products depend on T, so they join here: 2 T N (H + rope) for QK and 2 T N H
// for AV per layer per token.
void add_compute(const TrainingConfig& c, const ParallelLayout& layout, TrainingStep& s) {
  const TrainingShape& sh = c.shape;
  const double attention_token = sh.flops_attention * c.T;  // all layers, per token
  const double forward_token = sh.flops_forward + attention_token;
  const char* policy = to_string(c.remat);
  const double mlp = sh.flops_forward - sh.flops_projections - sh.flops_unembed;
  const double recompute_token = remat_recomputed_flops(
      policy, {mlp, sh.flops_projections, attention_token, sh.flops_unembed});
  s.flops_model = 3 * forward_token * c.B;
  s.flops_step = s.flops_model + recompute_token * c.B;
  s.flops_6p = 6 * sh.params_active * c.B;
  const double layer_token = sh.flops_layer_forward + attention_token / sh.L;
  const double layer_recompute =
      remat_recomputed_flops(policy, {sh.flops_layer_forward - sh.flops_projections / sh.L,
                                      sh.flops_projections / sh.L, attention_token / sh.L, 0});
  s.flops_layer = (3 * layer_token + layer_recompute) * c.B;
  s.t_compute_layer = s.flops_layer / (s.chips_total * c.peak_flops);
  const double pp = layout.degrees[static_cast<int>(Strategy::pp)];
  const double m = c.microbatches;
  s.bubble = (pp - 1) / (m + pp - 1);
  s.t_compute =
      s.flops_step / (s.chips_total * c.peak_flops) / (1 - s.bubble) * stage_imbalance(sh.L, pp);
  s.in_flight = pp <= 1 ? 1 : c.schedule == StepSchedule::gpipe ? m : std::min(m, pp);
}

}  // namespace scalebook
