#pragma once
// One inference step of a Transformer (chapter 7): a prefill of T tokens per sequence, or one
// decode step of B sequences whose KV caches hold S tokens, on a TPU slice or GPUs.
//
// The model (the book's roofline of a step, everything per chip):
//   - A replica of the model spans tp x ep chips; the rest of the slice holds copies of it
//     (data parallel replicas serve their own batches, so they change nothing per chip). Dense
//     weights are split tp ways and replicated over ep (their tokens are split ep ways instead);
//     routed experts are split tp x ep ways. The KV cache is split over all tp x ep chips (by
//     heads, then by batch: the book's [2, B_Z, S, K_Y, H]).
//   - Weight matmuls: the larger of their FLOPs time and the time to load the weights they use
//     from HBM. An MoE layer loads the experts its tokens hit: with uniform routing of n tokens
//     to k of E experts, E (1 - (1 - k/E)^n) of them on average.
//   - Attention: the larger of its dot products' FLOPs time and the time to load the KV cache
//     it reads (in decode, the whole cache of every sequence: bandwidth-bound).
//   - Collectives: per layer, an AllGather and a ReduceScatter of the [tokens, D] activations
//     around both the attention and the MLP block over the tp chips, and for an MoE layer two
//     AllToAlls of the routed tokens over the ep chips; costed by chapter 3's model (a TPU
//     torus) or chapter 12's (GPUs in NVLink nodes), each at least its hops' latency. The step
//     waits for them (the book notes XLA often fails to overlap them in decode), so
//     t_step = t_attention + t_matmul + t_collectives; t_roofline leaves them out, the book's
//     theoretical step time.
//   - Memory: weights and the batch's KV caches per chip against HBM capacity; activations are
//     left out (the book's "negligible").
#include <string>
#include <vector>

#include "scalebook/core/dtype.h"
#include "scalebook/core/status.h"
#include "scalebook/hardware/axis.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/topology.h"
#include "scalebook/transformer/models.h"

