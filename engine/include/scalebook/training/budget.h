#pragma once
// Chapter 6's budget of a whole training run (the book's LLaMA 3 70B on TPU v5p): what the
// model is made of, what the run computes, how long it takes on a number of chips at an assumed
// MFU, what that costs in chip-hours, dollars and energy, and the memory floor on the chips.
//
// Parameters by block come from the model catalog's counts (models.h, count_params): the MLPs
// (3 L D F gated), the attention projections (2 L D H (N + K)), the embeddings (2 V D untied)
// and the norms. The run uses P, the model's active parameters, unless a caller fixes P
// itself (the book's rounded 70e9).
//
// FLOPs. The book's rule: 6 P per token (2 forward, 4 backward per weight), 6 P tokens for the
// run. Dot-product attention adds 3 x 4 T N H L per token at sequence length T (QK and AV over
// T keys, forward and twice backward; half of it under a causal mask), which the 6P rule
// leaves out; it is reported apart and counted in the run only when asked.
//
// Time. Compute-bound at a fixed MFU: t = FLOPs / (chips x C x MFU), C the chip's peak for the
// compute dtype. One chip at 100% is the book's "single-chip" figure. Steps = tokens / batch.
//
// Money and energy. chip-hours = chips x t / 3600; cost = chip-hours x the price per chip-hour
// (the catalog's cloud list price, or the caller's); energy = chips x power x t, with the
// vendor's maximum board power (TDP), so an upper bound for the chips alone: no hosts,
// network or cooling. A chip without a price or a power figure has no cost or energy; a price
// or power of 0 (given by the caller: free compute) costs 0.
//
// The memory floor (the book's): weights at w bytes per parameter, optimizer state at o
// (2 and 8: bf16 weights, two fp32 Adam moments), and c checkpoints per layer of [B, D]
// activations at a bytes (B the global batch in tokens): M = w P + o P + a D B c L. Gradients
// are left out, as the book leaves them. The fewest chips that hold M are ceil(M / (usable x
// HBM)); that count runs the same FLOPs for far longer, which is the chapter's point: a cluster
// is sized for its FLOPs, and memory sets only a weak floor.
//
// Chips the batch can feed (chapter 5's pods-and-days estimate): pure FSDP over every axis of
// the chip's torus needs critical_batch = C / (W_ici M_X) tokens per chip (the caller's, from
// add_thresholds), so a batch of B tokens keeps at most B / critical_batch chips compute-bound;
// past that, more chips only wait on communication. The run on that many chips at the MFU is
// the fastest this batch allows on that chip.
#include <optional>

#include "scalebook/core/registry.h"
#include "scalebook/transformer/models.h"

namespace scalebook {

struct BudgetConfig {
  ParamCounts counts;                      // the model's, by block
  double P = 0;                            // params the run counts: active, or the caller's
  double L = 0, D = 0;                     // layers; model width (the checkpoints' width)
  double attention_per_token_per_key = 0;  // dot-product FLOPs forward, all layers, per key
  double T = 4096;                         // tokens per sequence
  bool causal = false;
  bool count_attention = false;  // add attention's FLOPs to the run's
  double tokens = 15e12;         // the run's training tokens
  double batch = 4194304;        // tokens per step
  double chips = 8960;
  double mfu = 0.4;                      // fraction of peak, in (0, 1]
  double peak_flops = 0;                 // FLOP/s per chip
  double hbm_capacity = 0;               // B per chip
  double usable_hbm = 1;                 // fraction of HBM the run may fill, in (0, 1]
  std::optional<double> price_per_hour;  // USD per chip-hour; none: no price known
  std::optional<double> power;           // W per chip; none: no figure known
  double bytes_params = 2;               // B per parameter, weights
  double bytes_optimizer = 8;            // B per parameter, optimizer state
  double bytes_activation = 2;           // B per checkpointed activation element
  double checkpoints = 4;                // [B, D] tensors saved per layer
  double critical_batch = 0;  // tokens per chip pure FSDP needs; 0: the chip has no torus
  double pod_chips = 0;       // chips per pod; 0: none in the catalog
};

struct Budget {
  double flops_per_token = 0;            // FLOP: 6 P
  double flops_attention_per_token = 0;  // FLOP: 12 T N H L (halved when causal)
  double flops_per_token_total = 0;      // FLOP: the two together
  double flops_total = 0;                // FLOP: the run's, 6 P tokens (+ attention if counted)
  double t_token_chip = 0;               // s: one token on one chip at peak (6 P / C)
  double t_one_chip = 0;                 // s: the run on one chip at peak
  double run_seconds = 0;                // s: on `chips` at the MFU
  double steps = 0;                      // tokens / batch
  double step_time = 0;                  // s
  double chip_hours = 0;                 // chip-h
  std::optional<double> cost;            // USD
  std::optional<double> energy;          // J
  double mem_params = 0, mem_optimizer = 0, mem_checkpoints = 0, mem_total = 0;  // B, whole run
  double chips_min = 0;           // fewest chips whose usable HBM holds mem_total
  double mem_per_chip = 0;        // B on each of `chips`
  double run_seconds_min = 0;     // s: the run on chips_min at the MFU
  double chips_usable = 0;        // whole chips batch / critical_batch; 0: no critical batch
  double run_seconds_usable = 0;  // s: the run on chips_usable at the MFU
};

// The budget of `c`, which the caller has checked (positive counts, MFU in (0, 1]).
Budget plan_budget(const BudgetConfig& c);

// The `training-budget` calculator: the schema's inputs into a BudgetConfig, the outputs and
// the worked steps.
Calculator training_budget_calculator();

}  // namespace scalebook
