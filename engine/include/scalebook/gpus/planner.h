#pragma once
// Chapter 12's rooflines for LLM scaling on GPUs: which parallelism stays compute-bound on a
// cluster of 8-GPU NVLink nodes joined by a fat tree, for the book's MLP-only model
// MLP(x) = x[B, D] W_in[D, F] W_out[F, D] (B in tokens; an MoE layer routes each token to k
// of E experts of width F). C is a GPU's peak FLOP/s, W_gpu its NVLink egress, W_node a node's
// egress into the scale-out network, n the GPUs of a node.
//
// The book's thresholds (each is compute-bound above it, or below it for a degree):
//   - DP / FSDP: backward T_math = 8BDF/(XC), T_comms = 8DF/W, so B/X > C/W tokens a GPU:
//     C/W_gpu in a node (990e12 / 450e9 = 2200 on H100), C/W_node across nodes (2475); an MoE
//     moves E experts' weights for k experts' FLOPs: E/k C/W_node (128/4 -> 79,200); a ring
//     over only X nodes moves (X-1)/X of that (2 nodes -> 1237); model parallelism spanning
//     M nodes leaves each node 1/M of the weights: C/(M W_node) (8 nodes -> 309).
//   - TP: forward T_math = 4BDF/(YC), T_comms = 4BD/W, so Y < F W/C: F W_gpu/C in a node,
//     F W_node/C beyond; over two nodes only Y - 8 GPUs' share crosses: Y < 8 + F W_node/C.
//   - EP: T_math = 4BkDF/(ZC), T_comms = 4BD(Z-8)/(W Z) min(8k/Z, 1): with alpha = C/W_node,
//     compute-bound while Z < 8 + kF/alpha (k > Z/8), and at any Z once F > 8 alpha.
//   - PP: a stage boundary sends the activations, 2BD (N_mb + N_stages - 2)/(W N_mb) a step,
//     about 1.5 x 2BD/(W L) a layer: nearly free.
// For chosen degrees (placed innermost first: TP, EP, PP, DP), each strategy's T_math and
// T_comms a step on one GPU, in the book's frame for it (backward for DP, forward for the
// rest), on the fullest of uneven stages (ceil(L/pp) layers). A group of degree d whose inner
// strides multiply to I lies in one node when I d <= n; otherwise each node holds g = max(1, n/I)
// of its members, it spans X = d/g nodes, and c = n/g such groups share a node's egress. An
// AllGather of V bytes then takes V max((g-1)/(g W_gpu), (X-1) c/(X W_node)), the book's precise
// per-level ring; AllReduce twice that. ZeRO changes memory, not these comms (the book: ZeRO-1, 2
// and 3 move the same bytes over a step). Memory a GPU: params x (2 weight + 8 optimizer bytes, +
// gradient bytes if given) over the shards each state has: TP x PP (experts also EP), and DP for
// the optimizer from ZeRO-1, the gradients from ZeRO-2, the weights from ZeRO-3. A run of T tokens
// costs 6 P T FLOPs.
#include <optional>

#include "scalebook/core/registry.h"
#include "scalebook/core/status.h"

namespace scalebook {

struct GpuPlanInput {
  // The MLP-only model.
  double D = 0, F = 0, L = 0;  // F: an expert's width in an MoE
  double E = 0, k = 0;         // routed experts and experts a token uses; E = 0: dense
  double params = 0;           // parameters, for memory
  double expert_params = 0;    // of which the routed experts' (split over EP)
  double active_params = 0;    // parameters a token uses, for a run's 6PT FLOPs
  double B = 0;                // global batch, tokens a step
  // The GPU and its cluster.
  double C = 0;                   // FLOP/s a GPU
  double W_gpu = 0;               // B/s, NVLink egress a GPU, one direction
  double W_node = 0;              // B/s, a node's egress into the scale-out network
  bool W_node_from_nics = false;  // the catalog gives none: n x NICs a GPU x NIC bandwidth
  double node_gpus = 0;           // GPUs in one NVLink domain
  double hbm = 0;                 // B of HBM a GPU
  // The layout.
  double dp = 1, tp = 1, ep = 1, pp = 1;
  int zero = 0;             // 0: plain DP; 1, 2, 3 (3 is FSDP)
  double microbatches = 0;  // 0: 2 x pp
  double bytes_params = 2;  // weight bytes a parameter
  double bytes_optimizer = 8;
  double bytes_grads = 0;
  double tokens = 0;  // training tokens; 0: no run time
  double mfu = 0.45;
};

struct StrategyCost {
  double degree = 1;
  double t_math = 0;         // s a step on one GPU, in the strategy's frame
  double t_comms = 0;        // s a step on one GPU
  double gpus_per_node = 1;  // g: members of one group inside a node
  double nodes = 1;          // X: nodes one group spans
  double sharing = 1;        // c: groups sharing a node's egress
  bool compute_bound() const { return t_comms <= t_math; }
};

struct GpuPlan {
  double gpus = 0, tokens_per_gpu = 0;
  // The book's thresholds.
  double alpha_node = 0;         // C/W_gpu, tokens a GPU
  double alpha = 0;              // C/W_node
  double dp_min_batch = 0;       // N alpha: the global batch DP across nodes needs
  double dp_critical_moe = 0;    // E/k alpha; 0 for a dense model
  double dp_critical_small = 0;  // (X-1)/X alpha; 0 when DP stays in one node
  double mp_nodes = 1;           // M: nodes one model-parallel group spans
  double mp_bandwidth = 0;       // M W_node
  double dp_critical_mp = 0;     // C/(M W_node)
  double tp_max_node = 0, tp_max = 0, tp_max_2node = 0;
  double ep_f_critical = 0;  // n alpha; 0 for a dense model
  double ep_max = 0;         // 0 for a dense model
  double pp_per_layer = 0;   // s, the book's 1.5 x 2bD/(W L)
  // The chosen layout.
  StrategyCost dp, tp, ep, pp;
  double dp_critical_layout = 0;  // tokens a GPU at which DP's T_comms = T_math; 0 if dp = 1
  double memory_total = 0, memory_per_gpu = 0, min_gpus = 0;
  double run_flops = 0, run_time = 0;  // 0 without tokens
};

// The plan, or an error naming the input at fault (degrees that do not tile the nodes, an
// EP degree on a dense model or one that does not divide E).
Result<GpuPlan> plan_gpus(const GpuPlanInput& in);

Calculator gpu_planner_calculator();

}  // namespace scalebook
