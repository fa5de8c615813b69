#include "scalebook/collectives/gpu_collective_cost.h"

#include <algorithm>
#include <string>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"

namespace scalebook {
namespace {

// The numbers gpu_collective_cost explains.
struct Stages {
  double k = 0;      // GPUs per node in the collective
  double nodes = 0;  // nodes
  double node_time = 0;
  double net_time = 0;  // 0 inside one node
};

SB_EXPLAIN_ONLY void add_steps(CollectiveCost& cost, CollectiveOp op, double bytes, double gpus,
                               const GpuLinks& links, const Stages& st) {
  const bool a2a = op == CollectiveOp::all_to_all;
  const std::string name = book_name(op);
  const std::string f = op == CollectiveOp::all_reduce ? "2 \\cdot " : "";
  const std::string v = latex_quantity(bytes, "B");
  const double k = st.k;
  std::string node_latex =
      a2a ? "\\frac{(" + latex_number(k) + " - 1) \\cdot " + v + "}{" + latex_number(gpus) +
                "^2 \\cdot " + latex_quantity(links.nvlink_bandwidth, "B/s") + "}"
          : f + "\\frac{(" + latex_number(k) + " - 1) \\cdot " + v + "}{" + latex_number(k) +
                " \\cdot " + latex_quantity(links.nvlink_bandwidth, "B/s") + "}";
  cost.steps.push_back(
      {name + " inside a node over NVLink (" + latex_number(k) + " GPUs" +
           (a2a ? ", direct sends)" : ", a ring)"),
       "T_\\text{node} = " + node_latex + " = " + latex_quantity(st.node_time, "s"),
       st.node_time,
       "s",
       "",
       {}});
  if (st.nodes > 1) {
    std::string m = latex_number(st.nodes);
    std::string net_latex = (a2a ? "" : f) + "\\frac{(" + m + " - 1) \\cdot " + v + "}{" + m +
                            (a2a ? "^2" : "") + " \\cdot " +
                            latex_quantity(links.node_bandwidth, "B/s") + "}";
    cost.steps.push_back({name + " between " + m + " nodes over node egress",
                          "T_\\text{net} = " + net_latex + " = " + latex_quantity(st.net_time, "s"),
                          st.net_time,
                          "s",
                          "",
                          {}});
    cost.steps.push_back({"Bandwidth time: the stages pipeline, so the slower one sets it",
                          "T_\\text{bw} = \\max(T_\\text{node}, T_\\text{net}) = " +
                              latex_quantity(cost.t_bandwidth, "s"),
                          cost.t_bandwidth,
                          "s",
                          "t_bandwidth",
                          {}});
  } else {
    cost.steps.back().output = "t_bandwidth";
  }
  std::string sum;
  for (double h : cost.axis_hops) sum += (sum.empty() ? "" : " + ") + latex_number(h);
  if (cost.axis_hops.size() > 1) sum += " = " + latex_number(cost.hops);
  cost.steps.push_back({std::string("Steps in sequence (") +
                            (a2a ? "one round of direct sends per stage" : "ring sends") + ")",
                        "H = " + sum,
                        cost.hops,
                        "hops",
                        "hops",
                        {}});
}

}  // namespace

CollectiveCost gpu_collective_cost(CollectiveOp op, double bytes, double gpus,
                                   const GpuLinks& links, bool explain) {
  CollectiveCost cost;
  if (gpus <= 1 || links.nvlink_bandwidth <= 0) return cost;
  Stages st;
  st.k = links.node_gpus > 0 ? std::min(gpus, links.node_gpus) : gpus;
  st.nodes = gpus / st.k;
  const bool a2a = op == CollectiveOp::all_to_all;
  const double factor = op == CollectiveOp::all_reduce ? 2 : 1;
  // Inside a node: a ring of k (k - 1 sends), or one round of direct sends for an AllToAll.
  st.node_time = a2a ? (st.k - 1) * bytes / (gpus * gpus * links.nvlink_bandwidth)
                     : factor * (st.k - 1) * bytes / (st.k * links.nvlink_bandwidth);
  cost.axis_hops.push_back(a2a ? 1 : factor * (st.k - 1));
  cost.t_bandwidth = st.node_time;
  if (st.nodes > 1) {
    const double m = st.nodes;
    st.net_time = a2a ? (m - 1) * bytes / (m * m * links.node_bandwidth)
                      : factor * (m - 1) * bytes / (m * links.node_bandwidth);
    cost.axis_hops.push_back(a2a ? 1 : factor * (m - 1));
    cost.t_bandwidth = std::max(st.node_time, st.net_time);
  }
  for (double h : cost.axis_hops) cost.hops += h;
  if (explain) add_steps(cost, op, bytes, gpus, links, st);
  finish_collective_cost(cost, op, bytes, gpus,
                         "Latency time: every step costs at least the latency",
                         explain ? latex_number(cost.hops) : std::string(), links.latency, explain);
  return cost;
}

}  // namespace scalebook
