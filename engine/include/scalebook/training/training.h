#pragma once
// Chapter 5's model of one training step under one parallel layout: what every chip computes,
// which collectives it runs (each costed by chapter 3's collective model, collective_cost.h),
// how much of that communication hides under the compute, the memory each chip holds against
// its HBM, and the chapter's thresholds for the layout's chip and axes.
//
// The layer. Either the book's simplified layer (model=book-mlp: two matmuls W_in[D,F] and
// W_out[F,D] per layer, no attention, no embeddings, so 4DF forward FLOPs per token per layer
// and 2DF parameters), or a Transformer from the model catalog (chapter 4's counts: every
// matmul's 2 FLOPs per weight per token, dot-product attention 2TN(2H + rope) per layer, the
// unembedding; backward twice forward).
//
// The layout. A slice of the chip's ICI torus (shape, axes X, Y, Z in order), and `slices`
// such slices joined by the data-center network (DCN). Each strategy spans a set of the slice's
// axes, and its degree is the product of their sizes: data parallelism (dp), fully sharded data
// parallelism (fsdp, ZeRO stage 1, 2 or 3), tensor parallelism (tp), pipeline stages (pp) and
// expert parallelism (ep, MoE only). No axis belongs to two strategies; every axis belongs to
// one (fsdp takes the axes no other strategy names). DP across the slices runs over DCN. The
// batch is sharded over dp x fsdp x ep x slices; tp shards the weights (F, and the heads) and
// the activations (D); pp splits the layers into stages.
//
// Communication, per layer, following the chapter's algorithms (b tokens per batch shard per
// microbatch; w, g, a bytes per parameter, gradient and activation element; P_l a layer's
// weights, the embeddings shared out over the layers):
//   - FSDP with ZeRO-3: AllGather the layer's weights (w P_l / tp) in the forward and again in
//     the backward, ReduceScatter its gradients (g P_l / tp), each microbatch; prefetched or
//     asynchronous, so off the critical path. ZeRO-1 and -2 keep whole weights: a
//     ReduceScatter of the gradients (each microbatch for ZeRO-2, once a step for ZeRO-1) and
//     an AllGather of the updated weights once a step.
//   - TP (Megatron): AllGather the block input [b, D] and ReduceScatter its output in the
//     forward, the same for the gradients in the backward (a D), once per block (the book's
//     MLP; a Transformer layer has two blocks, attention and MLP); on the critical path.
//   - DP inside the slice: an AllReduce of each layer's gradient shard once a step, overlapped.
//   - DP over DCN: the same AllReduce over the slices, at the chip's dcn_bandwidth as the
//     book's W_dcn (a ring used both ways at W_dcn / 2 each way, so T = 2V / W_dcn), overlapped.
//   - PP: each microbatch's activations (a b D) sent to the next stage and its gradient back,
//     one hop at ici_link_bandwidth (a send, not a collective: T = T_hop + V / W); critical.
//   - EP: AllToAll of the routed tokens (k copies of a b D per chip) to the experts and back,
//     forward and backward; critical.
// Collective time is the cost model's at the collective's bytes: the model is linear in the
// bytes beyond a fixed latency term, so each (op, axes) is costed once per byte and scaled
// (CostMemo), which keeps the numbers-only path free of the cost model's worked steps.
//
// The step. T_compute = FLOPs per chip / C, stretched by the pipeline bubble (p - 1)/(m + p - 1)
// (GPipe and 1F1B alike). Exposed communication = the critical-path collectives plus whatever
// of the overlappable ones (ICI, DCN, the PCIe traffic of an offloaded optimizer, each on its
// own links) outlasts max(T_compute, T_hbm). step_time = that max + exposed; the bounds are
// max(T_compute, T_ici, T_dcn, T_hbm, T_pcie) (everything overlapped) and their sum (nothing
// overlapped). T_hbm counts weight reads (3 per microbatch) and the optimizer update's traffic
// only. The bound is the largest term of the overlapped bound, or does-not-fit when the memory
// exceeds the HBM.
//
// Memory per chip: weights (w per parameter, / tp / pp, / ep for routed experts, / fsdp at
// ZeRO-3), gradients (g, / fsdp from ZeRO-2), optimizer state (states x o bytes, / fsdp from
// ZeRO-1; 0 on the chip when offloaded to the host) and the saved activations (the remat
// policy's width per token per layer, a bytes, / tp, for the layers of one stage and the
// microbatches in flight: m for GPipe, min(m, p) for 1F1B).
//
// Thresholds (the chapter's closed forms, alpha = C / W_ici with W_ici = 2 ici_link_bandwidth,
// the bandwidth both ways of one axis): per-chip batch for DP/FSDP alpha / M_X; largest useful
// TP degree M_Y F / alpha; X_opt = sqrt(B / F * M_X / M_Y * N) for N = fsdp x tp chips;
// mixed per-chip batch alpha^2 / (M_X M_Y F); the batch per slice for DP over DCN, C / W_dcn.
// M_X counts fsdp's axes (dp's without fsdp), M_Y tp's, each at least 1. The forms take 2-byte
// weights and activations, as the book does; other widths scale alpha by bytes / 2 on the side
// that moves them (int8 activations: C doubles, TP's bytes halve, the TP limit stays).
//
// Where this departs from the book: the book's compute-bound conditions compare one pass
// (forward or backward); here the whole step's compute and communication are compared, which
// for ZeRO-3 and TP gives the same thresholds, and for pure DP (no forward communication)
// 2/3 of the book's. The book's summary table gives mixed FSDP + TP's backward 8BD/X of TP
// traffic; its TP algorithm, followed here, has 4BD/X (AllGather dOut, ReduceScatter dIn).
//
// Sequence sharding (split_sequences): the batch shards may cut sequences into equal parts, as
// the book's final LLaMA 3 70B mesh does; the attention's key and value exchange is not costed.
//
// Left out: an axis split between two strategies (the book's 1024 x 4 on a 16x16x16; each axis
// serves one strategy here), GPU clusters (TPU slices only; a slice whose wraparound the
// catalog does not state is costed without it), interleaved and zero-bubble
// pipeline schedules (the pipeline simulator's), sequence/context parallelism as its own
// strategy, ZeRO-3's gathered-layer buffers and the working set of the layer being computed,
// the embeddings' own collectives (their parameters are shared out over the layers), and
// overlap between collectives on the same links beyond adding their times.
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/core/status.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/parallelism/layout.h"
#include "scalebook/transformer/models.h"

