// Every collective of one step on one chip: which op, over which axes, how many bytes, how
// often, its time from chapter 3's cost model, and whether it sits on the critical path.
#include <algorithm>

#include "scalebook/training/training.h"

namespace scalebook {
namespace {

CollectiveOp collective_of(TrainingOp op) {
  switch (op) {
    case TrainingOp::reduce_scatter:
      return CollectiveOp::reduce_scatter;
    case TrainingOp::all_reduce:
      return CollectiveOp::all_reduce;
    case TrainingOp::all_to_all:
      return CollectiveOp::all_to_all;
    default:
      return CollectiveOp::all_gather;
  }
}

bool crosses_nodes(const ParallelLayout& layout, unsigned mask) {
  for (std::size_t i = 0; i < layout.axes.size(); ++i)
    if ((mask & (1u << i)) && layout.axes[i].name == 'N') return true;
  return false;
}

class Rows {
 public:
  Rows(const TrainingConfig& c, const ParallelLayout& layout, CostMemo& memo, TrainingStep& s)
      : c_(c), layout_(layout), memo_(memo), s_(s) {}

  void add(Phase phase, TrainingOp op, Strategy strategy, const char* tensor, double bytes,
           double count, bool critical) {
    if (s_.n_rows >= static_cast<int>(s_.rows.size()) || count <= 0) return;
    CollectiveRow& r = s_.rows[static_cast<std::size_t>(s_.n_rows++)];
    const bool dcn = strategy == Strategy::dp && dcn_;
    r = {phase, op,   strategy, tensor, dcn ? kDcnMask : layout_.masks[static_cast<int>(strategy)],
         bytes, count};
    r.critical = critical;
    if (op == TrainingOp::send) {
      // One hop to the neighbouring stage, one way: not a collective. On GPUs, stages on other
      // nodes go out through the node's NICs, a GPU's share of the node's egress.
      r.per_byte = 1 / c_.ici_link;
      if (layout_.switched && layout_.levels.size() > 1 && crosses_nodes(layout_, r.mask))
        r.per_byte = layout_.levels[1].child_gpus / layout_.levels[1].child_bandwidth;
      r.t_latency = c_.ici_latency;
      r.time = r.t_latency + bytes * r.per_byte;
    } else {
      LinkModel link = dcn ? LinkModel{c_.dcn_bandwidth / 2, 0, true}
                           : LinkModel{c_.ici_link, c_.ici_latency, true};
      CostMemo::Cost cost =
          memo_.get(collective_of(op), layout_, r.mask, static_cast<std::int64_t>(c_.slices), link);
      r.per_byte = cost.per_byte;
      r.t_latency = cost.t_latency;
      r.time = std::max(cost.t_latency, bytes * cost.per_byte);
    }
  }
  void over_dcn(bool yes) { dcn_ = yes; }

