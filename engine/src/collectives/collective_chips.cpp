#include "collective_chips.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "scalebook/collectives/gpu_collective_cost.h"
#include "scalebook/collectives/switched_cost.h"
#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/cluster.h"
#include "scalebook/hardware/slice.h"
#include "scalebook/hardware/topology.h"

namespace scalebook::collective_chips {
namespace {

constexpr const char* kAxisNames[] = {"X", "Y", "Z"};

std::string axis_name(std::size_t i) { return kAxisNames[i]; }

Step latency_step(double latency, const std::string& source) {
  return step("Per-hop latency (" + source + ")", "T_\\text{min} = " + latex_quantity(latency, "s"),
              latency, "s", "hop_latency", {});
}

// Which axes wrap: the choice, or the catalog's rule with its reason for each axis.
struct Wraps {
  std::vector<bool> wraps;
  std::vector<std::string> reasons;
};

std::string pod_extents(const Sizes& pod) {
  Sizes unique = pod;
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  return "\\{" + join_sizes(unique, ", ") + "\\}";
}

// Reasons are written only when explaining.
Result<Wraps> decide_wraps(const Chip& chip, const Sizes& sizes, const std::string& mode,
                           bool from_axes, bool explain) {
  Wraps w;
  if (mode != "auto") {
    bool yes = mode == "yes";
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      w.wraps.push_back(yes);
      if (explain) w.reasons.push_back(std::string("\\text{wraparound = ") + mode + "}");
    }
    return w;
  }
  Sizes cube;
  Sizes pod;
  bool cube_ok = parse_axis_sizes(chip.cube_topology, cube) && !cube.empty();
  bool pod_ok = parse_axis_sizes(chip.pod_topology, pod);
  if (chip.wraparound.empty() || (!chip.cube_topology.empty() && !cube_ok) || !pod_ok) {
    return fail(
        ErrorCode::unsupported, "wraparound",
        chip.id + "'s catalog states no wraparound rule; give wraparound=yes or wraparound=no");
  }
  if (from_axes && sizes.size() == static_cast<std::size_t>(chip.torus_dims)) {
    Result<std::vector<Wrap>> slice = slice_wraps(chip, sizes);
    if (!slice.ok()) {
      Error e = slice.error();
      e.field = "axes";
      if (e.message.rfind("shape", 0) == 0) e.message = "axes" + e.message.substr(5);
      return e;
    }
    // The slice's rule decides; the reasons restate it with these sizes.
    if (!explain) {
      for (Wrap wrap : slice.value()) w.wraps.push_back(wrap == Wrap::yes);
      return w;
    }
    std::string mods;
    for (std::size_t i = 0; cube_ok && i < sizes.size(); ++i) {
      std::int64_t edge = cube[std::min(i, cube.size() - 1)];
      mods +=
          (i ? ",\\ " : "") + num(sizes[i]) + " \\bmod " + num(edge) + " = " + num(sizes[i] % edge);
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      bool yes = slice.value()[i] == Wrap::yes;
      std::string why =
          cube_ok ? mods + " \\Rightarrow \\text{" + (yes ? "whole cubes" : "not whole cubes") + "}"
                  : "n_" + axis_name(i) + " = " + num(sizes[i]) + (yes ? " = " : " \\ne ") +
                        num(pod[i]) + " = \\text{pod}_" + axis_name(i);
      w.wraps.push_back(yes);
      w.reasons.push_back("\\text{a " + chip.id + " slice: } " + why + " \\Rightarrow \\text{" +
                          (yes ? "wraps" : "no wrap") + "}");
    }
    return w;
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::int64_t n = sizes[i];
    bool yes = cube_ok ? n % cube[0] == 0 : std::find(pod.begin(), pod.end(), n) != pod.end();
    w.wraps.push_back(yes);
    if (!explain) continue;
    const std::string nx = "n_" + axis_name(i) + " = " + num(n);
    std::string why;
    if (cube_ok) {
      why = nx + ",\\ " + num(n) + " \\bmod " + num(cube[0]) + " = " + num(n % cube[0]) +
            " \\Rightarrow \\text{" + (yes ? "whole cubes: wraps" : "not whole cubes: no wrap") +
            "}";
    } else {
      why = nx + (yes ? " \\in " : " \\notin ") + pod_extents(pod) +
            " = \\text{the pod's extents}" + " \\Rightarrow \\text{" + (yes ? "wraps" : "no wrap") +
            "}";
    }
    w.reasons.push_back(why);
  }
  return w;
}

}  // namespace

std::string num(std::int64_t x) { return std::to_string(x); }

std::string join_sizes(const Sizes& sizes, const char* sep) {
  std::string out;
  for (std::int64_t n : sizes) out += (out.empty() ? "" : sep) + num(n);
  return out;
}