namespace scalebook {

enum class InferencePhase { prefill, decode };
const char* to_string(InferencePhase phase);  // "prefill", "decode"

// Where a replica's chips are and how its work is split over them.
struct InferenceSlice {
  Topology topology;          // the whole slice or node(s)
  std::vector<Axis> tp_axes;  // a torus's axes tensor parallelism spans; empty on GPUs
  std::vector<Axis> ep_axes;  // a torus's axes expert parallelism spans; empty on GPUs
  double tp = 1;              // chips a replica's weights are split over (heads and F)
  double ep = 1;              // chips a replica's experts are split over
  double replicas = 1;        // copies of the model in the slice: chips / (tp ep)
  double hop_latency = 0;     // s per collective hop (torus) or step (GPUs)
};

// The slice `shape` of `chip` (a TPU slice "4x4", or a GPU count "8"), with tp and ep placed
// on its axes as the parallel layout places degrees (parallelism/layout.h); on GPUs tp x ep
// must fit in one NVLink node. Errors name shape, tp or ep.
Result<InferenceSlice> inference_slice(const Chip& chip, const std::string& shape, double tp,
                                       double ep);

// How a replica splits its KV caches: over KV heads only (replicated past K chips), or over
// KV heads and then sequences (the book's [2, B_Z, S, K_Y, H]), or over sequences only. Either
// of the last two swaps the queries from head to batch sharding and back around each
// attention layer: two AllToAlls.
enum class KvSharding { heads, heads_batch, batch };
const char* to_string(KvSharding sharding);  // "heads", "heads-batch", "batch"

// How the MLP's weights are split over a replica's tp chips: over F (1D weight-stationary,
// Megatron), or over D by X and F by YZ = tp / X (2D weight-stationary, the book's appendix B)
// with X at its best, sqrt(D tp / (2F)).
enum class MlpSharding { one_d, two_d };
const char* to_string(MlpSharding sharding);  // "1d", "2d"

struct InferenceConfig {
  Model model;
  KvSharding kv_sharding = KvSharding::heads_batch;
  MlpSharding mlp_sharding = MlpSharding::one_d;
  InferencePhase phase = InferencePhase::decode;
  double batch = 1;             // sequences per replica
  double tokens = 1;            // prefill: prompt tokens per sequence (T)
  double context = 1;           // decode: tokens in each sequence's KV cache (S)
  double weight_bytes = 2;      // B per parameter: bf16 2, fp8/int8 1, int4 0.5
  double kv_bytes = 2;          // B per KV-cache element
  double activation_bytes = 2;  // B per activation element the collectives move
  double peak_flops = 0;        // FLOP/s per chip in the compute dtype
  double peak_flops_bf16 = 0;   // FLOP/s per chip in bf16, for the critical batch sizes
  double peak_flops_int8 = 0;   // FLOP/s per chip in int8 (0: the chip has none)
  double hbm_bandwidth = 0;     // B/s per chip
  double hbm_capacity = 0;      // B per chip
  InferenceSlice slice;
};

// The config's hardware fields from the catalog: the peak for `compute`, bf16 and int8, HBM.
void set_chip(InferenceConfig& config, const Chip& chip, Dtype compute);

// What sets the step time: the largest of its parts.
enum class InferenceBound { kv_load, weight_load, flops, collectives };
const char* to_string(InferenceBound bound);  // "KV-cache loading", "weight loading", ...

struct InferenceStep {
  // Per token and per sequence.
  double params = 0;                 // parameters of the model
  double kv_bytes_per_token = 0;     // B, all layers
  double kv_bytes_per_sequence = 0;  // B of one sequence's cache (context S, or T in prefill)
  double step_tokens = 0;            // tokens a replica processes in the step (B T or B)
  // FLOPs and bytes of the step, per chip.
  double flops_matmul = 0;         // FLOP of the weight matmuls
  double flops_attention = 0;      // FLOP of the dot products (causal in prefill)
  double weight_bytes_loaded = 0;  // B of weights read from HBM
  double kv_bytes_loaded = 0;      // B of KV cache read from HBM
  double experts_loaded = 0;       // experts per MoE layer the step's tokens hit (mean)
  // Times, s.
  double t_flops = 0;            // the matmuls' FLOPs at peak
  double t_weight_load = 0;      // their weights at HBM bandwidth
  double t_matmul = 0;           // max(t_flops, t_weight_load)
  double t_attention_flops = 0;  // the dot products at peak
  double t_kv_load = 0;          // the KV cache at HBM bandwidth
  double t_attention = 0;        // max(t_attention_flops, t_kv_load)
  double t_collective_tp = 0;    // one AllGather of the activations (a ReduceScatter costs as much)
  double t_collective_ep = 0;    // one AllToAll of the routed tokens
  double t_collective_kv = 0;    // one AllToAll of the queries (KV split by batch), else 0
  double t_collective_mlp = 0;   // one MLP block's collectives, per layer
  double t_collectives = 0;      // all of the step's collectives
  bool collectives_latency_bound = false;  // the tp collectives' hops outlast their bytes
  double t_roofline = 0;                   // t_attention + t_matmul: the book's step time
  double t_step = 0;                       // t_roofline + t_collectives
  InferenceBound bound = InferenceBound::weight_load;
  // Latency and throughput.
  double t_per_token = 0;            // s: decode, one step per token; prefill, the whole step
  double tokens_per_s = 0;           // tokens/s of the whole slice
  double tokens_per_s_per_chip = 0;  // tokens/s per chip
  // Memory per chip.
  double weight_bytes_per_chip = 0;  // B
  double kv_bytes_per_chip = 0;      // B of the batch's caches
  double kv_split = 1;               // chips each cache is split over (KV sharding)
  double hbm_used = 0;               // B: weights and caches
  bool fits = false;                 // hbm_used <= hbm_capacity
  double max_batch = 0;              // sequences per replica whose caches fit beside the weights
  // Critical batch sizes, tokens per replica per step past which the matmuls are compute-bound
  // on this chip: C w / (2 W_hbm) for C FLOP/s and w bytes per weight.
  double critical_batch = 0;               // this config's dtypes (and the MoE factor)
  double critical_batch_bf16 = 0;          // bf16 weights and math
  double critical_batch_int8_weights = 0;  // int8 weights, bf16 math
  double critical_batch_int8 = 0;          // int8 weights and math (0: no int8 peak)
  double moe_factor = 1;                   // E / k: an MoE layer loads every expert for k per token
  // Model-parallel limits (the book's section on sharding), with W_ici one axis both ways.
  double w_ici = 0;             // B/s: 2 x the link bandwidth (0 on one chip)
  double tp_limit_decode = 0;   // chips past which the tp collectives outlast the weight loads:
                                // (w / a) F W_ici / (B W_hbm) for B tokens per step
  double tp_limit_prefill = 0;  // chips past which the tp collectives outlast the matmuls on one
                                // axis: F W_ici / C (the book's F / 2200 on v5e)
  // 1D against 2D weight-stationary MLP sharding of the step's B tokens over N = tp chips,
  // in the book's forms (appendix B, question 7): 1D over a 3D torus 2aBD / (3 W_ici), 2D
  // 2aBD / (X W_ici) + 4aBF / (YZ W_ici) at its best X.
  double t_mlp_comms_1d = 0;  // s per layer
  double t_mlp_comms_2d = 0;  // s per layer
  double x_2d = 0;            // the best X: sqrt(D N / (2F)) (fractional: a real-valued optimum)
  double yz_2d = 0;           // N / X
  double crossover_2d = 0;    // chips past which 2D moves less: 18 F / D
};

// Every size must be finite and positive (an Error names the field); tp must divide the query
// heads and F, ep the experts.
Result<InferenceStep> inference_step(const InferenceConfig& config);

}  // namespace scalebook
