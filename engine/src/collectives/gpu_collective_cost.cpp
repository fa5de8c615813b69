#include "scalebook/collectives/gpu_collective_cost.h"

#include <string>

#include "scalebook/collectives/switched_cost.h"
#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"

namespace scalebook {
namespace {

SB_EXPLAIN_ONLY void add_steps(CollectiveCost& cost, CollectiveOp op, double bytes, double gpus,
                               const GpuGroup& g, const SwitchedCost& sc) {
  const bool a2a = op == CollectiveOp::all_to_all;
  const bool sharp = op == CollectiveOp::all_reduce && g.in_network;
  const std::string name = book_name(op);
  const std::string f = op == CollectiveOp::all_reduce && !sharp ? "2 \\cdot " : "";
  const std::string v = latex_quantity(bytes, "B");
  double below = 1;
  int shown = 0;
  for (std::size_t i = 0; i < g.levels.size(); ++i) {
    const ClusterLevel& l = g.levels[i];
    const double d = i < g.extents.size() ? g.extents[i] : 1;
    const double t = sc.level_times[i];
    const bool node = i == 0;
    if (t > 0) {
      const std::string share = node ? latex_quantity(l.child_bandwidth, "B/s")
                                     : latex_number(below) + " \\cdot \\frac{" +
                                           latex_quantity(l.child_bandwidth, "B/s") + "}{" +
                                           latex_number(l.child_gpus) + "}";
      std::string latex;
      if (a2a) {
        const double leaving = node ? d - 1 : gpus - below;
        latex =
            "\\frac{" + latex_number(leaving) + " \\cdot " + v + "}{" + latex_number(gpus) +
            "^2 \\cdot " +
            (node ? share
                  : latex_quantity(l.child_bandwidth, "B/s") + " / " + latex_number(l.child_gpus)) +
            "}";
      } else if (sharp) {
        latex = "\\frac{" + v + "}{" + share + "}";
      } else {
        latex = f + "\\frac{(" + latex_number(d) + " - 1) \\cdot " + v + "}{" + latex_number(d) +
                " \\cdot " + share + "}";
      }
      std::string label =
          name + " stage at the " + l.name + " level: " +
          (node ? format_number(d) + " GPUs over NVLink, " +
                      format_value(l.child_bandwidth, "B/s", "si") + " each"
                : format_number(d) + " children, the group's " + format_number(below) + " GPU" +
                      (below == 1 ? "" : "s") + " in each sharing its " +
                      format_value(l.child_bandwidth, "B/s", "si") + " with " +
                      format_number(l.child_gpus) + " GPUs");
      if (sharp) label += " (reduced in the switches)";
      cost.steps.push_back({label,
                            "T_\\text{" + l.name + "} = " + latex + " = " + latex_quantity(t, "s"),
                            t,
                            "s",
                            "",
                            {}});
      ++shown;
    }
    below *= d;
  }
  if (shown > 1) {
    cost.steps.push_back({"Bandwidth time: the stages pipeline, so the slowest (the " +
                              g.levels[static_cast<std::size_t>(sc.binding)].name +
                              " level's) sets it",
                          "T_\\text{bw} = \\max_i T_i = " + latex_quantity(cost.t_bandwidth, "s"),
                          cost.t_bandwidth,
                          "s",
                          "t_bandwidth",
                          {}});
  } else if (shown == 1) {
    cost.steps.back().output = "t_bandwidth";
  }
  cost.steps.push_back({std::string("Steps in sequence (") +
                            (a2a     ? "one round of direct sends per level"
                             : sharp ? "one reduction through the switches per level"
                                     : "ring sends at each level") +
                            ")",
                        "H = " + latex_number(cost.hops),
                        cost.hops,
                        "hops",
                        "hops",
                        {}});
}

}  // namespace

CollectiveCost gpu_collective_cost(CollectiveOp op, double bytes, const GpuGroup& group,
                                   bool explain) {
  explain = explain && kExplains;
  CollectiveCost cost;
  double gpus = 1;
  for (double e : group.extents) gpus *= e;
  if (gpus <= 1 || group.levels.empty()) return cost;
  const SwitchedCost sc = switched_cost(op, bytes, group.extents, group.levels, group.in_network);
  cost.t_bandwidth = sc.t_bandwidth;
  cost.hops = sc.hops;
  if (explain) add_steps(cost, op, bytes, gpus, group, sc);
  finish_collective_cost(cost, op, bytes, gpus,
                         "Latency time: every step costs at least the latency",
                         explain ? latex_number(cost.hops) : std::string(), group.latency, explain);
  return cost;
}

}  // namespace scalebook