 private:
  const TrainingConfig& c_;
  const ParallelLayout& layout_;
  CostMemo& memo_;
  TrainingStep& s_;
  bool dcn_ = false;
};

}  // namespace

void add_collectives(const TrainingConfig& c, const ParallelLayout& layout, CostMemo& memo,
                     TrainingStep& s) {
  const TrainingShape& sh = c.shape;
  const auto& d = layout.degrees;
  const double units = c.microbatches * c.grad_accum;  // forward and backward passes per step
  const double stage = stage_imbalance(sh.L, d[kPp]);
  const double layers = sh.L / d[kPp] * stage;  // layers on a chip of the largest stage
  const double b = s.micro_tokens;
  Rows rows(c, layout, memo, s);

  // One layer's weights as a chip holds them after TP (and EP for the routed experts), split
  // into the book's two matrices for book-mlp.
  const double layer_params =
      ((sh.params - sh.params_routed) + sh.params_routed / d[kEp]) / sh.L / d[kTp];
  const double parts = sh.book_mlp ? 2 : 1;
  const double part = layer_params / parts;
  const char* weights[2] = {sh.book_mlp ? "W_in" : "layer weights", "W_out"};
  const char* grads[2] = {sh.book_mlp ? "dW_in" : "layer gradients", "dW_out"};

  // Activations: the TP groups' [b, D] (a block input or output, or its gradient).
  const double act = c.a * b * sh.D;
  const double blocks = layers * sh.blocks * units;
  const bool fsdp = d[kFsdp] > 1;
  for (int i = 0; fsdp && c.zero == 3 && i < parts; ++i)
    rows.add(Phase::forward, TrainingOp::all_gather, Strategy::fsdp, weights[i], c.w * part,
             layers * units, false);
  if (d[kTp] > 1) {
    rows.add(Phase::forward, TrainingOp::all_gather, Strategy::tp, "In", act, blocks, true);
    rows.add(Phase::forward, TrainingOp::reduce_scatter, Strategy::tp, "Out", act, blocks, true);
  }
  const double moe = sh.moe_layers / d[kPp] * stage * units;
  const double routed = c.a * b * sh.k * sh.D * d[kEp];  // the group's routed tokens
  if (d[kEp] > 1)
    rows.add(Phase::forward, TrainingOp::all_to_all, Strategy::ep, "routed tokens", routed, 2 * moe,
             true);
  if (d[kPp] > 1)
    rows.add(Phase::forward, TrainingOp::send, Strategy::pp, "activations", act / d[kTp], units,
             true);

  for (int i = 0; fsdp && c.zero == 3 && i < parts; ++i)
    rows.add(Phase::backward, TrainingOp::all_gather, Strategy::fsdp, weights[i], c.w * part,
             layers * units, false);
  for (int i = 0; fsdp && c.zero >= 2 && i < parts; ++i)
    rows.add(Phase::backward, TrainingOp::reduce_scatter, Strategy::fsdp, grads[i], c.g * part,
             layers * units, false);
  if (d[kTp] > 1) {
    rows.add(Phase::backward, TrainingOp::all_gather, Strategy::tp, "dOut", act, blocks, true);
    rows.add(Phase::backward, TrainingOp::reduce_scatter, Strategy::tp, "dIn", act, blocks, true);
  }
  if (d[kEp] > 1)
    rows.add(Phase::backward, TrainingOp::all_to_all, Strategy::ep, "routed grads", routed, 2 * moe,
             true);
  if (d[kPp] > 1)
    rows.add(Phase::backward, TrainingOp::send, Strategy::pp, "gradients", act / d[kTp], units,
             true);

  // Once a step: ZeRO-1's gradient ReduceScatter, ZeRO-1 and -2's weight AllGather, the data
  // parallel AllReduce of each chip's gradient shard inside the slice and across slices.
  for (int i = 0; fsdp && c.zero == 1 && i < parts; ++i)
    rows.add(Phase::step, TrainingOp::reduce_scatter, Strategy::fsdp, grads[i], c.g * part, layers,
             false);
  for (int i = 0; fsdp && c.zero <= 2 && i < parts; ++i)
    rows.add(Phase::step, TrainingOp::all_gather, Strategy::fsdp, weights[i], c.w * part, layers,
             false);
  const double shard = c.g * part / d[kFsdp];
  for (int i = 0; d[kDp] > 1 && i < parts; ++i)
    rows.add(Phase::step, TrainingOp::all_reduce, Strategy::dp, grads[i], shard, layers, false);
  rows.over_dcn(true);
  for (int i = 0; c.slices > 1 && i < parts; ++i)
    rows.add(Phase::step, TrainingOp::all_reduce, Strategy::dp, grads[i], shard / d[kDp], layers,
             false);

  for (int i = 0; i < s.n_rows; ++i) {
    const CollectiveRow& r = s.rows[static_cast<std::size_t>(i)];
    if (r.mask & kDcnMask)
      s.t_dcn += r.total();
    else if (r.critical)
      s.t_critical += r.total();
    else
      s.t_overlap_ici += r.total();
    // A layer's gradients are whole only after the step's last backward pass reaches it.
    const bool gradients = r.phase == Phase::step && r.op != TrainingOp::all_gather;
    if (gradients && !(r.mask & kDcnMask)) s.t_grad_ici += r.total();
  }
  s.t_ici = s.t_critical + s.t_overlap_ici;
}

}  // namespace scalebook