double product(const Sizes& sizes) {
  double n = 1;
  for (std::int64_t s : sizes) n *= static_cast<double>(s);
  return n;
}

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

Step step(std::string label, std::string latex, double value, const char* unit, const char* output,
          std::initializer_list<const char*> depends) {
  return {std::move(label), std::move(latex), value, unit, output, depends};
}

namespace {

// The request's flag, a constant false in a build that never explains (explain_only.h).
bool explaining(const Request& q) { return q.explain && kExplains; }

}  // namespace

Result<Model> tpu_model(const Chip& chip, const Request& q, std::vector<Step>& steps) {
  const Sizes& sizes = q.sizes;
  Result<Wraps> decided = decide_wraps(chip, sizes, q.wraparound, q.from_axes, explaining(q));
  if (!decided.ok()) return decided.error();
  const Wraps& w = decided.value();
  Model m;
  m.chips = product(sizes);
  m.link_bandwidth = chip.ici_link_bandwidth;
  if (m.link_bandwidth <= 0) {
    return fail(
        ErrorCode::unsupported, "ici_link_bandwidth",
        chip.id + " has no ici_link_bandwidth in the catalog; give ici_link_bandwidth to set one");
  }
  m.latency = q.latency.value_or(chip.ici_hop_latency);
  std::vector<Axis> axes;
  std::string wraps_text, wraps_latex, peak_terms;
  double wrapped = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    axes.push_back({kAxisNames[i][0], sizes[i], w.wraps[i]});
    const char* yes_no = w.wraps[i] ? "yes" : "no";
    wraps_text += (i ? "," : "") + std::string(yes_no);
    wrapped += w.wraps[i] ? 1 : 0;
    int links = sizes[i] == 1 ? 0 : (w.wraps[i] || sizes[i] > 2 ? 2 : 1);
    m.peak += links * m.link_bandwidth;
    if (!explaining(q)) continue;
    wraps_latex += (i ? ", " : "") + std::string("\\text{") + yes_no + "}";
    steps.push_back(step(axis_name(i) + " wraps around: " + yes_no + " (1 yes, 0 no)", w.reasons[i],
                         w.wraps[i] ? 1 : 0, "", "wraps", {}));
    peak_terms += (i ? " + " : "") + std::to_string(links);
  }
  m.wraps = Value::of(wraps_text);
  LinkModel link{m.link_bandwidth, m.latency, q.bidirectional};
  m.cost = collective_cost(q.op, q.bytes, axes, link, explaining(q));
  if (!explaining(q)) return m;
  steps.push_back(step("Axes that wrap around (" + wraps_text + ")",
                       "\\text{wraps} = (" + wraps_latex + ")", wrapped, "", "wraps", {"chips"}));
  steps.push_back(step("Link bandwidth, one way (the chip's ici_link_bandwidth)",
                       "W = " + latex_quantity(m.link_bandwidth, "B/s"), m.link_bandwidth, "B/s",
                       "link_bandwidth", {}));
  steps.push_back(latency_step(m.latency, q.latency ? "given" : "the chip's ici_hop_latency"));
  m.peak_latex = "(" + peak_terms + ") \\cdot " + latex_quantity(m.link_bandwidth, "B/s");
  return m;
}

