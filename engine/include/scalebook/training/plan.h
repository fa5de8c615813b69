#pragma once
// Chapter 6's sharding decision: the three questions the book asks of a model, a batch and a
// pod before choosing a mesh, each answered with chapter 5's closed forms (add_thresholds):
//   1. Can data parallelism or FSDP over whole sequences use every chip? Only if there are at
//      least as many sequences (B / T) as chips.
//   2. FSDP that also shards sequences: is the batch per chip B / N above alpha / M_X for FSDP
//      over M_X axes?
//   3. Mixed FSDP + TP: is B / N above alpha^2 / (M_X M_Y F)? Then the FSDP degree
//      X_opt = sqrt(B / F * M_X / M_Y * N) balances the two communications.
// With several pods (slices over DCN), the batch is data parallel across them: the questions
// above hold inside one pod with its share of the batch, and the pod's share must exceed the
// DCN threshold C / W_dcn.
//
// The mesh. Degrees are powers of two, as the book rounds: the chips used are the largest
// power of two in a pod (8192 of 8960), the FSDP degree is X_opt rounded to the nearest power
// of two (in log scale: 1618 -> 2048) within them, TP takes the rest; when question 2 already
// holds, FSDP takes every chip used. The FSDP degree splits into whole sequences as far as
// they go (the data degree: the largest power of two dividing a pod's sequences, at most X)
// and the parts of a sequence (the sequence degree, which must divide T).
//
// The planner (plan_pods). Pods of one size, N_pod = chips / slices, take the batch as data
// parallelism over DCN. Neither threshold depends on the number of pods k, so each binds at a
// pod count of its own:
//   FSDP alone:  B / (k N_pod) >= alpha / M_X          until k = B / (N_pod alpha / M_X)
//   mixed:       B / (k N_pod) >= alpha^2 / (M_X M_Y F) until k = B / (N_pod alpha^2 / (M_X M_Y F))
//   DCN:         B / k >= C / W_dcn                     until k = B / (C / W_dcn)
// A pod is compute-bound inside when FSDP alone or the mix is (the mix needs fewer tokens
// unless F is small), so the recommended count is the largest whole k at most
// min(max(k_fsdp, k_mixed), k_dcn) over which the batch's sequences split evenly and whose mesh
// cuts a sequence evenly, capped at kMaxPods; at least 1, flagged when even one pod binds.
// The by-pods table runs k = 1, 2, 4, ... to the first power of two at least four times the
// recommended count (the recommended count joins it when not a power of two), skipping counts
// the sequences do not split over.
//
// Where this departs from the book: the book stops at the pod's 8192 chips without saying why;
// here that is the power-of-two rule, stated. Sequence sharding's exchange of keys and values
// in attention is not costed, as the book does not cost it.
#include <optional>
#include <string>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/training/training.h"

namespace scalebook {

struct PlanRequest {
  TrainingShape shape;
  double B = 0;         // global batch, tokens
  double T = 0;         // sequence length, tokens
  double chips = 0;     // every pod together
  double slices = 1;    // pods (ICI slices) over DCN
  double m_fsdp = 3;    // axes of question 2's FSDP
  double m_x = 2;       // question 3's FSDP axes
  double m_y = 1;       // question 3's TP axes
  double axes = 3;      // the chip's torus axes, the most M_X + M_Y may take
  double w = 2, a = 2;  // bytes per weight and gradient, per activation
  double peak_flops = 0, ici_link = 0, dcn_bandwidth = 0;
};

struct TrainingPlan {
  // Question 1.
  double sequences = 0;  // B / T: the most chips whole-sequence DP or FSDP can use
  bool whole_sequences = false;
  // Question 2.
  double tokens_per_chip = 0;  // B / N
  double alpha = 0;            // C / W_ici
  double critical_batch = 0;   // alpha / M_X, tokens per chip
  bool fsdp_ok = false;
  // Question 3 (inside one pod).
  double chips_slice = 0;  // chips in one pod
  double mixed_batch = 0;  // alpha^2 / (M_X M_Y F), tokens per chip
  double mixed_ratio = 0;  // sqrt((B / N) / mixed_batch): compute over communication
  double x_opt = 0, y_opt = 0;
  double max_tp = 0;  // M_Y F / alpha
  bool mixed_ok = false;
  // DCN (several pods).
  double tokens_per_slice = 0;
  double dcn_batch = 0;  // C / W_dcn, tokens per pod; 0 without the chip's DCN bandwidth
  bool dcn_ok = true;
  // The mesh.
  double chips_used = 0;  // every pod's
  double fsdp = 1, tp = 1, data = 1, sequence = 1;
  bool tp_ok = true;  // tp <= max_tp
};

// One row of the by-pods table: the plan for k pods of the request's pod size.
struct PodsRow {
  double pods = 0, chips = 0, tokens_per_pod = 0, tokens_per_chip = 0;
  bool fsdp_ok = false, mixed_ok = false, dcn_ok = true;
  const char* bound = "";  // compute with FSDP, compute with FSDP+TP, ICI-bound, DCN-bound
  double fsdp = 1, tp = 1;
  bool recommended = false;
};

// The most pods the planner considers: the slices input's own bound.
constexpr double kMaxPods = 1e5;

struct PodsPlan {
  double chips_per_pod = 0;          // N_pod
  double at_fsdp = 0, at_mixed = 0;  // pods at which each in-pod threshold binds
  double at_dcn = 0;                 // the DCN threshold's; 0 without DCN bandwidth
  double limit = 0;                  // min(max(at_fsdp, at_mixed), at_dcn)
  double recommended = 1;            // whole pods
  bool ok = false;                   // both thresholds hold at the recommended count
  TrainingPlan plan;                 // the plan for the recommended count
  std::vector<PodsRow> rows;
};

// The request's errors, naming the field (chips, slices, B, M_X, ...), or none.
std::optional<Error> check_plan(const PlanRequest& q);
// Answers the questions for a request check_plan accepts.
TrainingPlan plan_training(const PlanRequest& q);
// The request for k pods of the request's pod size.
PlanRequest with_pods(const PlanRequest& q, double k);
// The planner over pod counts, for a request check_plan accepts. rows false leaves `rows`
// empty, for a caller that drops the by-pods table (a prepared calculation).
PodsPlan plan_pods(const PlanRequest& q, bool rows = true);

// The `training-plan` calculator (src/training/plan/calculator.cpp).
Calculator training_plan_calculator();

}  // namespace scalebook
