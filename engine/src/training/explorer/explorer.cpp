// What chapter 5's explorer draws beside the step: the book's layer for the reader's layout, and
// the chapter's per-layer table of the four strategies filled with the reader's numbers.
//
// The layer. The book's two-matmul MLP, In[B, D] . W_in[D, F] . W_out[F, D] -> Out[B, D], with
// the model's D and F and B the tokens one slice trains on each step (B over the slices): each
// slice holds the whole layer, so the picture is one slice's. The batch is split over the axes
// of dp, fsdp and ep; tp splits F of the weights and D of the activations (Megatron); ZeRO-3's
// fsdp splits D of the weights too (ZeRO-1 and -2 keep whole weights). Pipeline axes hold other
// layers and split none of these four. Axes of one chip split nothing, so they are left out of
// the notation. A shard's copies are the slice's chips over its shards.
//
// The strategies (the book's summary table), per layer, with X the chips the batch is split
// over (dp x fsdp x ep) on M_X axes, Y the tp degree on M_Y axes, w, g, a bytes per weight,
// gradient and activation element, W = W_ici, C the peak FLOP/s:
//   FLOPs per chip, forward and backward: 4BDF/n and 8BDF/n, n = X, X, Y and XY.
//   Bytes each chip's collectives move, the book's way (V for an AllGather or ReduceScatter of a
//   V-byte array, 2V for an AllReduce, so that time = bytes / (M W)):
//     DP        forward 0;                backward 2 x 2g DF (two gradient AllReduces)
//     FSDP      forward 2w DF (gathers);  backward 2w DF + 2g DF (gathers again, ReduceScatters)
//     TP        forward 2a BD;            backward 2a BD (In and Out, then dOut and dIn)
//     FSDP + TP forward 2w DF/Y + 2a BD/X; backward (2w + 2g) DF/Y + 2a BD/X
//   With 2-byte numbers those are the book's 8DF, 4DF + 8DF, 4BD + 4BD and its mixed row, except
//   that the mixed backward's TP part is 4BD/X, as the TP algorithm gives (AllGather dOut,
//   ReduceScatter dIn), where the book's table prints 8BD/X.
//   Time: each part's bytes / (M W) on its own axes; FSDP + TP's two parts run at once on their
//   different axes, so a pass takes the longer of the two. A collective over one chip moves
//   nothing. The ratio is the smaller of the two passes' compute over communication (the book
//   compares each pass); the strategy is compute-bound when it is at least 1.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "../step/parts.h"
#include "scalebook/core/format.h"

namespace scalebook::training_parts {
namespace {

// A size as the shapes print it: whole numbers in full (48000, 4194304), else 6 digits.
void add_size(double x, Line& out) {
  if (x == std::floor(x) && std::fabs(x) < 1e15)
    out.add_whole(x);
  else
    out.add(format_number(x));
}

double degree_of(const ParallelLayout& layout, unsigned mask) {
  return mask_axes(layout, mask).degree;
}

struct Dim {
  char name;
  double size;
  unsigned mask;  // axes it is split over
};

struct Array {
  const char* name;
  Dim rows, cols;
  double bytes_per_element;
};

void add_dim(const ParallelLayout& layout, const Dim& d, Line& out) {
  add_dim(layout, d.name, d.mask, out);
}

void add_notation(const ParallelLayout& layout, const Array& a, Line& out) {
  out.add(a.name);
  out.add("[");
  add_dim(layout, a.rows, out);
  out.add(", ");
  add_dim(layout, a.cols, out);
  out.add("]");
}

void add_shape(double rows, double cols, Line& out) {
  out.add("[");
  add_size(rows, out);
  out.add(", ");
  add_size(cols, out);
  out.add("]");
}

Value text_of(std::string s) {
  Value v;
  v.kind = Value::Kind::text;
  v.text = std::move(s);
  return v;
}

// In, W_in, W_out, Out of the book's layer as this layout shards them.
std::array<Array, 4> layer_arrays(const TrainingConfig& c, const ParallelLayout& layout) {
  const auto& m = layout.masks;
  const unsigned batch = m[kDp] | m[kFsdp] | m[kEp];
  const unsigned tp = m[kTp];
  const unsigned weights_d = c.zero == 3 ? m[kFsdp] : 0u;
  const double B = c.B / c.slices, D = c.shape.D, F = c.shape.F;
  return {{{"In", {'B', B, batch}, {'D', D, tp}, c.a},
           {"W_in", {'D', D, weights_d}, {'F', F, tp}, c.w},
           {"W_out", {'F', F, tp}, {'D', D, weights_d}, c.w},
           {"Out", {'B', B, batch}, {'D', D, tp}, c.a}}};
}

constexpr const char* kShardingOutputs[] = {"sharding_in", "sharding_w_in", "sharding_w_out",
                                            "sharding_out"};
constexpr const char* kLocalOutputs[] = {"local_in", "local_w_in", "local_w_out", "local_out"};

// One strategy's row: its FLOPs per chip and the bytes of each pass, split into the part on the
// batch's axes (FSDP, DP) and the part on tp's axes.
struct Pass {
  double flops = 0, batch_bytes = 0, tp_bytes = 0;
};

struct StrategyRow {
  const char* name;
  double chips;
  Pass forward, backward;
};

}  // namespace

void add_dim(const ParallelLayout& layout, char name, unsigned mask, Line& out) {
  out.add(std::string_view(&name, 1));
  bool first = true;
  for (std::size_t i = 0; i < layout.axes.size(); ++i) {
    if (!(mask & (1u << i)) || layout.axes[i].size <= 1) continue;
    out.add(first ? "_" : "");
    out.add(std::string_view(&layout.axes[i].name, 1));
    if (layout.axes[i].stride > 1) out.add("'");
    first = false;
  }
}

void set_layer_outputs(const TrainingConfig& c, const ParallelLayout& layout, ResultBuilder& out) {
  const std::array<Array, 4> arrays = layer_arrays(c, layout);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    Line notation;
    add_notation(layout, arrays[i], notation);
    out.set_text(kShardingOutputs[i], notation.view());
  }
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const Array& a = arrays[i];
    Line shape;
    add_shape(a.rows.size / degree_of(layout, a.rows.mask),
              a.cols.size / degree_of(layout, a.cols.mask), shape);
    out.set_text(kLocalOutputs[i], shape.view());
  }
}