Result<Model> gpu_model(const Chip& chip, const Request& q, std::vector<Step>& steps) {
  const Sizes& sizes = q.sizes;
  Model m;
  m.chips = product(sizes);
  m.wraps = Value::absent("not applicable to a GPU: its NVLink switch has no torus to wrap");
  if (chip.nvlink_bandwidth <= 0) {
    return fail(
        ErrorCode::unsupported, "nvlink_bandwidth",
        chip.id + " has no nvlink_bandwidth in the catalog; give nvlink_bandwidth to set one");
  }
  const double k = chip.nvlink_domain_gpus;
  if (q.stride > 1) {
    if (q.stride <= k ? std::fmod(k, q.stride) != 0 : std::fmod(q.stride, k) != 0) {
      return fail(ErrorCode::invalid_argument, "stride",
                  "stride must divide a " + chip.id + " node's " + format_number(k) +
                      " GPUs or be a multiple of them, got " + format_number(q.stride));
    }
    const double cap = std::max(1.0, k / q.stride);  // the group's GPUs in one node
    if (m.chips > cap && std::fmod(m.chips, cap) != 0) {
      return fail(ErrorCode::invalid_argument, q.from_axes ? "axes" : "axis_size",
                  "with stride " + format_number(q.stride) + " a node holds " + format_number(cap) +
                      " of the group's GPUs, so the group must be at most " + format_number(cap) +
                      " or a multiple of it, got " + format_number(m.chips));
    }
  } else if (m.chips > k && std::fmod(m.chips, k) != 0) {
    const std::string limits = format_number(k) + " GPUs (one " + chip.id +
                               " node) or a multiple of " + format_number(k) + ", got ";
    if (!q.from_axes) {
      return fail(ErrorCode::invalid_argument, "axis_size",
                  "axis_size must be at most " + limits + num(sizes[0]));
    }
    return fail(ErrorCode::invalid_argument, "axes",
                "axes must multiply to at most " + limits + join_sizes(sizes, "x") + " = " +
                    format_number(m.chips));
  }
  if (m.chips * q.stride > k && chip.node_egress_bandwidth <= 0 && chip.nic_bandwidth <= 0) {
    return fail(ErrorCode::unsupported, "node_egress_bandwidth",
                chip.id +
                    " has no node_egress_bandwidth in the catalog; give node_egress_bandwidth to "
                    "set one");
  }
  // Where the GPUs are: the named cluster, or the one a job of this many GPUs gets (hardware's
  // topology: SUs of 32 nodes on a full-bisection fat tree).
  std::vector<ClusterLevel> levels;
  std::string fabric;
  if (!q.cluster.empty()) {
    const ClusterPreset* preset = find_cluster_preset(q.cluster);
    if (!preset)
      return fail(ErrorCode::not_found, "cluster", "unknown cluster \"" + q.cluster + "\"");
    if (preset->chip != chip.id) {
      return fail(ErrorCode::invalid_argument, "cluster",
                  "cluster " + preset->id + " is built of " + preset->chip + " GPUs, not " +
                      chip.id + "; give chip=" + preset->chip);
    }
    Result<Cluster> built = build_cluster(chip, preset->spec);
    if (!built.ok()) return built.error();
    if (m.chips * q.stride > built.value().gpus) {
      return fail(
          ErrorCode::out_of_range, q.stride > 1 ? "stride" : (q.from_axes ? "axes" : "axis_size"),
          "the collective spans " + format_number(m.chips * q.stride) + " GPUs" +
              (q.stride > 1
                   ? " (" + format_number(m.chips) + ", every " + format_number(q.stride) + ")"
                   : "") +
              ", more than cluster " + preset->id + "'s " + format_number(built.value().gpus));
    }
    levels = built.value().levels;
    fabric = preset->name;
  } else {
    Result<Topology> where =
        topology_of(chip, num(static_cast<std::int64_t>(std::min(m.chips * q.stride, 1e9))));
    if (!where.ok()) return where.error();
    levels = where.value().levels;
    m.latency = where.value().hop_latency;
    fabric = "a full-bisection fat tree of SUs of 32 nodes";
  }
  m.latency = q.latency.value_or(0);
  // Neighbours `stride` GPUs apart: a node holds k / stride of them, and past a node's width
  // the group has one GPU in every (stride / k)-th node.
  const double per_node = std::min(m.chips, std::max(1.0, std::floor(k / q.stride)));
  const double node_stride = std::max(1.0, q.stride / k);
  GpuGroup group{levels, switched_extents(levels, per_node, m.chips / per_node, node_stride),
                 m.latency, q.in_network};
  m.link_bandwidth = chip.nvlink_bandwidth;
  m.cost = gpu_collective_cost(q.op, q.bytes, group, explaining(q));
  // What one GPU can inject: its NVLink, and across nodes its share of the node's NICs.
  m.peak = per_node > 1 ? m.link_bandwidth : 0;
  const bool spans_nodes = m.chips > per_node && levels.size() > 1;
  if (spans_nodes) m.peak += levels[1].child_bandwidth / levels[1].child_gpus;
  if (!explaining(q)) return m;
  steps.push_back(
      step("The fabric: " + fabric + "; the group has " + format_number(per_node) + " GPU" +
               (per_node == 1 ? "" : "s") + " in each node" +
               (spans_nodes ? " over " + format_number(m.chips / per_node) + " nodes" : ""),
           "W = " + latex_quantity(m.link_bandwidth, "B/s"), m.link_bandwidth, "B/s",
           "link_bandwidth", {}));
  steps.push_back(
      latency_step(m.latency, q.latency ? "given" : "the catalog gives none for GPUs: 0"));
  m.peak_latex = per_node > 1 ? latex_quantity(m.link_bandwidth, "B/s") : "";
  if (spans_nodes)
    m.peak_latex += (m.peak_latex.empty() ? "" : " + ") +
                    latex_quantity(levels[1].child_bandwidth, "B/s") + " / " +
                    latex_number(levels[1].child_gpus);
  return m;
}

}  // namespace scalebook::collective_chips