namespace scalebook {

// The layer as the step model sees it: counts, not names.
struct TrainingShape {
  bool book_mlp = false;         // the book's two-matmul layer (no attention, no embeddings)
  double L = 0;                  // layers
  double D = 0;                  // model width, elements
  double F = 0;                  // MLP width of one matrix, elements
  double N = 0;                  // query heads (0 for book-mlp)
  double E = 0;                  // routed experts per MoE layer (0: dense)
  double k = 0;                  // routed experts a token uses
  double moe_layers = 0;         // layers with experts
  double params = 0;             // all parameters, params
  double params_active = 0;      // parameters one token uses, params
  double params_routed = 0;      // routed experts' parameters, all layers, params
  double blocks = 1;             // TP blocks per layer (1: the book's MLP; 2: attention and MLP)
  double flops_forward = 0;      // forward FLOPs per token, all layers, FLOP
  double flops_projections = 0;  // of them, the attention projections (Q, K, V, O), FLOP
  double flops_unembed = 0;      // of them, the unembedding, FLOP
  double flops_attention = 0;    // dot-product attention per token per key (x T), all layers, FLOP
  double flops_layer_forward = 0;     // forward FLOPs per token of one layer, FLOP
  std::array<double, 4> act_width{};  // elements saved per token per layer: none, big-matmuls,
                                      // ffw-matmuls, block (the RematPolicy order)
};

// The layer of a catalog (or custom) model, or the book's MLP with D, F and L.
TrainingShape shape_of_model(const Model& model);
TrainingShape book_mlp_shape(double D, double F, double L);

enum class RematPolicy { none, big_matmuls, ffw_matmuls, block };
const char* to_string(RematPolicy p);  // "none", "big-matmuls", "ffw-matmuls", "block"
// The pipeline schedules the step model prices, by the microbatches a stage holds; not the
// simulator's PipelineSchedule (pipeline.h), which has more, so that the two never share a name.
enum class StepSchedule { gpipe, one_f_one_b };
enum class Phase { forward, backward, step };  // step: once per step, after the backward
enum class TrainingOp { all_gather, reduce_scatter, all_reduce, all_to_all, send };
const char* to_string(TrainingOp op);  // "all-gather", ..., "send"
const char* to_string(Phase phase);    // "forward", "backward", "step"

struct TrainingConfig {
  TrainingShape shape;
  double B = 0;             // global batch, tokens
  double T = 0;             // sequence length, tokens
  double slices = 1;        // ICI slices joined by DCN
  int zero = 3;             // ZeRO stage of fsdp: 1, 2 or 3
  double microbatches = 1;  // pipeline microbatches per accumulation step
  StepSchedule schedule = StepSchedule::one_f_one_b;
  double grad_accum = 1;              // gradient accumulation steps
  double w = 2, g = 2, a = 2, o = 4;  // bytes per weight, gradient, activation, optimizer value
  double optimizer_states = 2;        // values per parameter: adam 2, momentum 1, sgd 0
  RematPolicy remat = RematPolicy::ffw_matmuls;
  std::optional<double> checkpoints;  // D-wide tensors saved per token per layer, overriding
  bool offload = false;               // optimizer state on the host
  // Batch shards may hold part of a sequence (sequence sharding, the book's "sequence" axis):
  // each part a whole fraction of one. Attention's exchange of keys and values between the
  // parts of a sequence is not costed, as the book does not.
  bool split_sequences = false;
  // B need not be whole sequences split evenly over the batch shards: each shard gets B over the
  // shards on average (the book's arithmetic, as in its 3e6-token batch of 32k sequences).
  bool uneven_batch = false;
  // The chip.
  double peak_flops = 0;      // FLOP/s, compute dtype
  double hbm_bandwidth = 0;   // B/s
  double hbm_capacity = 0;    // B
  double ici_link = 0;        // B/s per ICI link, one way
  double ici_latency = 0;     // s per hop
  double dcn_bandwidth = 0;   // B/s per chip (the book's W_dcn)
  double pcie_bandwidth = 0;  // B/s per chip, one way
  bool gpu = false;           // links are NVLink and the scale-out network, not ICI
};

struct CollectiveRow {
  Phase phase = Phase::forward;
  TrainingOp op = TrainingOp::all_gather;
  Strategy strategy = Strategy::fsdp;            // dp for the DCN rows
  const char* tensor = "";                       // what moves: "W_in", "layer weights", "In", ...
  unsigned mask = 0;                             // axes it runs over (kDcnMask: over DCN)
  double bytes = 0;                              // V, the whole array, B
  double count = 0;                              // times per step on each chip
  double time = 0;                               // s, one of them
  double per_byte = 0;                           // s per byte of the bandwidth term
  double t_latency = 0;                          // s
  bool critical = false;                         // on the critical path (not overlappable)
  double total() const { return count * time; }  // s per step
};

struct TrainingStep {
  // Batch.
  double chips_total = 0;       // chips in every slice
  double batch_shards = 0;      // dp x fsdp x ep x slices
  double sequences = 0;         // B / T
  double tokens_per_shard = 0;  // B / batch_shards, tokens
  double tokens_per_chip = 0;   // B / chips_total, tokens
  double micro_tokens = 0;      // b: tokens per batch shard per microbatch, tokens
  double in_flight = 1;         // microbatches whose activations a stage holds
  // Compute.
  double flops_step = 0;       // training FLOPs of the step with remat's recompute, FLOP
  double flops_model = 0;      // without recompute (3x forward), FLOP
  double flops_6p = 0;         // the book's 6 P_active B, FLOP
  double flops_layer = 0;      // one layer's training FLOPs for the batch, FLOP
  double t_compute_layer = 0;  // one layer's on one chip, s
  double bubble = 0;           // pipeline bubble fraction
  double t_compute = 0;        // per step on one chip, with the bubble, s
  // Communication (the rows are at the end).
  int n_rows = 0;
  double t_critical = 0;          // TP, EP and PP collectives, s per step
  double t_overlap_ici = 0;       // FSDP and DP collectives on ICI, s per step
  double t_ici = 0;               // every ICI collective, s per step
  double t_grad_ici = 0;          // of t_overlap_ici, the gradient reductions once a step, s
  double t_backward = 0;          // the last backward pass, which they (and DCN) hide under, s
  double t_dcn = 0;               // s per step
  double t_pcie = 0;              // optimizer state to the host and back, s per step
  double t_hbm = 0;               // weight and optimizer HBM traffic, s per step
  double exposed = 0;             // communication not hidden under compute, s per step
  double exposed_beyond = 0;      // of it, overlappable traffic that outlasts its window, s
  const char* exposed_kind = "";  // what that is: "ici", "gradients", "dcn", "pcie" or ""
  double step_time = 0;           // max(T_compute, T_hbm) + exposed, s
  double step_overlapped = 0;     // everything overlapped (lower bound), s
  double step_serial = 0;         // nothing overlapped (upper bound), s
  double mfu_ceiling = 0;         // model FLOPs / (chips C step_overlapped)
  double mfu = 0;                 // model FLOPs / (chips C step_time)
  // Memory per chip.
  double mem_params = 0, mem_grads = 0, mem_optimizer = 0, mem_activations = 0;  // B
  double mem_total = 0;                                                          // B
  double mem_host = 0;  // optimizer state offloaded to the host, B per chip
  double mem_over = 0;  // B beyond the HBM; 0 when it fits
  bool fits = true;
  const char* bound = "compute";  // compute, ici, dcn, hbm, pcie or does-not-fit
  // Thresholds.
  double W_ici = 0;           // B/s, one axis both ways
  double alpha = 0;           // C / W_ici, FLOP/B (tokens per chip)
  double M_X = 1, M_Y = 1;    // axes fsdp (or dp) and tp span
  double critical_batch = 0;  // alpha / M_X, tokens per chip
  double max_tp = 0;          // M_Y F / alpha
  double x_opt = 0;           // optimal fsdp degree of mixed FSDP + TP, chips
  double y_opt = 0;           // N / x_opt, chips
  double mixed_batch = 0;     // alpha^2 / (M_X M_Y F), tokens per chip
  double dcn_batch = 0;       // C / W_dcn, tokens per slice
  // Last, so that clear_step can reset everything before them: rows past n_rows are unread.
  std::array<CollectiveRow, 24> rows{};
};

// Resets `s` to a default TrainingStep except its rows past n_rows (now 0), which nothing
// reads: the search evaluates a step per configuration, and clearing 2 kB of rows each time
// was a tenth of its time.
void clear_step(TrainingStep& s);

// Checks a layout's degrees against the model and the batch (the errors the adapter names),
// then evaluates the step into `step`, which must be a default TrainingStep. `memo` keeps
// collective costs across calls with the same layout.
std::optional<Error> evaluate_training(const TrainingConfig& config, const ParallelLayout& layout,
                                       CostMemo& memo, TrainingStep& step);

// The parts evaluate_training runs, in order (src/training/step/). start_step sets the batch.
std::optional<Error> check_training(const TrainingConfig& c, const ParallelLayout& layout);
void start_step(const TrainingConfig& c, const ParallelLayout& layout, TrainingStep& s);
void add_compute(const TrainingConfig& c, const ParallelLayout& layout, TrainingStep& s);
void add_collectives(const TrainingConfig& c, const ParallelLayout& layout, CostMemo& memo,
                     TrainingStep& s);
void add_memory(const TrainingConfig& c, const ParallelLayout& layout, TrainingStep& s);
// Pipeline stages need not divide the layers (LLaMA 3 405B runs 126 layers on 16 stages): the
// largest stage holds ceil(L / pp) of them and sets the pace, this many times the average.
inline double stage_imbalance(double layers, double pp) {
  return pp <= 1 ? 1 : std::ceil(layers / pp) / (layers / pp);
}
void add_thresholds(const TrainingConfig& c, const ParallelLayout& layout, TrainingStep& s);
// The thresholds of `chips` chips as one FSDP group over m_x axes with TP's closed forms over
// m_y (its degree 1): for callers with no layout of their own (the plan, the run budget).
TrainingStep pure_fsdp_thresholds(const TrainingConfig& c, double chips, double m_x,
                                  double m_y = 0);
void add_step_time(const TrainingConfig& c, TrainingStep& s);
// What bounds the step and by how much: "compute-bound; 119 ms more (19% of the step) waits on
// communication: 119 ms of TP, EP and pipeline collectives on the critical path".
std::string bound_detail(const TrainingStep& s);
// The same in a few words for a table: "compute + 19% comms", or the bound alone.
std::string bound_short(const char* bound, double exposed, double step_time);

// The `training` calculator: the adapter over this model (src/training/step/calculator.cpp).
Calculator training_calculator();

}  // namespace scalebook