Table layer_arrays_table(const TrainingConfig& c, const ParallelLayout& layout) {
  Table t;
  for (const OutputSpec& col : training_schema().tables[2].columns) t.columns.push_back(col.name);
  for (const Array& a : layer_arrays(c, layout)) {
    const double rows = degree_of(layout, a.rows.mask), cols = degree_of(layout, a.cols.mask);
    Line shape;
    add_shape(a.rows.size, a.cols.size, shape);
    t.rows.push_back({text_of(a.name), text_of(std::string(1, a.rows.name)),
                      text_of(std::string(1, a.cols.name)), text_of(std::string(shape.view())),
                      Value::of(rows), Value::of(cols), Value::of(layout.chips / (rows * cols)),
                      Value::of(a.bytes_per_element * a.rows.size / rows * a.cols.size / cols)});
  }
  return t;
}

Table strategies_table(const TrainingConfig& c, const ParallelLayout& layout,
                       const TrainingStep& s) {
  const auto& d = layout.degrees;
  const auto& n = layout.axis_counts;
  const double B = c.B / c.slices, D = c.shape.D, F = c.shape.F;
  const double X = d[kDp] * d[kFsdp] * d[kEp], Y = d[kTp];
  const double M_X = std::max(1.0, n[kDp] + n[kFsdp] + n[kEp]), M_Y = std::max(1.0, n[kTp]);
  const double work = B * D * F;
  // A collective over one chip moves nothing.
  const double x = X > 1 ? 1 : 0, y = Y > 1 ? 1 : 0;
  const double DF = D * F, BD = B * D;
  const StrategyRow rows[] = {
      {"DP", X, {4 * work / X, 0, 0}, {8 * work / X, x * 2 * 2 * c.g * DF, 0}},
      {"FSDP", X, {4 * work / X, x * 2 * c.w * DF, 0}, {8 * work / X, x * 2 * (c.w + c.g) * DF, 0}},
      {"TP", Y, {4 * work / Y, 0, y * 2 * c.a * BD}, {8 * work / Y, 0, y * 2 * c.a * BD}},
      {"FSDP + TP",
       X * Y,
       {4 * work / (X * Y), x * 2 * c.w * DF / Y, y * 2 * c.a * BD / X},
       {8 * work / (X * Y), x * 2 * (c.w + c.g) * DF / Y, y * 2 * c.a * BD / X}},
  };
  Table t;
  for (const OutputSpec& col : training_schema().tables[1].columns) t.columns.push_back(col.name);
  for (const StrategyRow& r : rows) {
    auto comm = [&](const Pass& p) {
      return std::max(p.batch_bytes / (M_X * s.W_ici), p.tp_bytes / (M_Y * s.W_ici));
    };
    const double tf = r.forward.flops / c.peak_flops, tb = r.backward.flops / c.peak_flops;
    const double cf = comm(r.forward), cb = comm(r.backward);
    double ratio = INFINITY;
    if (cf > 0) ratio = tf / cf;
    if (cb > 0) ratio = std::min(ratio, tb / cb);
    t.rows.push_back(
        {text_of(r.name), Value::of(r.chips), Value::of(r.forward.flops),
         Value::of(r.backward.flops), Value::of(r.forward.batch_bytes + r.forward.tp_bytes),
         Value::of(r.backward.batch_bytes + r.backward.tp_bytes), Value::of(tf), Value::of(cf),
         Value::of(tb), Value::of(cb), std::isinf(ratio) ? Value::none() : Value::of(ratio),
         text_of(ratio >= 1 ? "compute" : "ici")});
  }
  return t;
}

}  // namespace scalebook::training_parts
