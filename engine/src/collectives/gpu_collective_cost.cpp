#include "scalebook/collectives/gpu_collective_cost.h"

#include <algorithm>
#include <string>

#include "scalebook/core/format.h"

namespace scalebook {

CollectiveCost gpu_collective_cost(CollectiveOp op, double bytes, double gpus,
                                   const GpuLinks& links) {
  CollectiveCost cost;
  if (gpus <= 1 || links.nvlink_bandwidth <= 0) return cost;
  const double k = links.node_gpus > 0 ? std::min(gpus, links.node_gpus) : gpus;
  const double nodes = gpus / k;
  const bool a2a = op == CollectiveOp::all_to_all;
  const double factor = op == CollectiveOp::all_reduce ? 2 : 1;
  const std::string name = book_name(op);
  const std::string f = factor == 2 ? "2 \\cdot " : "";
  const std::string v = latex_quantity(bytes, "B");
  // Inside a node: a ring of k (k - 1 sends), or one round of direct sends for an AllToAll.
  double node_time = a2a ? (k - 1) * bytes / (gpus * gpus * links.nvlink_bandwidth)
                         : factor * (k - 1) * bytes / (k * links.nvlink_bandwidth);
  std::string node_latex =
      a2a ? "\\frac{(" + latex_number(k) + " - 1) \\cdot " + v + "}{" + latex_number(gpus) +
                "^2 \\cdot " + latex_quantity(links.nvlink_bandwidth, "B/s") + "}"
          : f + "\\frac{(" + latex_number(k) + " - 1) \\cdot " + v + "}{" + latex_number(k) +
                " \\cdot " + latex_quantity(links.nvlink_bandwidth, "B/s") + "}";
  cost.steps.push_back({name + " inside a node over NVLink (" + latex_number(k) + " GPUs" +
                            (a2a ? ", direct sends)" : ", a ring)"),
                        "T_\\text{node} = " + node_latex + " = " + latex_quantity(node_time, "s"),
                        node_time,
                        "s",
                        "",
                        {}});
  cost.axis_hops.push_back(a2a ? 1 : factor * (k - 1));
  cost.t_bandwidth = node_time;
  if (nodes > 1) {
    double net_time = a2a ? (nodes - 1) * bytes / (nodes * nodes * links.node_bandwidth)
                          : factor * (nodes - 1) * bytes / (nodes * links.node_bandwidth);
    std::string m = latex_number(nodes);
    std::string net_latex = (a2a ? "" : f) + "\\frac{(" + m + " - 1) \\cdot " + v + "}{" + m +
                            (a2a ? "^2" : "") + " \\cdot " +
                            latex_quantity(links.node_bandwidth, "B/s") + "}";
    cost.steps.push_back({name + " between " + m + " nodes over node egress",
                          "T_\\text{net} = " + net_latex + " = " + latex_quantity(net_time, "s"),
                          net_time,
                          "s",
                          "",
                          {}});
    cost.axis_hops.push_back(a2a ? 1 : factor * (nodes - 1));
    cost.t_bandwidth = std::max(node_time, net_time);
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
  for (double h : cost.axis_hops) {
    cost.hops += h;
    sum += (sum.empty() ? "" : " + ") + latex_number(h);
  }
  if (cost.axis_hops.size() > 1) sum += " = " + latex_number(cost.hops);
  cost.steps.push_back({std::string("Steps in sequence (") +
                            (a2a ? "one round of direct sends per stage" : "ring sends") + ")",
                        "H = " + sum,
                        cost.hops,
                        "hops",
                        "hops",
                        {}});
  finish_collective_cost(cost, op, bytes, gpus,
                         "Latency time: every step costs at least the latency",
                         latex_number(cost.hops), links.latency);
  return cost;
}

}  // namespace scalebook
