// The gpu-planner's worked steps: each threshold as the book derives it, then the chosen
// layout's times, memory and run.
#include <cmath>
#include <string>
#include <vector>

#include "planner_parts.h"
#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"

namespace scalebook::planner_parts {
namespace {

std::string q(double x, const char* unit) { return latex_quantity(x, unit); }
std::string v(double x) { return latex_number(x); }

struct Steps {
  std::vector<Step> list;
  void add(std::string label, std::string latex, double value, const char* unit, std::string output,
           std::vector<std::string> depends = {}) {
    list.push_back(
        {std::move(label), std::move(latex), value, unit, std::move(output), std::move(depends)});
  }
};

SB_EXPLAIN_ONLY void thresholds(Steps& s, const GpuPlanInput& in, const GpuPlan& p,
                                const std::string& gpu) {
  const std::string C = q(in.C, "FLOP/s");
  if (in.W_node_from_nics)
    s.add(gpu + ": the catalog gives no node egress, so a node's NICs set it",
          "W_\\text{node} = n \\cdot \\text{NICs} \\cdot W_\\text{NIC} = " + q(in.W_node, "B/s"),
          in.W_node, "B/s", "");
  s.add(gpu + ": DP or FSDP inside a node is compute-bound above C / W_gpu tokens a GPU",
        "\\frac{C}{W_\\text{gpu}} = \\frac{" + C + "}{" + q(in.W_gpu, "B/s") +
            "} = " + v(p.alpha_node),
        p.alpha_node, "tokens", "dp_critical_node");
  s.add(
      "Across nodes the node's egress binds: C / W_node tokens a GPU",
      "\\frac{C}{W_\\text{node}} = \\frac{" + C + "}{" + q(in.W_node, "B/s") + "} = " + v(p.alpha),
      p.alpha, "tokens", "dp_critical");
  s.add("The global batch that asks of all N GPUs",
        "N \\cdot \\frac{C}{W_\\text{node}} = " + v(p.gpus) + " \\cdot " + v(p.alpha) + " = " +
            v(p.dp_min_batch),
        p.dp_min_batch, "tokens", "dp_min_batch", {"dp_critical"});
  if (in.E > 0)
    s.add("An MoE reduces all E experts' weights for the FLOPs of k: times E / k",
          "\\frac{E}{k} \\cdot \\frac{C}{W_\\text{node}} = \\frac{" + v(in.E) + "}{" + v(in.k) +
              "} \\cdot " + v(p.alpha) + " = " + v(p.dp_critical_moe),
          p.dp_critical_moe, "tokens", "dp_critical_moe", {"dp_critical"});
  s.add("Nodes the DP ring spans", "X = " + v(p.dp.nodes), p.dp.nodes, "", "dp_nodes");
  if (p.dp.nodes > 1)
    s.add("A ring over X nodes sends (X - 1)/X of the bytes",
          "\\frac{X - 1}{X} \\cdot \\frac{C}{W_\\text{node}} = \\frac{" + v(p.dp.nodes - 1) + "}{" +
              v(p.dp.nodes) + "} \\cdot " + v(p.alpha) + " = " + v(p.dp_critical_small),
          p.dp_critical_small, "tokens", "dp_critical_small", {"dp_nodes", "dp_critical"});
  s.add("Nodes one model-parallel group spans",
        "M = \\max\\left(1, \\frac{" + v(in.tp) + " \\cdot " + v(in.ep) + " \\cdot " + v(in.pp) +
            "}{" + v(in.node_gpus) + "}\\right) = " + v(p.mp_nodes),
        p.mp_nodes, "", "mp_nodes");
  s.add("Each node then holds 1/M of the weights: the reduction runs at M node egresses",
        "M \\cdot W_\\text{node} = " + v(p.mp_nodes) + " \\cdot " + q(in.W_node, "B/s") + " = " +
            q(p.mp_bandwidth, "B/s"),
        p.mp_bandwidth, "B/s", "mp_bandwidth", {"mp_nodes"});
  s.add("DP bound with that model parallelism",
        "\\frac{C}{M W_\\text{node}} = \\frac{" + C + "}{" + q(p.mp_bandwidth, "B/s") +
            "} = " + v(p.dp_critical_mp),
        p.dp_critical_mp, "tokens", "dp_critical_mp", {"mp_bandwidth"});
  s.add("TP is compute-bound while Y < F W / C: inside a node",
        "\\frac{F W_\\text{gpu}}{C} = \\frac{" + v(in.F) + " \\cdot " + q(in.W_gpu, "B/s") + "}{" +
            C + "} = " + v(p.tp_max_node),
        p.tp_max_node, "", "tp_max_node");
  s.add("TP over node egress",
        "\\frac{F W_\\text{node}}{C} = \\frac{" + v(in.F) + " \\cdot " + q(in.W_node, "B/s") +
            "}{" + C + "} = " + v(p.tp_max),
        p.tp_max, "", "tp_max");
  s.add("Over two nodes only Y - n GPUs' share crosses: F > (C / W_node)(Y - n)",
        "Y < n + \\frac{F W_\\text{node}}{C} = " + v(in.node_gpus) + " + " + v(p.tp_max) + " = " +
            v(p.tp_max_2node),
        p.tp_max_2node, "", "tp_max_2node", {"tp_max"});
  if (in.E > 0) {
    s.add("EP may span many nodes once an expert is wider than n C / W_node",
          "n \\cdot \\frac{C}{W_\\text{node}} = " + v(in.node_gpus) + " \\cdot " + v(p.alpha) +
              " = " + v(p.ep_f_critical),
          p.ep_f_critical, "", "ep_f_critical", {"dp_critical"});
    const bool any = in.F >= p.ep_f_critical;
    const double z1 = in.node_gpus + in.k * in.F / p.alpha;
    std::string latex = any ? "F = " + v(in.F) + " \\ge " + v(p.ep_f_critical) +
                                  ": \\text{any } Z \\le E = " + v(in.E)
                        : z1 <= in.node_gpus * in.k
                            ? "Z < n + \\frac{kF}{C/W_\\text{node}} = " + v(p.ep_max)
                            : "Z < \\frac{n}{1 - F/(n C/W_\\text{node})} = " + v(p.ep_max);
    s.add("EP stays compute-bound while Z is below", latex, p.ep_max, "", "ep_max",
          {"ep_f_critical"});
  }
}

SB_EXPLAIN_ONLY void layout(Steps& s, const GpuPlanInput& in, const GpuPlan& p) {
  s.add("GPUs: dp x tp x ep x pp",
        v(in.dp) + " \\cdot " + v(in.tp) + " \\cdot " + v(in.ep) + " \\cdot " + v(in.pp) + " = " +
            v(p.gpus),
        p.gpus, "", "gpus");
  s.add("Data-parallel degree", "\\text{dp} = " + v(in.dp), in.dp, "", "dp");
  s.add("Tokens a GPU",
        "\\frac{B}{N} = \\frac{" + v(in.B) + "}{" + v(p.gpus) + "} = " + v(p.tokens_per_gpu),
        p.tokens_per_gpu, "tokens", "tokens_per_gpu", {"gpus"});
  const double F_act = in.E > 0 ? in.k * in.F : in.F;
  const double stage_layers = std::ceil(in.L / in.pp - 1e-9);
  const std::string fwd =
      "\\frac{4 B D F \\lceil L / \\text{pp} \\rceil}{\\text{dp} \\cdot "
      "\\text{ep} \\cdot \\text{tp} \\cdot C}";
  const struct {
    const char* name;
    const char* label;
    const StrategyCost& c;
  } rows[] = {{"dp", "DP", p.dp}, {"tp", "TP", p.tp}, {"ep", "EP", p.ep}, {"pp", "PP", p.pp}};
  for (const auto& [name, label, c] : rows) {
    const std::string n = name, up = label;
    const bool dp = n == "dp";
    const std::string two = dp ? "2 \\cdot " : "";
    s.add(up + ": the MLPs' " + (dp ? "backward" : "forward") +
              " math on one GPU of the fullest stage, a step" +
              (in.E > 0 ? " (F is k experts' width)" : ""),
          two + fwd + " = " + two + "\\frac{4 \\cdot " + v(in.B) + " \\cdot " + v(in.D) +
              " \\cdot " + v(F_act) + " \\cdot " + v(stage_layers) + "}{" + v(in.dp) + " \\cdot " +
              v(in.ep) + " \\cdot " + v(in.tp) + " \\cdot " + q(in.C, "FLOP/s") +
              "} = " + q(c.t_math, "s"),
          c.t_math, "s", n + "_t_math");
    auto count = [](double x, const char* one, const char* many) {
      return format_number(x) + " " + (x == 1 ? one : many);
    };
    std::string where = c.degree == 1 ? "degree 1: none"
                        : c.nodes > 1 ? count(c.gpus_per_node, "GPU", "GPUs") + " in each of " +
                                            count(c.nodes, "node", "nodes") + ", " +
                                            count(c.sharing, "group", "groups") +
                                            " sharing each node's egress"
                                      : "inside one node over NVLink";
    s.add(up + "'s communication a step (" + where + ")", "T_\\text{comms} = " + q(c.t_comms, "s"),
          c.t_comms, "s", n + "_t_comms");
    if (c.degree > 1) {
      s.add(up + " is compute-bound when its comms fit under its math",
            q(c.t_comms, "s") + (c.compute_bound() ? " \\le " : " > ") + q(c.t_math, "s"),
            c.t_comms / c.t_math, "", n + "_compute_bound", {n + "_t_math", n + "_t_comms"});
    }
  }
  if (in.dp > 1)
    s.add("This layout's DP bound: the tokens a GPU at which DP's comms equal its math",
          "\\frac{B}{N} \\cdot \\frac{T_\\text{comms}}{T_\\text{math}} = " + v(p.tokens_per_gpu) +
              " \\cdot \\frac{" + q(p.dp.t_comms, "s") + "}{" + q(p.dp.t_math, "s") +
              "} = " + v(p.dp_critical_layout),
          p.dp_critical_layout, "tokens", "dp_critical_layout",
          {"tokens_per_gpu", "dp_t_math", "dp_t_comms"});
  if (in.pp > 1)
    s.add("PP's comms a layer, the book's estimate 1.5 x 2bD / (W L)",
          "1.5 \\cdot \\frac{2 b D}{W L} = " + q(p.pp_per_layer, "s"), p.pp_per_layer, "s",
          "pp_per_layer");
}

SB_EXPLAIN_ONLY void memory(Steps& s, const GpuPlanInput& in, const GpuPlan& p) {
  const double bytes = in.bytes_params + in.bytes_optimizer + in.bytes_grads;
  s.add("Weights and optimizer state: parameters x bytes a parameter",
        v(in.params) + " \\cdot " + v(bytes) + "\\ \\text{B} = " + q(p.memory_total, "B"),
        p.memory_total, "B", "memory_total");
  s.add("A GPU's share: over TP x PP (experts also EP), and DP for what ZeRO " +
            std::to_string(in.zero) + " shards",
        "M_\\text{GPU} = " + q(p.memory_per_gpu, "B"), p.memory_per_gpu, "B", "memory_per_gpu",
        {"memory_total"});
  s.add(p.memory_per_gpu <= in.hbm ? "It fits: within a GPU's HBM"
                                   : "It does not fit: over a GPU's HBM by " +
                                         display_text(p.memory_per_gpu - in.hbm, "B"),
        q(p.memory_per_gpu, "B") + (p.memory_per_gpu <= in.hbm ? " \\le " : " > ") + q(in.hbm, "B"),
        p.memory_per_gpu, "B", "fits", {"memory_per_gpu"});
  s.add("GPUs just to hold it",
        "\\left\\lceil \\frac{" + q(p.memory_total, "B") + "}{" + q(in.hbm, "B") +
            "} \\right\\rceil = " + v(p.min_gpus),
        p.min_gpus, "", "min_gpus", {"memory_total"});
  if (in.tokens > 0) {
    s.add("The run's FLOPs: 6 x parameters x tokens",
          "6 \\cdot " + v(in.active_params) + " \\cdot " + v(in.tokens) + " = " +
              q(p.run_flops, "FLOP"),
          p.run_flops, "FLOP", "run_flops");
    s.add("Its time on N GPUs at the MFU",
          "\\frac{" + q(p.run_flops, "FLOP") + "}{" + v(p.gpus) + " \\cdot " + q(in.C, "FLOP/s") +
              " \\cdot " + v(in.mfu) + "} = " + q(p.run_time, "s"),
          p.run_time, "s", "run_time", {"run_flops"});
  }
}

}  // namespace

SB_EXPLAIN_ONLY std::vector<Step> steps(const GpuPlanInput& in, const GpuPlan& p,
                                        const std::string& gpu) {
  Steps s;
  thresholds(s, in, p, gpu);
  layout(s, in, p);
  memory(s, in, p);
  return std::move(s.list);
}

}  // namespace scalebook::planner_parts
