// The GPU parallelism planner's model (planner.h states it and its formulas).
#include "scalebook/gpus/planner.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scalebook/collectives/switched_cost.h"
#include "scalebook/core/format.h"

namespace scalebook {
namespace {

bool divides(double a, double b) { return std::fmod(b, a) == 0; }

// Where a group of degree d at inner stride I lies (planner.h), or an error when it leaves
// nodes partly filled: the book's layouts fill whole nodes or stay inside one.
Result<StrategyCost> place(const char* field, double d, double I, double n) {
  StrategyCost s;
  s.degree = d;
  if (d == 1) return s;
  if (I * d <= n) {
    s.gpus_per_node = d;
    s.sharing = n / d;
  } else {
    s.gpus_per_node = std::max(1.0, n / I);
    s.nodes = d / s.gpus_per_node;
    s.sharing = n / s.gpus_per_node;
  }
  if (!divides(I * d, n) && !divides(n, I * d)) {
    const std::string inside =
        I > 1 ? " with the " + format_number(I) + " GPUs of the axes inside it" : "";
    return Error{ErrorCode::invalid_argument, field,
                 std::string(field) + " = " + format_number(d) + inside + " makes groups of " +
                     format_number(I * d) + " GPUs, which neither divide nor fill " +
                     format_number(n) +
                     "-GPU nodes; give a degree that divides the node or fills whole nodes"};
  }
  return s;
}

// The book's per-level ring: an AllGather of V bytes over the group's node and network stages,
// as the switched-fabric model costs it (collectives/switched_cost.h) on the planner's two
// levels: a node's GPUs at W_gpu, the nodes at W_node shared by the node's groups.
double all_gather(double V, const StrategyCost& s, const GpuPlanInput& in) {
  if (s.degree == 1) return 0;
  const double n = in.node_gpus;
  const std::vector<ClusterLevel> levels = {{"node", n, n, 1, in.W_gpu},
                                            {"network", s.nodes, n * s.nodes, n, in.W_node}};
  return switched_cost(CollectiveOp::all_gather, V, {s.gpus_per_node, s.nodes}, levels).t_bandwidth;
}

// The largest EP degree that stays compute-bound (planner.h), at least n (free in a node).
double ep_limit(double F, double k, double alpha, double n, double E) {
  if (F >= n * alpha) return E;
  const double z1 = n + k * F / alpha;
  if (z1 <= n * k) return z1;
  return n / (1 - F / (n * alpha));
}

}  // namespace

Result<GpuPlan> plan_gpus(const GpuPlanInput& in) {
  const double n = in.node_gpus;
  const bool moe = in.E > 0;
  if (!moe && in.ep > 1)
    return Error{ErrorCode::invalid_argument, "ep",
                 "ep = " + format_number(in.ep) +
                     " needs experts, and this model is dense; give E and experts_per_token, "
                     "or ep = 1"};
  if (moe && !divides(in.ep, in.E))
    return Error{
        ErrorCode::invalid_argument, "ep",
        "ep = " + format_number(in.ep) + " must divide the " + format_number(in.E) + " experts"};
  if (in.pp > in.L)
    return Error{ErrorCode::invalid_argument, "pp",
                 "pp = " + format_number(in.pp) + " is more stages than the " +
                     format_number(in.L) + " layers"};

  GpuPlan p;
  Result<StrategyCost> tp = place("tp", in.tp, 1, n);
  if (!tp.ok()) return tp.error();
  Result<StrategyCost> ep = place("ep", in.ep, in.tp, n);
  if (!ep.ok()) return ep.error();
  Result<StrategyCost> pp = place("pp", in.pp, in.tp * in.ep, n);
  if (!pp.ok()) return pp.error();
  const double mp = in.tp * in.ep * in.pp;
  Result<StrategyCost> dp = place("dp", in.dp, mp, n);
  if (!dp.ok()) return dp.error();
  p.tp = tp.value(), p.ep = ep.value(), p.pp = pp.value(), p.dp = dp.value();

  const double N = mp * in.dp;
  p.gpus = N;
  p.tokens_per_gpu = in.B / N;
  const double F_act = moe ? in.k * in.F : in.F;
  // Stages may be uneven (DeepSeek's 61 layers on 16): the fullest one sets the step.
  const double stage_layers = std::ceil(in.L / in.pp - 1e-9);
  // The MLPs' forward on one GPU of the fullest stage.
  const double fwd = 4 * in.B * in.D * F_act * stage_layers / (in.dp * in.ep * in.tp * in.C);

  // Thresholds, the book's approximations.
  p.alpha_node = in.C / in.W_gpu;
  p.alpha = in.C / in.W_node;
  p.dp_min_batch = N * p.alpha;
  if (moe) p.dp_critical_moe = in.E / in.k * p.alpha;
  if (p.dp.nodes > 1) p.dp_critical_small = p.alpha * (p.dp.nodes - 1) / p.dp.nodes;
  p.mp_nodes = std::max(1.0, mp / n);
  p.mp_bandwidth = p.mp_nodes * in.W_node;
  p.dp_critical_mp = in.C / p.mp_bandwidth;
  p.tp_max_node = in.F * in.W_gpu / in.C;
  p.tp_max = in.F * in.W_node / in.C;
  p.tp_max_2node = n + p.tp_max;
  if (moe) {
    p.ep_f_critical = n * p.alpha;
    p.ep_max = ep_limit(in.F, in.k, p.alpha, n, in.E);
  }

  // DP: the gradients of a GPU's MLP weights, reduced once a step, against the backward pass.
  const double mlp_params = 2 * in.D * in.F * stage_layers * (moe ? in.E / in.ep : 1) / in.tp;
  p.dp.t_math = 2 * fwd;
  p.dp.t_comms = 2 * all_gather(2 * mlp_params, p.dp, in);
  if (in.dp > 1) p.dp_critical_layout = p.tokens_per_gpu * p.dp.t_comms / p.dp.t_math;

  // TP: an AllGather and a ReduceScatter of a layer's bf16[b, D] activations, each layer of
  // the stage, b the tokens one TP group runs.
  const double b = in.B / (in.dp * in.ep);
  p.tp.t_math = fwd;
  p.tp.t_comms = stage_layers * 2 * all_gather(2 * b * in.D, p.tp, in);

  // EP: a dispatch and a combine AllToAll each layer; a GPU's tokens (split over its TP group)
  // go to min(k, destinations) places, of which (X-1)/X leave the node.
  p.ep.t_math = fwd;
  if (in.ep > 1) {
    const double t = b / in.tp;
    const StrategyCost& s = p.ep;
    const double per_layer =
        s.nodes > 1
            ? 4 * n * t * in.D * std::min(in.k, s.nodes) * (s.nodes - 1) / s.nodes / in.W_node
            : 4 * t * in.D * std::min(in.k, in.ep) * (in.ep - 1) / in.ep / in.W_gpu;
    p.ep.t_comms = stage_layers * per_layer;
  }

  // PP: each GPU sends its share of a stage's activations on, the pipeline's N_mb + S - 2
  // microbatch slots over N_mb.
  p.pp.t_math = fwd;
  const double mb = in.microbatches > 0 ? in.microbatches : 2 * in.pp;
  const double pp_link = p.pp.nodes > 1 ? in.W_node / p.pp.sharing : in.W_gpu;
  if (in.pp > 1) {
    p.pp.t_comms = 2 * b * in.D / in.tp * (mb + in.pp - 2) / mb / pp_link;
    p.pp_per_layer = 1.5 * 2 * b * in.D / in.tp / (pp_link * in.L);
  }

  // Memory: each state over its own shards.
  const double dense = in.params - in.expert_params;
  const double stage = stage_layers / in.L;
  const double per_gpu = (dense * stage + in.expert_params * stage / in.ep) / in.tp;
  p.memory_total = in.params * (in.bytes_params + in.bytes_optimizer + in.bytes_grads);
  p.memory_per_gpu = per_gpu * (in.bytes_params / (in.zero >= 3 ? in.dp : 1) +
                                in.bytes_optimizer / (in.zero >= 1 ? in.dp : 1) +
                                in.bytes_grads / (in.zero >= 2 ? in.dp : 1));
  p.min_gpus = std::ceil(p.memory_total / in.hbm - 1e-9);
  if (in.tokens > 0) {
    p.run_flops = 6 * in.active_params * in.tokens;
    p.run_time = p.run_flops / (N * in.C * in.mfu);
  }
  return p;
}

}  // namespace scalebook
