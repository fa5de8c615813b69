// Memory per chip by part, the HBM traffic of a step, and the step's time from its parts.
#include <algorithm>

#include "scalebook/training/training.h"

namespace scalebook {
namespace {

// The parameters one chip keeps of the model before FSDP: / tp / pp, routed experts / ep.
double params_before_fsdp(const TrainingShape& sh, const ParallelLayout& layout) {
  const auto& d = layout.degrees;
  return ((sh.params - sh.params_routed) + sh.params_routed / d[kEp]) / (d[kTp] * d[kPp]) *
         stage_imbalance(sh.L, d[kPp]);
}

}  // namespace

void add_memory(const TrainingConfig& c, const ParallelLayout& layout, TrainingStep& s) {
  const TrainingShape& sh = c.shape;
  const auto& d = layout.degrees;
  const double base = params_before_fsdp(sh, layout);
  const double fsdp = d[kFsdp];
  s.mem_params = c.w * base / (c.zero == 3 ? fsdp : 1);
  s.mem_grads = c.g * base / (c.zero >= 2 ? fsdp : 1);
  const double optimizer = c.optimizer_states * c.o * base / fsdp;
  s.mem_host = c.offload ? optimizer : 0;
  s.mem_optimizer = c.offload ? 0 : optimizer;
  const double width =
      c.checkpoints ? *c.checkpoints * sh.D : sh.act_width[static_cast<std::size_t>(c.remat)];
  s.mem_activations = c.a * width / d[kTp] * s.micro_tokens * s.in_flight *
                      (sh.L / d[kPp] * stage_imbalance(sh.L, d[kPp]));
  s.mem_total = s.mem_params + s.mem_grads + s.mem_optimizer + s.mem_activations;
  s.fits = s.mem_total <= c.hbm_capacity;
  s.mem_over = s.fits ? 0 : s.mem_total - c.hbm_capacity;

  // HBM traffic: the weights a chip computes with read three times a pass (forward, and the
  // backward's two matmuls), and the optimizer update reading the weight, gradient and state
  // shard and writing the weight and state back.
  const double computed_with = c.w * base;
  const double units = c.microbatches * c.grad_accum;
  const double update = base / fsdp * (2 * c.w + c.g + 2 * c.optimizer_states * c.o);
  s.t_hbm = (3 * computed_with * units + (c.offload ? 0 : update)) / c.hbm_bandwidth;
  // An offloaded optimizer state crosses PCIe to the chip and back each step, both ways at once.
  s.t_pcie = c.offload ? optimizer / c.pcie_bandwidth : 0;
}

void add_step_time(const TrainingConfig& c, TrainingStep& s) {
  // The chip is busy computing (or streaming HBM, if that is longer); the overlappable
  // collectives, each kind on its own links, hide under that; the critical ones add to it.
  // The gradient reductions once a step (DP's AllReduce on ICI and over DCN, ZeRO-1's
  // ReduceScatter) can only start as the last backward pass frees each layer's gradients, so
  // they hide under that pass alone: its share of the FLOPs (2x forward plus the recompute,
  // of 3x forward plus the recompute) over the passes of the step.
  const double busy = std::max(s.t_compute, s.t_hbm);
  const double backward = s.flops_step > 0 ? (s.flops_step - s.flops_model / 3) / s.flops_step : 0;
  s.t_backward = busy * backward / (c.microbatches * c.grad_accum);
  struct Beyond {
    const char* kind;
    double t;
  };
  const Beyond beyond[] = {{"ici", s.t_overlap_ici - busy},
                           {"gradients", s.t_grad_ici - s.t_backward},
                           {"dcn", s.t_dcn - s.t_backward},
                           {"pcie", s.t_pcie - busy}};
  for (const Beyond& b : beyond) {
    if (b.t <= s.exposed_beyond) continue;
    s.exposed_beyond = b.t;
    s.exposed_kind = b.kind;
  }
  s.exposed = s.t_critical + s.exposed_beyond;
  s.step_time = busy + s.exposed;
  struct Term {
    const char* name;
    double t;
  };
  const Term terms[] = {{"compute", s.t_compute},
                        {c.gpu ? "network" : "ici", s.t_ici},
                        {"dcn", s.t_dcn},
                        {"hbm", s.t_hbm},
                        {"pcie", s.t_pcie}};
  const Term* top = &terms[0];
  for (const Term& t : terms)
    if (t.t > top->t) top = &t;
  s.step_overlapped = top->t;
  s.step_serial = s.t_compute + s.t_ici + s.t_dcn + s.t_hbm + s.t_pcie;
  s.bound = s.fits ? top->name : "does-not-fit";
  const double cluster = s.chips_total * c.peak_flops;
  s.mfu_ceiling = s.flops_model / (cluster * s.step_overlapped);
  s.mfu = s.flops_model / (cluster * s.step_time);
}

}  // namespace scalebook
