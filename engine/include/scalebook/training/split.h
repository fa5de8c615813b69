#pragma once
// Chapter 5's FSDP x TP optimizer: for the book's simplified layer (In[B, D] . W_in[D, F] .
// W_out[F, D]) on N chips split X-way FSDP by Y-way TP (N = XY), the forward pass's
// communication against its arithmetic, per layer, with the chapter's closed forms:
//   T_FSDP = 2 w D F / (Y W_ici M_X)   (AllGather of both weights' F/Y columns over X)
//   T_TP   = 2 a B D / (X W_ici M_Y)   (AllGather of In and ReduceScatter of Out, B/X rows)
//   T_math = 2 * 2 B D F / (N C)       (two matmuls)
// with W_ici = 2 ici_link_bandwidth (one axis, both ways) and M_X, M_Y the physical axes each
// strategy spans. The two kinds run on their own axes at the same time, so T_comms =
// max(T_FSDP, T_TP), and the ratio T_math / T_comms is above 1 where the layer is
// compute-bound. The backward pass doubles every term, so the ratio holds for the whole step.
//
// The splits are every power of two X dividing N (and X = N), Y = N / X. A degree of 1 has no
// communication; the other strategy then spans every axis of the slice (pure FSDP over all of
// them, as the chapter's alpha / 3 threshold assumes, or pure TP).
//
// The curves. Over the batch per chip b = B / N (1 to 1e5 tokens, five points a decade): the
// ratio of pure FSDP (b M / alpha), pure TP (M F / (N alpha), flat) and the mix at the real X_opt
// (sqrt(b F M_X M_Y) / alpha, none where X_opt falls outside 1..N);
// and, over the global batch, T_comms of each named split against T_math.
#include <optional>
#include <string>
#include <vector>

#include "scalebook/core/registry.h"

namespace scalebook {

struct SplitRequest {
  double B = 0;               // global batch of the slice, tokens
  double D = 0, F = 0;        // model width and MLP width
  double chips = 0;           // N, the slice's chips
  double axes = 3;            // the slice's axes of size > 1
  double m_x = 2, m_y = 1;    // axes FSDP and TP span in a mixed split
  double w = 2, a = 2;        // bytes per weight element, per activation element
  double peak_flops = 0;      // C, FLOP/s
  double ici_link = 0;        // one link one way, B/s
  std::vector<double> named;  // the time curves' FSDP degrees X (none: pure FSDP, pure TP, the
                              // powers of two either side of X_opt)
};

struct SplitRow {
  double x = 1, y = 1;                                   // FSDP and TP degrees
  double m_x = 0, m_y = 0;                               // axes each spans here
  double t_fsdp = 0, t_tp = 0, t_comms = 0, t_math = 0;  // s, one layer's forward pass
  double ratio = 0;                                      // t_math / t_comms (inf: no comms)
};

struct SplitCurve {
  double per_chip = 0;                 // B / N, tokens
  double fsdp = 0, tp = 0, mixed = 0;  // T_math / T_comms of each (mixed NaN: no mix)
};

struct SplitTime {
  double x = 1, y = 1;
  double B = 0;                    // global batch, tokens
  double t_comms = 0, t_math = 0;  // s, one layer's forward pass
};

struct SplitAnalysis {
  double w_ici = 0, alpha = 0;  // B/s both ways; C / W_ici
  double per_chip = 0;          // B / N
  double x_opt = 0, y_opt = 0;  // the real-valued balance point, N / x_opt
  std::size_t best = 0;         // the row with the highest ratio (the smaller X on a tie)
  double fsdp_batch = 0;        // alpha / axes: pure FSDP's tokens per chip
  double mixed_batch = 0;       // alpha^2 / (M_X M_Y F)
  double mixed_global = 0;      // N mixed_batch: the global batch below which the mix binds
  double max_tp = 0;            // M_Y F / alpha
  std::vector<SplitRow> rows;
  std::vector<SplitCurve> curves;
  std::vector<SplitTime> times;
};

// The request's errors, naming the field (B, shape, M_X, M_Y, splits, ...), or none.
std::optional<Error> check_split(const SplitRequest& q);
// The analysis of a request check_split accepts.
SplitAnalysis analyse_split(const SplitRequest& q);
// One split's row (x dividing N).
SplitRow split_row(const SplitRequest& q, double x, double batch);

// The `training-split` calculator (src/training/split/calculator.cpp).
Calculator training_split_calculator();

}  // namespace scalebook
