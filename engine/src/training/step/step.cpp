// The step model's checks, the chapter's thresholds, and evaluate_training, which runs the
// parts in order.
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

#include "scalebook/collectives/switched_cost.h"
#include "scalebook/core/format.h"
#include "scalebook/training/training.h"

namespace scalebook {
namespace {

Error fail(const std::string& field, std::string message) {
  return Error{ErrorCode::invalid_argument, field, std::move(message)};
}

bool divides(double d, double n) { return std::fmod(n, d) == 0; }

// Whole numbers in full (a batch of 4194304 tokens, not 4.19e6); others as format_number.
std::string num(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
  return format_number(x);
}

}  // namespace

const char* to_string(TrainingOp op) {
  switch (op) {
    case TrainingOp::all_gather:
      return "all-gather";
    case TrainingOp::reduce_scatter:
      return "reduce-scatter";
    case TrainingOp::all_reduce:
      return "all-reduce";
    case TrainingOp::all_to_all:
      return "all-to-all";
    case TrainingOp::send:
      return "send";
  }
  return "";
}

const char* to_string(Phase phase) {
  switch (phase) {
    case Phase::forward:
      return "forward";
    case Phase::backward:
      return "backward";
    case Phase::step:
      return "step";
  }
  return "";
}

std::optional<Error> check_training(const TrainingConfig& c, const ParallelLayout& layout) {
  const TrainingShape& sh = c.shape;
  const auto& d = layout.degrees;
  if (d[kTp] > 1 && sh.N > 0 && !divides(d[kTp], sh.N))
    return fail("tp",
                "tp=" + num(d[kTp]) + " must divide the model's " + num(sh.N) + " query heads (N)");
  if (d[kTp] > 1 && !divides(d[kTp], sh.F))
    return fail("tp", "tp=" + num(d[kTp]) + " must divide the MLP width F = " + num(sh.F));
  if (d[kPp] > sh.L)
    return fail("pp", "pp=" + num(d[kPp]) + " is more pipeline stages than the model's " +
                          num(sh.L) + " layers (L)");
  if (d[kEp] > 1 && sh.E <= 0)
    return fail("ep",
                "ep=" + num(d[kEp]) + " needs a model with experts; this one is dense (E = 0)");
  if (d[kEp] > 1 && !divides(d[kEp], sh.E))
    return fail("ep",
                "ep=" + num(d[kEp]) + " must divide the model's " + num(sh.E) + " experts (E)");
  if (c.microbatches > 1 && d[kPp] <= 1)
    return fail("microbatches", "microbatches=" + num(c.microbatches) +
                                    " needs pp > 1; without a pipeline use grad_accum");
  if (c.slices > 1 && c.dcn_bandwidth <= 0)
    return fail("dcn_bandwidth",
                "slices=" + num(c.slices) + " needs the chip's dcn_bandwidth; give dcn_bandwidth");
  if (c.offload && c.pcie_bandwidth <= 0)
    return fail("pcie_bandwidth",
                "offload=yes needs the chip's pcie_bandwidth; give pcie_bandwidth");
  if (c.uneven_batch) return std::nullopt;
  if (!divides(c.T, c.B))
    return fail(
        "B", "B = " + num(c.B) + " tokens must be whole sequences of T = " + num(c.T) + " tokens");
  const double shards = d[kDp] * d[kFsdp] * d[kEp] * c.slices;
  const double parts = shards * c.microbatches * c.grad_accum;
  const double sequences = c.B / c.T;
  // Split sequences: more parts than sequences, each a whole fraction of one.
  const bool split = c.split_sequences && parts > sequences && divides(sequences, parts) &&
                     divides(parts / sequences, c.T);
  if (!divides(parts, sequences) && !split)
    return fail("B", "B = " + num(c.B) + " tokens is " + num(sequences) +
                         " sequences, which do not split into dp x fsdp x ep x slices x "
                         "microbatches x grad_accum = " +
                         num(parts) +
                         (c.split_sequences ? " parts of whole sequences or equal parts of one"
                                            : " parts of whole sequences"));
  return std::nullopt;
}

namespace {

// The bandwidth an AllGather over the axes in `mask` gets on a switched fabric, as a multiple
// of `link`; 1 for a group of one GPU.
double switched_multiple(const ParallelLayout& layout, unsigned mask, double link) {
  if (mask == 0) return 1;
  const double per_byte =
      switched_cost(CollectiveOp::all_gather, 1.0, group_extents(layout, mask), layout.levels)
          .t_bandwidth;
  return per_byte > 0 ? 1 / (per_byte * link) : 1;
}

}  // namespace

void add_thresholds(const TrainingConfig& c, const ParallelLayout& layout, TrainingStep& s) {
  const auto& d = layout.degrees;
  const auto& m = layout.axis_counts;
  // FSDP's axes, or DP's when there is no FSDP; TP's; each at least one.
  const int batch_strategy = d[kFsdp] > 1 ? kFsdp : kDp;
  if (layout.switched) {
    // A GPU's NVLink egress, one way, is chapter 12's W; M is what a group's fabric gives it
    // against that: 8/7 in a node, 400/450 over whole nodes, 50/450 with one GPU per node.
    s.W_ici = c.ici_link;
    s.M_X = switched_multiple(layout, layout.masks[batch_strategy], c.ici_link);
    s.M_Y = switched_multiple(layout, layout.masks[kTp], c.ici_link);
  } else {
    s.W_ici = 2 * c.ici_link;
    const double mx = m[batch_strategy];
    s.M_X = mx > 1 ? mx : 1;
    s.M_Y = m[kTp] > 1 ? m[kTp] : 1;
  }
  s.alpha = c.peak_flops / s.W_ici;
  const double F = c.shape.F;
  // The book's closed forms take 2-byte weights and activations; other widths scale the bytes
  // each side moves (int8 activations halve TP's bytes as int8 doubles C: the TP limit holds).
  const double alpha_w = s.alpha * (c.w / 2);  // weights and gradients (DP, FSDP)
  const double alpha_a = s.alpha * (c.a / 2);  // activations (TP)
  s.critical_batch = alpha_w / s.M_X;
  s.max_tp = s.M_Y * F / alpha_a;
  // The FSDP x TP group and the batch it shares.
  const double N = d[kFsdp] * d[kTp];
  const double B = c.B / (d[kDp] * d[kEp] * c.slices);
  s.x_opt = std::sqrt(c.a / c.w * B / F * s.M_X / s.M_Y * N);
  s.y_opt = N / s.x_opt;
  s.mixed_batch = alpha_w * alpha_a / (s.M_X * s.M_Y * F);
  s.dcn_batch = c.dcn_bandwidth > 0 ? c.peak_flops / c.dcn_bandwidth * (c.g / 2) : 0;
}

TrainingStep pure_fsdp_thresholds(const TrainingConfig& c, double chips, double m_x, double m_y) {
  ParallelLayout layout;
  layout.chips = chips;
  layout.degrees.fill(1);
  layout.degrees[kFsdp] = chips;
  layout.axis_counts[kFsdp] = m_x;
  layout.axis_counts[kTp] = m_y;
  TrainingStep s;
  add_thresholds(c, layout, s);
  return s;
}

void clear_step(TrainingStep& s) {
  static_assert(std::is_standard_layout_v<TrainingStep> &&
                std::is_trivially_copyable_v<TrainingStep>);
  static const TrainingStep blank{};
  std::memcpy(static_cast<void*>(&s), &blank, offsetof(TrainingStep, rows));
}

std::optional<Error> evaluate_training(const TrainingConfig& c, const ParallelLayout& layout,
                                       CostMemo& memo, TrainingStep& s) {
  if (std::optional<Error> bad = check_training(c, layout)) return bad;
  start_step(c, layout, s);
  add_compute(c, layout, s);
  add_collectives(c, layout, memo, s);
  add_memory(c, layout, s);
  add_thresholds(c, layout, s);
  add_step_time(c, s);
  return std::nullopt;
}

void start_step(const TrainingConfig& c, const ParallelLayout& layout, TrainingStep& s) {
  const auto& d = layout.degrees;
  s.chips_total = layout.chips * c.slices;
  s.batch_shards = d[kDp] * d[kFsdp] * d[kEp] * c.slices;
  s.sequences = c.B / c.T;
  s.tokens_per_shard = c.B / s.batch_shards;
  s.tokens_per_chip = c.B / s.chips_total;
  s.micro_tokens = s.tokens_per_shard / (c.microbatches * c.grad_accum);
}

namespace {

// Exposed time under half a percent of the step is rounding, not a bound.
bool shows(double exposed, double step_time) { return exposed > 0.005 * step_time; }

std::string percent(double part, double whole) {
  return std::to_string(static_cast<long long>(std::lround(100 * part / whole))) + "%";
}

const char* beyond_words(const char* kind) {
  const std::string k = kind;
  if (k == "gradients")
    return "gradient reductions (DP, ZeRO-1) that outlast the last backward pass";
  if (k == "dcn") return "DCN gradient AllReduce that outlasts the last backward pass";
  if (k == "pcie") return "optimizer traffic over PCIe that outlasts the compute";
  return "FSDP and DP collectives that outlast the compute";
}

}  // namespace

std::string bound_detail(const TrainingStep& s) {
  if (!s.fits) return "does not fit in HBM";
  std::string out = std::string(s.bound) + "-bound";
  if (!shows(s.exposed, s.step_time)) return out + "; the communication hides under it";
  out += "; " + format_value(s.exposed, "s", "si") + " more (" + percent(s.exposed, s.step_time) +
         " of the step) waits on communication: ";
  std::string parts;
  if (s.t_critical > 0)
    parts = format_value(s.t_critical, "s", "si") +
            " of TP, EP and pipeline collectives on the critical path";
  if (s.exposed_beyond > 0)
    parts += (parts.empty() ? "" : ", and ") + format_value(s.exposed_beyond, "s", "si") + " of " +
             beyond_words(s.exposed_kind);
  return out + parts;
}

std::string bound_short(const char* bound, double exposed, double step_time) {
  if (!shows(exposed, step_time)) return bound;
  return std::string(bound) + " + " + percent(exposed, step_time) + " comms";
}

}  // namespace scalebook
