// The `gpu-cluster` calculator: a GPU cluster from a preset or the reader's shape (nodes,
// scalable units, leaf and spine switches), with each level's bandwidth, the collective
// bandwidth that binds, the bisection and the switch and cable counts. The model is
// hardware/cluster.h's.
#include "scalebook/gpus/cluster_calc.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/cluster.h"

namespace scalebook {
namespace {

constexpr auto num = number_output;
constexpr auto text = text_output;

constexpr const char* kLevels[] = {"node", "leaf", "spine", "core"};

std::vector<std::string> gpu_ids() {
  std::vector<std::string> ids;
  for (const Chip& chip : chips()) {
    if (!is_tpu(chip) && chip.nvlink_domain_gpus > 0) ids.push_back(chip.id);
  }
  return ids;
}

std::vector<std::string> preset_ids() {
  std::vector<std::string> ids;
  for (const ClusterPreset& p : cluster_presets()) ids.push_back(p.id);
  return ids;
}

InputSpec optional_count(const char* name, const char* unit, const char* description, double min,
                         double max, const char* label, InputGroup group = InputGroup::main) {
  return labelled({name, InputKind::count, unit, description, Value::none(), min, false, max},
                  label, group);
}

std::vector<InputSpec> inputs() {
  InputSpec chip{"chip", InputKind::choice, "",
                 "a GPU from the hardware catalog (default: the cluster's, else h100)",
                 Value::none()};
  chip.choices = gpu_ids();
  chip.label = "GPU";
  InputSpec cluster{"cluster", InputKind::choice, "",
                    "a cluster from chapter 12, whose shape fills the inputs not given",
                    Value::none()};
  cluster.choices = preset_ids();
  cluster.label = "Cluster";
  InputSpec port = labelled({"port_bandwidth", InputKind::number, "B/s",
                             "B/s one way per scale-out port and cable (default: the GPU's NIC)",
                             Value::none(), 0, false, 1e15},
                            "Port bandwidth");
  InputSpec over = labelled(
      {"oversubscription", InputKind::number, "",
       "leaf down ports per up port (default 1: full bisection)", Value::none(), 1, false, 1e3},
      "Oversubscription", InputGroup::advanced);
  return {chip,
          cluster,
          optional_count("nodes", "nodes", "NVLink domains (default: the cluster's, else 1)", 1,
                         1e6, "Nodes"),
          optional_count("gpus_per_node", "GPUs",
                         "GPUs per node: the GPU's NVLink domain, the only size it comes in", 1,
                         1e4, "GPUs per node", InputGroup::advanced),
          optional_count("nodes_per_su", "nodes",
                         "nodes in one scalable unit under its leaf switches (default 32)", 1, 1e6,
                         "Nodes per SU"),
          optional_count("leaf_switches_per_su", "switches",
                         "leaf switches per SU (default 0: as few as take its NIC cables)", 0, 1e6,
                         "Leaf switches per SU"),
          optional_count("spine_switches", "switches",
                         "spine switches (default 0: as many as the leaves' uplinks fill)", 0, 1e6,
                         "Spine switches"),
          optional_count("switch_ports", "ports", "ports per scale-out switch (default 64)", 2, 1e4,
                         "Switch ports"),
          port,
          over,
          optional_count("nvswitch_ports", "ports",
                         "NVLink ports per NVSwitch, for the node's switch bandwidth (default: the "
                         "cluster's, else unknown)",
                         0, 1e4, "NVSwitch ports", InputGroup::advanced)};
}

std::vector<OutputSpec> outputs() {
  std::vector<OutputSpec> list = {
      text("chip", "the GPU", "GPU"),
      num("gpus", "GPUs", "GPUs in the cluster", "GPUs"),
      num("nodes", "nodes", "NVLink domains", "Nodes"),
      num("sus", "SUs", "scalable units (0 for one node)", "Scalable units"),
      num("node_egress", "B/s", "one node's NICs into the scale-out network, one way",
          "Node egress"),
  };
  for (const char* level : kLevels) {
    const std::string l = level;
    const std::string child = l == "node"    ? "GPU"
                              : l == "leaf"  ? "node"
                              : l == "spine" ? "SU"
                                             : "pod";
    list.push_back(num(l + "_gpus", "GPUs", "GPUs under one " + l + " group", l + ": GPUs"));
    list.push_back(
        num(l + "_fan_in", child + "s", "D: " + child + "s one " + l + " group joins", l + ": D"));
    list.push_back(num(l + "_child_bandwidth", "B/s",
                       "W: one " + child + "'s bandwidth into the " + l + " level, one way",
                       l + ": W per " + child));
    list.push_back(num(l + "_bandwidth_per_gpu", "B/s",
                       "W over the " + child + "'s GPUs: each GPU's share at the " + l + " level",
                       l + ": per GPU"));
    list.push_back(num(l + "_bandwidth", "B/s",
                       "D W: into one " + l + " group from all its " + child + "s, one way",
                       l + ": total"));
    list.push_back(num(l + "_collective_bandwidth", "B/s",
                       "D W / (D - 1): the level's AllGather / ReduceScatter bandwidth",
                       l + ": collective"));
  }
  list.insert(
      list.end(),
      {num("node_switch_bandwidth", "B/s",
           "one node's NVSwitches: switches x ports x link bandwidth, one way",
           "Node switch bandwidth"),
       text("binding_level", "the level with the lowest collective bandwidth", "Binding level"),
       num("collective_bandwidth", "B/s",
           "AllGather / ReduceScatter bandwidth of the whole cluster: min over levels",
           "Collective bandwidth"),
       num("bisection_bandwidth", "B/s",
           "across an even split of the GPUs, both directions (as the book counts it)",
           "Bisection bandwidth"),
       num("nvswitches", "switches", "NVSwitches in all nodes", "NVSwitches"),
       num("leaf_switches", "switches", "leaf switches", "Leaf switches"),
       num("spine_switches", "switches", "spine switches", "Spine switches"),
       num("core_switches", "switches", "core switches (past a two-level tree)", "Core switches"),
       num("switches", "switches", "every switch: NVSwitch, leaf, spine, core", "Switches"),
       num("nvlink_links", "links", "GPU-to-NVSwitch links in all nodes", "NVLink links"),
       num("cables", "cables", "scale-out cables: NIC to leaf, leaf to spine, spine to core",
           "Cables")});
  return list;
}

std::vector<OutputSpec> level_columns() {
  return {text("level", "node, leaf, spine or core", "Level"),
          num("gpus", "GPUs", "GPUs under one group", "GPUs"),
          num("fan_in", "", "D: children one group joins", "D"),
          num("child_bandwidth", "B/s", "W: one child's bandwidth into the level", "W"),
          num("bandwidth_per_gpu", "B/s", "each GPU's share", "Per GPU"),
          num("collective_bandwidth", "B/s", "D W / (D - 1)", "Collective"),
          num("switches", "switches", "switches of this level, whole cluster", "Switches")};
}

const Schema& schema() {
  static const Schema s{
      "gpu-cluster",
      "chapter 12's GPU cluster builder: NVLink nodes, scalable units on leaf switches, spine "
      "(and core) switches; each level's bandwidth, the collective bandwidth, bisection, switch "
      "and cable counts",
      inputs(),
      outputs(),
      {{"levels", "one row per level of the tree, innermost first", level_columns()}}};
  return s;
}

// The preset's spec (or the defaults) with every given input in its place.
ClusterSpec spec_of(const ResolvedInputs& in, const ClusterPreset* preset) {
  ClusterSpec s = preset ? preset->spec : ClusterSpec{};
  struct Field {
    const char* name;
    double ClusterSpec::*member;
  };
  static const Field fields[] = {{"nodes", &ClusterSpec::nodes},
                                 {"gpus_per_node", &ClusterSpec::gpus_per_node},
                                 {"nodes_per_su", &ClusterSpec::nodes_per_su},
                                 {"leaf_switches_per_su", &ClusterSpec::leaf_switches_per_su},
                                 {"spine_switches", &ClusterSpec::spine_switches},
                                 {"switch_ports", &ClusterSpec::switch_ports},
                                 {"port_bandwidth", &ClusterSpec::port_bandwidth},
                                 {"oversubscription", &ClusterSpec::oversubscription},
                                 {"nvswitch_ports", &ClusterSpec::nvswitch_ports}};
  for (const Field& f : fields) {
    if (in.has(f.name)) s.*f.member = in.number(f.name);
  }
  return s;
}

const ClusterLevel* find_level(const Cluster& c, const std::string& name) {
  for (const ClusterLevel& l : c.levels) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

std::string missing_level(const Cluster& c, const std::string& level) {
  if (level == "leaf") return "one node: no scale-out network";
  if (level == "spine") {
    if (c.sus <= 1) return "one scalable unit: its leaves are the top of the tree";
    return "one SU per pod: each pod's spines join no SUs of their own";
  }
  return "a two-level tree holds this cluster: no core level";
}

void set_levels(const Cluster& c, ResultBuilder& out) {
  for (const char* level : kLevels) {
    const std::string l = level;
    const ClusterLevel* found = find_level(c, l);
    if (!found) {
      const std::string why = missing_level(c, l);
      for (const char* suffix : {"_gpus", "_fan_in", "_child_bandwidth", "_bandwidth_per_gpu",
                                 "_bandwidth", "_collective_bandwidth"})
        out.none(l + suffix, why);
      continue;
    }
    out.set(l + "_gpus", found->gpus);
    out.set(l + "_fan_in", found->fan_in);
    out.set(l + "_child_bandwidth", found->child_bandwidth);
    out.set(l + "_bandwidth_per_gpu", found->per_gpu_bandwidth());
    out.set(l + "_bandwidth", found->group_bandwidth);
    out.set(l + "_collective_bandwidth", found->collective_bandwidth());
  }
}

SB_EXPLAIN_ONLY std::string child_of(const std::string& level) {
  return level == "node" ? "GPU" : level == "leaf" ? "node" : level == "spine" ? "SU" : "pod";
}

SB_EXPLAIN_ONLY std::string child_bandwidth_why(const Chip& gpu, const Cluster& c,
                                                const ClusterLevel& l) {
  if (l.name == "node") return "a GPU's NVLink egress, from the catalog";
  if (l.name == "leaf")
    return "a node's " + format_number(c.nics_per_node) + " NICs x " +
           format_number(c.spec.port_bandwidth / 1e9) + " GB/s";
  (void)gpu;
  return "the " + child_of(l.name) + "'s uplink cables x " +
         format_number(c.spec.port_bandwidth / 1e9) + " GB/s";
}

SB_EXPLAIN_ONLY std::vector<Step> steps(const Chip& gpu, const Cluster& c) {
  std::vector<Step> st;
  st.push_back({"GPUs: " + format_number(c.nodes) + " nodes of " + format_number(c.gpus_per_node),
                "N = " + latex_number(c.nodes) + " \\times " + latex_number(c.gpus_per_node) +
                    " = " + latex_number(c.gpus),
                c.gpus,
                "GPUs",
                "gpus",
                {}});
  for (const ClusterLevel& l : c.levels) {
    const std::string child = child_of(l.name);
    st.push_back({l.name + ": W, " + child_bandwidth_why(gpu, c, l),
                  "W_\\text{" + l.name + "} = " + latex_quantity(l.child_bandwidth, "B/s"),
                  l.child_bandwidth,
                  "B/s",
                  l.name + "_child_bandwidth",
                  {}});
    if (l.child_gpus > 1)
      st.push_back({l.name + ": each GPU's share, W over " + (child == "SU" ? "an " : "a ") +
                        child + "'s " + format_number(l.child_gpus) + " GPUs",
                    "\\frac{W}{" + latex_number(l.child_gpus) +
                        "} = " + latex_quantity(l.per_gpu_bandwidth(), "B/s"),
                    l.per_gpu_bandwidth(),
                    "B/s",
                    l.name + "_bandwidth_per_gpu",
                    {l.name + "_child_bandwidth"}});
    st.push_back({l.name + ": " + format_number(l.fan_in) + " " + child + "s together",
                  "D W = " + latex_number(l.fan_in) + " \\times " +
                      latex_quantity(l.child_bandwidth, "B/s") + " = " +
                      latex_quantity(l.group_bandwidth, "B/s"),
                  l.group_bandwidth,
                  "B/s",
                  l.name + "_bandwidth",
                  {l.name + "_child_bandwidth"}});
    st.push_back({l.name + ": AllGather bandwidth, each " + child +
                      " receiving the other D - 1 "
                      "shares",
                  "\\frac{D W}{D - 1} = \\frac{" + latex_number(l.fan_in) + " \\times " +
                      latex_quantity(l.child_bandwidth, "B/s") + "}{" + latex_number(l.fan_in - 1) +
                      "} = " + latex_quantity(l.collective_bandwidth(), "B/s"),
                  l.collective_bandwidth(),
                  "B/s",
                  l.name + "_collective_bandwidth",
                  {l.name + "_bandwidth"}});
  }
  const ClusterLevel& bind = c.levels[c.binding_level];
  st.push_back(
      {"The cluster's collective bandwidth: the lowest level's, here the " + bind.name,
       "\\min_i \\frac{D_i W_i}{D_i - 1} = " + latex_quantity(c.collective_bandwidth, "B/s"),
       c.collective_bandwidth,
       "B/s",
       "collective_bandwidth",
       {bind.name + "_collective_bandwidth"}});
  st.push_back(
      {"Bisection: half the GPUs send to the other half through the thinnest level, "
       "counted both ways",
       "2 \\min_i \\frac{N/2}{\\text{GPUs per child}_i} W_i = " +
           latex_quantity(c.bisection_bandwidth, "B/s"),
       c.bisection_bandwidth,
       "B/s",
       "bisection_bandwidth",
       {}});
  struct Count {
    const char* output;
    const char* label;
    double total;
    std::string latex;
    std::string why;
  };
  const double pods = std::max(c.pods, 1.0);
  const double per_su = c.leaf_switches / std::max(c.sus, 1.0);
  const double per_pod = c.spine_switches / pods;
  auto times = [](double a, double b) {
    return latex_number(a) + " \\times " + latex_number(b) + " = " + latex_number(a * b);
  };
  const Count counts[] = {
      {"nvswitches", "NVSwitches", c.nvswitches, times(c.nodes, gpu.nvswitches_per_node),
       "nodes x NVSwitches a node"},
      {"leaf_switches", "Leaf switches", c.leaf_switches, times(c.sus, per_su),
       c.spec.leaf_switches_per_su > 0 ? "SUs x leaves an SU, as given"
                                       : "SUs x leaves an SU, as few as take its NIC cables"},
      {"spine_switches", "Spine switches", c.spine_switches,
       c.pods > 0 ? times(c.pods, per_pod) : "= " + latex_number(c.spine_switches),
       c.spec.spine_switches > 0 ? "as given"
       : c.pods > 0              ? "pods x spines a pod, as many as its leaves' uplinks fill"
                                 : "as many as the leaves' uplinks fill"},
      {"core_switches", "Core switches", c.core_switches, "= " + latex_number(c.core_switches),
       "as many as the pods' spine uplinks fill"}};
  std::vector<std::string> depends;
  std::string sum;
  for (const Count& k : counts) {
    if (k.total <= 0) continue;
    st.push_back({std::string(k.label) + ": " + k.why, k.latex, k.total, "switches", k.output, {}});
    depends.push_back(k.output);
    sum += (sum.empty() ? "" : " + ") + latex_number(k.total);
  }
  st.push_back({"Switches, all of them", sum + " = " + latex_number(c.switches), c.switches,
                "switches", "switches", depends});
  return st;
}

Table levels_table(const Cluster& c) {
  Table t = empty_table(schema().tables[0]);
  for (const ClusterLevel& l : c.levels) {
    t.rows.push_back({Value::of(l.name), Value::of(l.gpus), Value::of(l.fan_in),
                      Value::of(l.child_bandwidth), Value::of(l.per_gpu_bandwidth()),
                      Value::of(l.collective_bandwidth()), Value::of(l.switches)});
  }
  return t;
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  const ClusterPreset* preset =
      in.has("cluster") ? find_cluster_preset(in.text("cluster")) : nullptr;
  const std::string chip_id = in.has("chip") ? in.text("chip") : preset ? preset->chip : "h100";
  const Chip* gpu = find_chip(chip_id);
  if (!gpu) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + chip_id + "\""};
  Result<Cluster> built = build_cluster(*gpu, spec_of(in, preset));
  if (!built.ok()) return built.error();
  const Cluster& c = built.value();
  out.set_text("chip", gpu->id);
  out.set("gpus", c.gpus);
  out.set("nodes", c.nodes);
  out.set("sus", c.sus);
  if (c.nodes > 1)
    out.set("node_egress", c.node_egress);
  else
    out.none("node_egress", "one node: no scale-out network");
  set_levels(c, out);
  const double node_switch = c.levels[0].switch_bandwidth;
  if (node_switch > 0)
    out.set("node_switch_bandwidth", node_switch);
  else
    out.none(
        "node_switch_bandwidth",
        "NVSwitch ports unknown for this cluster: give nvswitch_ports (NVLink ports per NVSwitch)");
  out.set_text("binding_level", c.levels[c.binding_level].name);
  out.set("collective_bandwidth", c.collective_bandwidth);
  out.set("bisection_bandwidth", c.bisection_bandwidth);
  out.set("nvswitches", c.nvswitches);
  out.set("leaf_switches", c.leaf_switches);
  out.set("spine_switches", c.spine_switches);
  out.set("core_switches", c.core_switches);
  out.set("switches", c.switches);
  out.set("nvlink_links", c.levels[0].links);
  out.set("cables", c.cables);
  if (out.explain()) out.steps(steps(*gpu, c));
  if (out.tables()) out.table("levels", levels_table(c));
  return std::nullopt;
}

}  // namespace

Calculator gpu_cluster_calculator() { return {schema(), compute}; }

}  // namespace scalebook
