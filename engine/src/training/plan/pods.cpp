// The multi-pod planner: how many pods of the request's size a batch keeps compute-bound, and
// the plan at each count. Every count is answered by plan_training itself, so the planner, the
// table and the single-count questions cannot disagree about a threshold or a mesh.
#include <cmath>
#include <limits>
#include <string>

#include "scalebook/training/plan.h"

namespace scalebook {
namespace {

bool divides(double d, double n) { return std::fmod(n, d) == 0; }

bool in_pod_ok(const TrainingPlan& p) { return p.fsdp_ok || p.mixed_ok; }

// The sequences split over k pods, and each pod's mesh cuts a sequence into whole parts.
bool splits(const PlanRequest& q, double k, const TrainingPlan& p) {
  return divides(p.sequence, q.T) && divides(k, q.B / q.T);
}

const char* bound_of(const TrainingPlan& p) {
  if (!in_pod_ok(p) && !p.dcn_ok) return "ICI- and DCN-bound";
  if (!p.dcn_ok) return "DCN-bound";
  if (!in_pod_ok(p)) return "ICI-bound";
  return p.fsdp_ok ? "compute with FSDP" : "compute with FSDP+TP";
}

PodsRow row_of(const PlanRequest& q, double k, const TrainingPlan& p, double recommended) {
  PodsRow r;
  r.pods = k;
  r.chips = k * (q.chips / q.slices);
  r.tokens_per_pod = p.tokens_per_slice;
  r.tokens_per_chip = p.tokens_per_chip;
  r.fsdp_ok = p.fsdp_ok;
  r.mixed_ok = p.mixed_ok;
  r.dcn_ok = p.dcn_ok;
  r.bound = bound_of(p);
  r.fsdp = p.fsdp;
  r.tp = p.tp;
  r.recommended = k == recommended;
  return r;
}

}  // namespace

PlanRequest with_pods(const PlanRequest& q, double k) {
  PlanRequest r = q;
  r.chips = k * (q.chips / q.slices);
  r.slices = k;
  return r;
}

PodsPlan plan_pods(const PlanRequest& q, bool rows) {
  PodsPlan pp;
  pp.chips_per_pod = q.chips / q.slices;
  const TrainingPlan one = plan_training(with_pods(q, 1));
  pp.at_fsdp = q.B / (pp.chips_per_pod * one.critical_batch);
  pp.at_mixed = q.B / (pp.chips_per_pod * one.mixed_batch);
  pp.at_dcn = one.dcn_batch > 0 ? q.B / one.dcn_batch : 0;
  const double dcn_limit = pp.at_dcn > 0 ? pp.at_dcn : std::numeric_limits<double>::infinity();
  pp.limit = std::fmin(std::fmax(pp.at_fsdp, pp.at_mixed), dcn_limit);

  // From just past the limit down (the closed form and the plan's own comparisons may round
  // apart at the boundary), the first count that holds both thresholds and splits evenly.
  const double sequences = q.B / q.T;
  double k = std::fmin(std::floor(pp.limit) + 1, std::fmin(kMaxPods, sequences));
  pp.plan = one;
  for (; k >= 1; --k) {
    if (!divides(k, sequences)) continue;
    TrainingPlan p = plan_training(with_pods(q, k));
    if (in_pod_ok(p) && p.dcn_ok && splits(q, k, p)) {
      pp.recommended = k;
      pp.plan = p;
      pp.ok = true;
      break;
    }
  }

  if (!rows) return pp;
  const double top = std::exp2(std::ceil(std::log2(4 * pp.recommended)));
  bool placed = false;
  for (double n = 1; n <= top && n <= sequences; n *= 2) {
    if (!placed && pp.recommended < n) {
      pp.rows.push_back(row_of(q, pp.recommended, pp.plan, pp.recommended));
      placed = true;
    }
    if (n == pp.recommended) placed = true;
    if (!divides(n, sequences)) continue;
    pp.rows.push_back(row_of(q, n, plan_training(with_pods(q, n)), pp.recommended));
  }
  // Fewer sequences than the table's top: the recommended count may come after the last row.
  if (!placed) pp.rows.push_back(row_of(q, pp.recommended, pp.plan, pp.recommended));
  return pp;
}

}  // namespace scalebook
