// The sharding decision's three questions and the mesh they lead to. The thresholds are
// chapter 5's (add_thresholds), evaluated on a layout that has only the question's FSDP and TP
// axes, so the plan and the step model cannot disagree about a formula.
#include "scalebook/training/plan.h"

#include <cmath>
#include <string>

#include "scalebook/core/format.h"

namespace scalebook {
namespace {

Error fail(const std::string& field, std::string message) {
  return Error{ErrorCode::invalid_argument, field, std::move(message)};
}

std::string whole(double x) { return std::to_string(static_cast<long long>(x)); }

bool divides(double d, double n) { return std::fmod(n, d) == 0; }

double largest_power_of_two_at_most(double n) { return std::exp2(std::floor(std::log2(n))); }

// The largest power of two dividing n (a whole number), at most cap (a power of two).
double power_of_two_dividing(double n, double cap) {
  double p = 1;
  while (p < cap && divides(2 * p, n)) p *= 2;
  return p;
}

TrainingConfig config_of(const PlanRequest& q) {
  TrainingConfig c;
  c.shape = q.shape;
  c.B = q.B;
  c.T = q.T;
  c.slices = q.slices;
  c.w = c.g = q.w;
  c.a = q.a;
  c.peak_flops = q.peak_flops;
  c.ici_link = q.ici_link;
  c.dcn_bandwidth = q.dcn_bandwidth;
  return c;
}

// One pod's chips as FSDP over m_x axes and TP over m_y (degree 1: x_opt wants only N).
TrainingStep thresholds(const PlanRequest& q, double m_x, double m_y) {
  return pure_fsdp_thresholds(config_of(q), q.chips / q.slices, m_x, m_y);
}

}  // namespace

std::optional<Error> check_plan(const PlanRequest& q) {
  if (!divides(q.T, q.B))
    return fail("B", "B = " + whole(q.B) + " tokens must be whole sequences of T = " + whole(q.T) +
                         " tokens");
  if (!divides(q.slices, q.chips))
    return fail("slices", "chips = " + whole(q.chips) + " do not split into " + whole(q.slices) +
                              " equal pods");
  if (!divides(q.slices, q.B / q.T))
    return fail("B", "B = " + whole(q.B) + " tokens is " + whole(q.B / q.T) +
                         " sequences, which do not split over " + whole(q.slices) + " pods");
  if (q.m_fsdp > q.axes)
    return fail("M_fsdp", "M_fsdp = " + whole(q.m_fsdp) + " axes, but the chip's slices have " +
                              whole(q.axes));
  if (q.m_x + q.m_y > q.axes)
    return fail("M_Y", "M_X + M_Y = " + whole(q.m_x + q.m_y) +
                           " axes, but the chip's slices have " + whole(q.axes));
  return std::nullopt;
}

TrainingPlan plan_training(const PlanRequest& q) {
  TrainingPlan p;
  p.sequences = q.B / q.T;
  p.whole_sequences = p.sequences >= q.chips;
  p.tokens_per_chip = q.B / q.chips;
  const TrainingStep fsdp = thresholds(q, q.m_fsdp, 1);
  p.alpha = fsdp.alpha;
  p.critical_batch = fsdp.critical_batch;
  p.fsdp_ok = p.tokens_per_chip >= p.critical_batch;
  const TrainingStep mixed = thresholds(q, q.m_x, q.m_y);
  p.chips_slice = q.chips / q.slices;
  p.mixed_batch = mixed.mixed_batch;
  p.mixed_ratio = std::sqrt(p.tokens_per_chip / p.mixed_batch);
  p.x_opt = mixed.x_opt;
  p.y_opt = mixed.y_opt;
  p.max_tp = mixed.max_tp;
  p.mixed_ok = p.tokens_per_chip >= p.mixed_batch;
  p.tokens_per_slice = q.B / q.slices;
  p.dcn_batch = mixed.dcn_batch;
  p.dcn_ok = q.slices <= 1 || p.tokens_per_slice >= p.dcn_batch;

  const double used = largest_power_of_two_at_most(p.chips_slice);
  p.fsdp = used;
  if (!p.fsdp_ok) {
    const double x = std::exp2(std::round(std::log2(p.x_opt)));
    p.fsdp = std::fmin(std::fmax(x, 1), used);
  }
  p.tp = used / p.fsdp;
  p.tp_ok = p.tp <= p.max_tp;
  p.chips_used = used * q.slices;
  p.data = power_of_two_dividing(p.sequences / q.slices, p.fsdp);
  p.sequence = p.fsdp / p.data;
  return p;
}

}  // namespace scalebook
