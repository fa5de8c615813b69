// The training calculator's worked steps (the explained path only): each number with the
// formula that made it, the book's where it has one.
#include <string>
#include <vector>

#include "parts.h"
#include "scalebook/core/format.h"

namespace scalebook::training_parts {
namespace {

std::string n(double x) { return latex_number(x); }
std::string q(double x, const char* unit) { return latex_quantity(x, unit); }

const char* book_op(TrainingOp op) {
  switch (op) {
    case TrainingOp::all_gather:
      return "AllGather";
    case TrainingOp::reduce_scatter:
      return "ReduceScatter";
    case TrainingOp::all_reduce:
      return "AllReduce";
    case TrainingOp::all_to_all:
      return "AllToAll";
    case TrainingOp::send:
      return "Send";
  }
  return "";
}

std::string axes_text(const ParallelLayout& layout, unsigned mask) {
  if (mask & kDcnMask) return "DCN";
  std::string out;
  for (std::size_t i = 0; i < layout.axes.size(); ++i)
    if (mask & (1u << i)) out += axis_name(layout.axes[i]);
  return out;
}

class Steps {
 public:
  // Literal unit, output and depends: Step's out-of-line constructor builds them.
  void add(std::string label, std::string latex, double value, const char* unit, const char* output,
           std::initializer_list<const char*> depends = {}) {
    list.emplace_back(std::move(label), std::move(latex), value, unit, output, depends);
  }
  std::vector<Step> list;
};

void batch_steps(const Explained& e, Steps& st) {
  const TrainingConfig& c = *e.config;
  const ParallelLayout& l = *e.layout;
  const TrainingStep& s = *e.step;
  const auto& d = l.degrees;
  std::string sizes;
  for (const Axis& a : l.axes) sizes += (sizes.empty() ? "" : " \\cdot ") + n(double(a.size));
  st.add("Chips in one slice (" + l.shape + ")", "N = " + sizes + " = " + n(l.chips), l.chips,
         "chips", "chips");
  st.add("Batch shards: dp x fsdp x ep x slices",
         "\\frac{B}{X} = \\frac{" + n(c.B) + "}{" + n(d[kDp]) + " \\cdot " + n(d[kFsdp]) +
             " \\cdot " + n(d[kEp]) + " \\cdot " + n(c.slices) +
             "} = " + q(s.tokens_per_shard, "tokens"),
         s.tokens_per_shard, "tokens", "tokens_per_shard");
  st.add("Tokens per chip", "\\frac{B}{N} = " + q(s.tokens_per_chip, "tokens"), s.tokens_per_chip,
         "tokens", "tokens_per_chip");
}

void compute_steps(const Explained& e, Steps& st) {
  const TrainingConfig& c = *e.config;
  const TrainingStep& s = *e.step;
  const TrainingShape& sh = c.shape;
  if (sh.book_mlp) {
    // Block remat runs the forward (4BDF) again; the other policies recompute no matmul here.
    const bool again = c.remat == RematPolicy::block;
    st.add(again ? "FLOPs of one layer: 4BDF forward, 8BDF backward and 4BDF recomputed (remat "
                   "block)"
                 : "FLOPs of one layer: 4BDF forward, 8BDF backward (the book's two matmuls)",
           (again ? "16" : "12") + std::string(" B D F = ") + (again ? "16" : "12") + " \\cdot " +
               n(c.B) + " \\cdot " + n(sh.D) + " \\cdot " + n(sh.F) + " = " +
               q(s.flops_layer, "FLOP"),
           s.flops_layer, "FLOP", "flops_layer");
  } else {
    st.add("FLOPs of one layer (" + e.model_name + "): 3x forward, plus remat's recompute",
           "\\text{FLOPs}_\\ell = " + q(s.flops_layer, "FLOP"), s.flops_layer, "FLOP",
           "flops_layer");
  }
  st.add("Compute time of one layer on one chip",
         "T_\\ell = \\frac{" + q(s.flops_layer, "FLOP") + "}{" + n(s.chips_total) + " \\cdot " +
             q(c.peak_flops, "FLOP/s") + "} = " + q(s.t_compute_layer, "s"),
         s.t_compute_layer, "s", "t_compute_layer", {"flops_layer"});
  st.add("FLOPs of the step", "\\text{FLOPs} = " + q(s.flops_step, "FLOP"), s.flops_step, "FLOP",
         "flops_step");
  st.add("Pipeline bubble", "\\frac{p - 1}{m + p - 1} = " + n(s.bubble), s.bubble, "", "bubble");
  st.add("Compute time of the step, stretched by the bubble",
         "T_\\text{math} = \\frac{" + q(s.flops_step, "FLOP") + "}{" + n(s.chips_total) +
             " \\cdot " + q(c.peak_flops, "FLOP/s") + " \\cdot (1 - " + n(s.bubble) +
             ")} = " + q(s.t_compute, "s"),
         s.t_compute, "s", "t_compute", {"flops_step", "bubble"});
}

void collective_steps(const Explained& e, Steps& st) {
  const ParallelLayout& l = *e.layout;
  const TrainingStep& s = *e.step;
  for (int i = 0; i < s.n_rows; ++i) {
    const CollectiveRow& r = s.rows[static_cast<std::size_t>(i)];
    std::string label = std::string(book_op(r.op)) + " of " + r.tensor + " over " +
                        axes_text(l, r.mask) + " (" + to_string(r.strategy) + ", " +
                        to_string(r.phase) + (r.critical ? ", critical path" : ", overlapped") +
                        "), " + format_number(r.count) + " per step";
    std::string latex = r.op == TrainingOp::send
                            ? "T = T_\\text{hop} + \\frac{V}{W} = " + q(r.t_latency, "s") +
                                  " + \\frac{" + q(r.bytes, "B") + "}{" + q(1 / r.per_byte, "B/s") +
                                  "} = " + q(r.time, "s")
                            : "T = \\max\\left(T_\\text{lat}, \\frac{V}{W_\\text{eff}}\\right) = "
                              "\\max\\left(" +
                                  q(r.t_latency, "s") + ", \\frac{" + q(r.bytes, "B") + "}{" +
                                  q(1 / r.per_byte, "B/s") + "}\\right) = " + q(r.time, "s");
    // Each feeds the sum its row joins, whose step follows.
    const char* sum = r.mask & kDcnMask ? "t_dcn" : r.critical ? "t_critical" : "t_overlap_ici";
    st.add(std::move(label), std::move(latex), r.time, "s", sum);
  }
  st.add("Critical-path communication (TP, EP, pipeline sends)",
         "T_\\text{crit} = \\textstyle\\sum \\text{count} \\cdot T = " + q(s.t_critical, "s"),
         s.t_critical, "s", "t_critical");
  st.add("Overlappable ICI communication (FSDP, DP)",
         "T_\\text{ovl} = \\textstyle\\sum \\text{count} \\cdot T = " + q(s.t_overlap_ici, "s"),
         s.t_overlap_ici, "s", "t_overlap_ici");
  st.add("ICI communication", "T_\\text{ici} = T_\\text{crit} + T_\\text{ovl} = " + q(s.t_ici, "s"),
         s.t_ici, "s", "t_ici", {"t_critical", "t_overlap_ici"});
  st.add("DCN communication", "T_\\text{dcn} = " + q(s.t_dcn, "s"), s.t_dcn, "s", "t_dcn");
}

void step_steps(const Explained& e, Steps& st) {
  const TrainingConfig& c = *e.config;
  const TrainingStep& s = *e.step;
  st.add("HBM time: weight reads and the optimizer update", "T_\\text{hbm} = " + q(s.t_hbm, "s"),
         s.t_hbm, "s", "t_hbm");
  st.add(
      "The last backward pass: the gradient reductions (DP on ICI and DCN, ZeRO-1) start as "
      "it frees each layer's gradients, so they hide under it alone",
      "T_\\text{bwd} = \\max(T_\\text{math}, T_\\text{hbm}) \\cdot \\frac{" +
          q(s.flops_step - s.flops_model / 3, "FLOP") + "}{" + q(s.flops_step, "FLOP") +
          "} \\cdot \\frac{1}{" + n(c.microbatches * c.grad_accum) + "} = " + q(s.t_backward, "s"),
      s.t_backward, "s", "t_backward", {"t_compute"});
  st.add("Exposed communication: the critical path, and what outlasts its window",
         "T_\\text{crit} + \\max(0,\\ T_\\text{ovl} - T_\\text{busy},\\ T_\\text{grad} - "
         "T_\\text{bwd},\\ T_\\text{dcn} - T_\\text{bwd},\\ T_\\text{pcie} - T_\\text{busy}) = " +
             q(s.t_critical, "s") + " + " + q(s.exposed_beyond, "s") + " = " + q(s.exposed, "s"),
         s.exposed, "s", "exposed_comm", {"t_critical", "t_overlap_ici", "t_backward"});
  st.add("Step time",
         "\\max(T_\\text{math}, T_\\text{hbm}) + T_\\text{exposed} = " + q(s.step_time, "s"),
         s.step_time, "s", "step_time", {"exposed_comm"});
  st.add(std::string("Step time with everything overlapped (") + s.bound + " bound)",
         "\\max(T_\\text{math}, T_\\text{ici}, T_\\text{dcn}, T_\\text{hbm}, T_\\text{pcie}) = " +
             q(s.step_overlapped, "s"),
         s.step_overlapped, "s", "step_time_overlapped", {"t_compute", "t_ici"});
  st.add("Step time with nothing overlapped",
         "T_\\text{math} + T_\\text{ici} + T_\\text{dcn} + T_\\text{hbm} + T_\\text{pcie} = " +
             q(s.step_serial, "s"),
         s.step_serial, "s", "step_time_serial");
  st.add("MFU ceiling",
         "\\frac{" + q(s.flops_model, "FLOP") + "}{N C \\cdot " + q(s.step_overlapped, "s") +
             "} = " + n(s.mfu_ceiling),
         s.mfu_ceiling, "", "mfu_ceiling", {"step_time_overlapped"});
}

void memory_steps(const Explained& e, Steps& st) {
  const TrainingConfig& c = *e.config;
  const ParallelLayout& l = *e.layout;
  const TrainingStep& s = *e.step;
  const auto& d = l.degrees;
  const std::string shard = "\\frac{P}{" + n(d[kTp]) + " \\cdot " + n(d[kPp]) + "}";
  st.add("Weights per chip (" + n(c.w) + " B each, / tp / pp" +
             (c.zero == 3 ? ", / fsdp at ZeRO-3)" : ")"),
         n(c.w) + " \\cdot " + shard + (c.zero == 3 ? " / " + n(d[kFsdp]) : "") + " = " +
             q(s.mem_params, "B"),
         s.mem_params, "B", "mem_params");
  st.add("Gradients per chip",
         n(c.g) + " \\cdot " + shard + (c.zero >= 2 ? " / " + n(d[kFsdp]) : "") + " = " +
             q(s.mem_grads, "B"),
         s.mem_grads, "B", "mem_grads");
  st.add(c.offload ? "Optimizer state per chip: offloaded to the host" : "Optimizer state per chip",
         n(c.optimizer_states) + " \\cdot " + n(c.o) + " \\cdot " + shard + " / " + n(d[kFsdp]) +
             " = " + q(c.offload ? s.mem_host : s.mem_optimizer, "B"),
         s.mem_optimizer, "B", "mem_optimizer");
  st.add("Saved activations per chip: width per token x tokens in flight x layers per stage / tp",
         "a \\cdot w \\cdot b \\cdot m_\\text{flight} \\cdot \\frac{L}{p} / t = " +
             q(s.mem_activations, "B"),
         s.mem_activations, "B", "mem_activations");
  st.add(std::string("Memory per chip (") + (s.fits ? "fits in" : "over") + " " +
             format_number(c.hbm_capacity / 1e9) + " GB of HBM)",
         q(s.mem_params, "B") + " + " + q(s.mem_grads, "B") + " + " + q(s.mem_optimizer, "B") +
             " + " + q(s.mem_activations, "B") + " = " + q(s.mem_total, "B"),
         s.mem_total, "B", "mem_total",
         {"mem_params", "mem_grads", "mem_optimizer", "mem_activations"});
  st.add("Over HBM by",
         "\\max(0, " + q(s.mem_total, "B") + " - " + q(c.hbm_capacity, "B") +
             ") = " + q(s.mem_over, "B"),
         s.mem_over, "B", "mem_over", {"mem_total"});
}

void threshold_steps(const Explained& e, Steps& st) {
  const TrainingConfig& c = *e.config;
  const TrainingStep& s = *e.step;
  const auto& d = e.layout->degrees;
  if (e.layout->switched) {
    st.add("A GPU's NVLink egress into its node, one way (chapter 12's W)",
           "W = " + q(s.W_ici, "B/s"), s.W_ici, "B/s", "W_ici");
  } else {
    st.add("ICI bandwidth of one axis, both ways",
           "W_\\text{ici} = 2 \\cdot " + q(c.ici_link, "B/s") + " = " + q(s.W_ici, "B/s"), s.W_ici,
           "B/s", "W_ici");
  }
  st.add(e.layout->switched ? "Intensity of the NVLink" : "ICI intensity",
         "\\alpha = \\frac{C}{W_\\text{ici}} = \\frac{" + q(c.peak_flops, "FLOP/s") + "}{" +
             q(s.W_ici, "B/s") + "} = " + n(s.alpha),
         s.alpha, "FLOP/B", "alpha", {"W_ici"});
  // alpha as the side that moves the bytes sees it: the book's 2-byte elements, else scaled.
  const double aw = s.alpha * (c.w / 2), aa = s.alpha * (c.a / 2);
  const std::string scaled =
      c.w == 2 && c.a == 2 ? "" : " (alpha scaled by bytes / 2 for the dtypes)";
  st.add("DP/FSDP are compute-bound above this batch per chip" + scaled,
         "\\frac{B}{X} > \\frac{\\alpha}{M_X} = \\frac{" + n(aw) + "}{" + n(s.M_X) +
             "} = " + q(s.critical_batch, "tokens"),
         s.critical_batch, "tokens", "critical_batch", {"alpha"});
  st.add("Largest useful TP degree" + scaled,
         "Y < \\frac{M_Y F}{\\alpha} = \\frac{" + n(s.M_Y) + " \\cdot " + n(c.shape.F) + "}{" +
             n(aa) + "} = " + n(s.max_tp),
         s.max_tp, "chips", "max_tp", {"alpha"});
  st.add("Optimal FSDP degree of FSDP x TP" + scaled,
         "X_{opt} = \\sqrt{\\frac{B}{F} \\frac{M_X}{M_Y} N} = \\sqrt{\\frac{" +
             n(c.B / (d[kDp] * d[kEp] * c.slices)) + "}{" + n(c.shape.F) + "} \\cdot \\frac{" +
             n(s.M_X) + "}{" + n(s.M_Y) + "} \\cdot " + n(d[kFsdp] * d[kTp]) + "} = " + n(s.x_opt),
         s.x_opt, "chips", "x_opt");
  st.add("Mixed FSDP + TP is compute-bound above this batch per chip" + scaled,
         "\\frac{B}{N} > \\frac{\\alpha^2}{M_X M_Y F} = \\frac{" + n(aw) + " \\cdot " + n(aa) +
             "}{" + n(s.M_X) + " \\cdot " + n(s.M_Y) + " \\cdot " + n(c.shape.F) +
             "} = " + q(s.mixed_batch, "tokens"),
         s.mixed_batch, "tokens", "mixed_batch", {"alpha"});
  if (s.dcn_batch > 0) {
    st.add("DP over DCN is compute-bound above this batch per slice",
           "\\frac{C}{W_\\text{dcn}} = \\frac{" + q(c.peak_flops, "FLOP/s") + "}{" +
               q(c.dcn_bandwidth, "B/s") + "} = " + q(s.dcn_batch, "tokens"),
           s.dcn_batch, "tokens", "dcn_batch");
  }
}

}  // namespace

std::vector<Step> training_steps(const Explained& e) {
  Steps st;
  batch_steps(e, st);
  compute_steps(e, st);
  collective_steps(e, st);
  step_steps(e, st);
  memory_steps(e, st);
  threshold_steps(e, st);
  return std::move(st.list);
}

}  // namespace scalebook::training_parts
