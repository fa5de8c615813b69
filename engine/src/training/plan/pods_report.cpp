// The training-plan calculator's planner over pods: its outputs, the by-pods table and the
// steps that derive the recommended count (plan.h states the model).
#include <string>
#include <utility>
#include <vector>

#include "parts.h"
#include "scalebook/core/format.h"

namespace scalebook::plan_parts {
namespace {

constexpr auto num = number_output;
constexpr auto text = text_output;

const char* yes(bool b) { return b ? "yes" : "no"; }

std::string n(double x) { return latex_number(x); }

std::vector<Step> steps(const PlanRequest& q, const PodsPlan& pp) {
  const TrainingPlan& p = pp.plan;
  const double k = pp.recommended;
  std::vector<Step> st;
  auto add = [&](std::string label, std::string latex, double value, const char* unit,
                 const char* output, std::initializer_list<const char*> depends = {}) {
    st.emplace_back(std::move(label), std::move(latex), value, unit, output, depends);
  };
  add("The planner adds pods of one size: the chips over the pods given",
      "N_\\text{pod} = \\frac{" + n(q.chips) + "}{" + n(q.slices) + "} = " + n(pp.chips_per_pod),
      pp.chips_per_pod, "chips", "chips_per_pod");
  add("Pods at which each chip's batch falls to FSDP's threshold",
      "k_\\text{FSDP} = \\frac{B}{N_\\text{pod} \\cdot \\alpha / M_X} = \\frac{" + n(q.B) + "}{" +
          n(pp.chips_per_pod) + " \\cdot " + n(p.critical_batch) + "} = " + n(pp.at_fsdp),
      pp.at_fsdp, "pods", "pods_at_fsdp", {"chips_per_pod", "critical_batch"});
  add("Pods at which each chip's batch falls to the mixed threshold",
      "k_\\text{mixed} = \\frac{B}{N_\\text{pod} \\cdot \\alpha^2 / (M_X M_Y F)} = \\frac{" +
          n(q.B) + "}{" + n(pp.chips_per_pod) + " \\cdot " + n(p.mixed_batch) +
          "} = " + n(pp.at_mixed),
      pp.at_mixed, "pods", "pods_at_mixed", {"chips_per_pod", "mixed_batch"});
  std::string limit = "\\min(\\max(k_\\text{FSDP}, k_\\text{mixed}), k_\\text{DCN})";
  if (pp.at_dcn > 0) {
    add("Pods at which each pod's batch falls to the DCN threshold",
        "k_\\text{DCN} = \\frac{B}{C / W_\\text{dcn}} = \\frac{" + n(q.B) + "}{" + n(p.dcn_batch) +
            "} = " + n(pp.at_dcn),
        pp.at_dcn, "pods", "pods_at_dcn", {"dcn_batch"});
    add("The same threshold as tokens per chip of a pod",
        "\\frac{C / W_\\text{dcn}}{N_\\text{pod}} = \\frac{" + n(p.dcn_batch) + "}{" +
            n(pp.chips_per_pod) + "} = " + n(p.dcn_batch / pp.chips_per_pod),
        p.dcn_batch / pp.chips_per_pod, "tokens", "dcn_per_chip", {"dcn_batch", "chips_per_pod"});
  } else {
    limit = "\\max(k_\\text{FSDP}, k_\\text{mixed})";
  }
  const std::string sequences = n(q.B / q.T);
  if (pp.ok)
    add("The most whole pods within every limit over which the " + format_number(q.B / q.T) +
            " sequences split evenly",
        "k = \\max\\{k \\le " + limit + " = " + n(pp.limit) + " : k \\mid " + sequences +
            "\\} = " + n(k),
        k, "pods", "pods_recommended", {"pods_at_fsdp", "pods_at_mixed", "pods_at_dcn"});
  else
    add("Even one pod is communication-bound: the fewest pods, one",
        limit + " = " + n(pp.limit) + " < 1 \\Rightarrow k = 1", k, "pods", "pods_recommended",
        {"pods_at_fsdp", "pods_at_mixed", "pods_at_dcn"});
  add("Chips in the recommended pods",
      "k \\cdot N_\\text{pod} = " + n(k) + " \\cdot " + n(pp.chips_per_pod) + " = " +
          n(k * pp.chips_per_pod),
      k * pp.chips_per_pod, "chips", "pods_chips", {"pods_recommended"});
  const double used = p.chips_used / k;
  if (p.fsdp_ok)
    add("With " + format_number(k) + " pods FSDP alone is compute-bound: it takes every chip used",
        "X = " + n(p.fsdp), p.fsdp, "chips", "pods_fsdp_degree", {"pods_recommended"});
  else
    add("The FSDP degree in each of the " + format_number(k) +
            " pods: X_opt for its share of the batch, to the nearest power of two",
        "X = 2^{\\operatorname{round}(\\log_2 \\sqrt{\\frac{" + n(q.B / k) + "}{" + n(q.shape.F) +
            "} \\cdot \\frac{" + n(q.m_x) + "}{" + n(q.m_y) + "} \\cdot " + n(pp.chips_per_pod) +
            "})} = 2^{\\operatorname{round}(\\log_2 " + n(p.x_opt) + ")} = " + n(p.fsdp),
        p.fsdp, "chips", "pods_fsdp_degree", {"pods_recommended"});
  add("TP takes the rest of each pod's " + format_number(used) + " chips used",
      "Y = \\frac{" + n(used) + "}{" + n(p.fsdp) + "} = " + n(p.tp), p.tp, "chips",
      "pods_tp_degree", {"pods_fsdp_degree"});
  return st;
}

}  // namespace

std::vector<OutputSpec> pods_outputs() {
  return {
      num("chips_per_pod", "chips", "chips / pods: the size of every pod the planner adds",
          "Chips per pod"),
      num("pods_at_fsdp", "pods",
          "B / (N_pod alpha / M_X): the pods at which each chip's batch falls to FSDP's threshold",
          "Pods where FSDP binds"),
      num("pods_at_mixed", "pods",
          "B / (N_pod alpha^2 / (M_X M_Y F)): the pods at which each chip's batch falls to the "
          "mixed threshold",
          "Pods where the mix binds"),
      num("pods_at_dcn", "pods",
          "B / (C / W_dcn): the pods at which each pod's batch falls to the DCN threshold (none "
          "without the chip's DCN bandwidth)",
          "Pods where DCN binds"),
      num("dcn_per_chip", "tokens",
          "C / W_dcn / N_pod: the DCN threshold as tokens per chip of a pod (none without the "
          "chip's DCN bandwidth)",
          "DCN threshold per chip"),
      num("pods_recommended", "pods",
          "the most whole pods of this size with each chip's batch above FSDP's or the mixed "
          "threshold and each pod's above DCN's, over which the sequences split evenly; at least "
          "1",
          "Recommended pods"),
      text("pods_ok",
           "both thresholds hold at the recommended count (yes/no; no: even one pod is "
           "communication-bound)",
           "Recommended pods compute-bound"),
      num("pods_chips", "chips", "the recommended pods' chips", "Chips in the recommended pods"),
      num("pods_fsdp_degree", "chips", "the FSDP degree in each recommended pod",
          "FSDP degree X at the recommended pods"),
      num("pods_tp_degree", "chips", "the TP degree in each recommended pod",
          "TP degree Y at the recommended pods"),
      text("pods_mesh", "the mesh for the recommended pods", "Mesh at the recommended pods"),
  };
}

TableSpec pods_table() {
  return {
      "by_pods",
      "the plan at 1, 2, 4, ... pods of this size, to four times the recommended count",
      {num("pods", "pods", "pods over DCN, k", "Pods"), num("chips", "chips", "k N_pod", "Chips"),
       num("tokens_per_pod", "tokens", "B / k", "Tokens per pod"),
       num("tokens_per_chip", "tokens", "B / (k N_pod)", "Tokens per chip"),
       text("fsdp_ok", "tokens per chip at least FSDP's threshold (yes/no)", "FSDP holds"),
       text("mixed_ok", "tokens per chip at least the mixed threshold (yes/no)", "Mix holds"),
       text("dcn_ok", "tokens per pod at least DCN's threshold (yes/no; yes for one pod)",
            "DCN holds"),
       text("bound",
            "compute with FSDP, compute with FSDP+TP, ICI-bound, DCN-bound, or ICI- and "
            "DCN-bound",
            "Bound"),
       num("fsdp_degree", "chips", "the FSDP degree in each pod", "FSDP X"),
       num("tp_degree", "chips", "the TP degree in each pod", "TP Y"),
       text("recommended", "yes for the recommended count", "Recommended")}};
}

void report_pods(const PlanRequest& q, const PodsPlan& pp, ResultBuilder& out) {
  out.set("chips_per_pod", pp.chips_per_pod);
  out.set("pods_at_fsdp", pp.at_fsdp);
  out.set("pods_at_mixed", pp.at_mixed);
  if (pp.at_dcn > 0) {
    out.set("pods_at_dcn", pp.at_dcn);
    out.set("dcn_per_chip", pp.plan.dcn_batch / pp.chips_per_pod);
  } else {
    out.none("pods_at_dcn", "no DCN: the chip has no dcn_bandwidth in the catalog");
    out.none("dcn_per_chip", "no DCN: the chip has no dcn_bandwidth in the catalog");
  }
  out.set("pods_recommended", pp.recommended);
  out.set_text("pods_ok", yes(pp.ok));
  out.set("pods_chips", pp.recommended * pp.chips_per_pod);
  out.set("pods_fsdp_degree", pp.plan.fsdp);
  out.set("pods_tp_degree", pp.plan.tp);
  // pp.plan answers the request for the recommended count of pods.
  training_parts::Line mesh;
  add_mesh(with_pods(q, pp.recommended), pp.plan, mesh);
  out.set_text("pods_mesh", mesh.view());
  if (out.explain())
    for (Step& s : steps(q, pp)) out.step(std::move(s));
  if (!out.tables()) return;
  Table t = empty_table(out.schema().tables.front());
  for (const PodsRow& r : pp.rows)
    t.rows.push_back({Value::of(r.pods), Value::of(r.chips), Value::of(r.tokens_per_pod),
                      Value::of(r.tokens_per_chip), Value::of(yes(r.fsdp_ok)),
                      Value::of(yes(r.mixed_ok)), Value::of(yes(r.dcn_ok)), Value::of(r.bound),
                      Value::of(r.fsdp), Value::of(r.tp), Value::of(yes(r.recommended))});
  out.table("by_pods", std::move(t));
}

}  // namespace scalebook::plan_parts
