#include "scalebook/hardware/cluster.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "scalebook/core/format.h"

namespace scalebook {
namespace {

Error field_error(const char* field, std::string message) {
  return Error{ErrorCode::invalid_argument, field, std::move(message)};
}

// An error whose message is built only when M: a lambda that M false never calls.
template <bool M, class F>
Error fail_with(const char* field, F&& message) {
  if constexpr (M) return field_error(field, message());
  (void)message;
  return field_error(field, std::string());
}

bool finite(double x) { return std::isfinite(x); }
bool whole(double x) { return finite(x) && std::floor(x) == x; }

// The spec's own checks, before any chip's: each names its field and the value given.
std::optional<Error> check_spec(const ClusterSpec& s) {
  struct Count {
    const char* field;
    double value;
    double min;
  };
  const Count counts[] = {
      {"nodes", s.nodes, 1},
      {"gpus_per_node", s.gpus_per_node, 0},
      {"nodes_per_su", s.nodes_per_su, 1},
      {"leaf_switches_per_su", s.leaf_switches_per_su, 0},
      {"spine_switches", s.spine_switches, 0},
      {"switch_ports", s.switch_ports, 2},
      {"nvswitch_ports", s.nvswitch_ports, 0},
  };
  for (const Count& c : counts) {
    if (!whole(c.value) || c.value < c.min) {
      const char* what = c.min > 0 ? " must be a whole number of at least "
                                   : " must be a whole "
                                     "number, 0 or more";
      return field_error(c.field, std::string(c.field) + what +
                                      (c.min > 0 ? format_number(c.min) : std::string()) +
                                      ", got " + format_number(c.value));
    }
  }
  if (!finite(s.port_bandwidth) || s.port_bandwidth < 0) {
    return field_error("port_bandwidth",
                       "port_bandwidth must be 0 (the chip's NIC) or a "
                       "positive number of B/s, got " +
                           format_number(s.port_bandwidth));
  }
  if (!finite(s.oversubscription) || s.oversubscription < 1) {
    return field_error("oversubscription",
                       "oversubscription must be at least 1 (leaf down ports per up port), got " +
                           format_number(s.oversubscription));
  }
  return std::nullopt;
}

ClusterLevel node_level(const Chip& gpu, const Cluster& c) {
  ClusterLevel l;
  l.name = "node";
  l.fan_in = c.gpus_per_node;
  l.gpus = c.gpus_per_node;
  l.child_gpus = 1;
  l.child_bandwidth = gpu.nvlink_bandwidth;
  l.group_bandwidth = l.fan_in * l.child_bandwidth;
  l.switch_bandwidth = gpu.nvswitches_per_node * c.spec.nvswitch_ports * gpu.nvlink_link_bandwidth;
  l.groups = c.nodes;
  l.switches = c.nodes * gpu.nvswitches_per_node;
  l.links = c.gpus * gpu.nvlink_links_per_gpu;
  return l;
}

ClusterLevel level(const char* name, double fan_in, double child_gpus, double child_bandwidth,
                   double groups, double switches_per_group, double ports, double port_bw,
                   double links) {
  ClusterLevel l;
  l.name = name;
  l.fan_in = fan_in;
  l.child_gpus = child_gpus;
  l.gpus = fan_in * child_gpus;
  l.child_bandwidth = child_bandwidth;
  l.group_bandwidth = fan_in * child_bandwidth;
  l.switch_bandwidth = switches_per_group * ports * port_bw;
  l.groups = groups;
  l.switches = groups * switches_per_group;
  l.links = links;
  return l;
}

// The levels above the node: leaves per SU, then spines (and a core past two levels).
template <bool M>
std::optional<Error> add_fabric(Cluster& c) {
  const ClusterSpec& s = c.spec;
  const double P = s.switch_ports;
  const double o = s.oversubscription;
  const double bw = s.port_bandwidth;
  const double down = std::floor(P * o / (1 + o));
  const double up = P - down;
  const double su_nodes = std::min(c.nodes, s.nodes_per_su);
  if (c.nodes > s.nodes_per_su && std::fmod(c.nodes, s.nodes_per_su) != 0) {
    return fail_with<M>("nodes", [&] {
      return std::string("nodes must be at most " + format_number(s.nodes_per_su) +
                         " (one scalable unit) or a multiple of " + format_number(s.nodes_per_su) +
                         ", got " + format_number(c.nodes));
    });
  }
  c.sus = std::ceil(c.nodes / s.nodes_per_su);
  const double su_cables = su_nodes * c.nics_per_node;
  double leaves = s.leaf_switches_per_su;
  if (leaves == 0) leaves = std::ceil(su_cables / down);
  if (leaves * down < su_cables) {
    return fail_with<M>("leaf_switches_per_su", [&] {
      return std::string("leaf_switches_per_su must be at least " +
                         format_number(std::ceil(su_cables / down)) + " to take one SU's " +
                         format_number(su_cables) + " NIC cables (" + format_number(down) +
                         " down ports each), got " + format_number(leaves));
    });
  }
  c.leaf_switches = c.sus * leaves;
  c.cables = c.nodes * c.nics_per_node;
  if (su_nodes > 1) {
    c.levels.push_back(
        level("leaf", su_nodes, c.gpus_per_node, c.node_egress, c.sus, leaves, P, bw, c.cables));
  }
  if (c.sus == 1) {
    if (s.spine_switches > 0) {
      return fail_with<M>("spine_switches", [&] {
        return std::string("spine_switches must be 0 for one scalable unit (" +
                           format_number(su_nodes) + " nodes need no spine), got " +
                           format_number(s.spine_switches));
      });
    }
    return std::nullopt;
  }
  const double su_gpus = su_nodes * c.gpus_per_node;
  const double su_up = std::min(leaves * up, std::ceil(su_cables / o));
  if (c.leaf_switches <= P) {
    // Two levels: every spine port faces down, and each leaf reaches every spine.
    double spines = s.spine_switches;
    if (spines == 0) spines = std::ceil(c.sus * su_up / P);
    if (spines > up) {
      return fail_with<M>("spine_switches", [&] {
        return std::string("spine_switches must be at most " + format_number(up) +
                           " (one per leaf up port, so each leaf reaches every spine), got " +
                           format_number(spines));
      });
    }
    const double per_su = std::min(su_up, std::floor(spines * P / c.sus));
    c.spine_switches = spines;
    c.cables += c.sus * per_su;
    c.levels.push_back(
        level("spine", c.sus, su_gpus, per_su * bw, 1, spines, P, bw, c.sus * per_su));
    return std::nullopt;
  }
  // Three levels: pods of SUs whose spines keep half their ports for the core.
  const double half = std::floor(P / 2);
  const double pod_sus = std::floor(half / leaves);
  const double two_level_nodes = std::floor(P / leaves) * s.nodes_per_su;
  if (s.spine_switches > 0) {
    return fail_with<M>("spine_switches", [&] {
      return std::string("spine_switches must be 0 past a two-level tree (at most " +
                         format_number(two_level_nodes) +
                         " nodes here), where pods and a core level count them, got " +
                         format_number(s.spine_switches));
    });
  }
  if (pod_sus < 1) {
    return fail_with<M>("nodes_per_su", [&] {
      return std::string("nodes_per_su must be at most " +
                         format_number(std::floor(half * down / c.nics_per_node)) +
                         " for this many nodes: an SU of " + format_number(s.nodes_per_su) +
                         " needs " + format_number(leaves) + " leaf switches, more than the " +
                         format_number(half) + " one spine pod reaches, got " +
                         format_number(s.nodes_per_su));
    });
  }
  if (std::fmod(c.sus, pod_sus) != 0 || c.sus / pod_sus > P) {
    const double pod_nodes = pod_sus * s.nodes_per_su;
    return fail_with<M>("nodes", [&] {
      return std::string("nodes must be at most " + format_number(two_level_nodes) +
                         " (a two-level tree of " + format_number(P) +
                         "-port switches) or, with a core level, a multiple of " +
                         format_number(pod_nodes) + " up to " + format_number(pod_nodes * P) +
                         ", got " + format_number(c.nodes));
    });
  }
  c.pods = c.sus / pod_sus;
  const double pod_spines = std::ceil(pod_sus * su_up / half);
  const double pod_up = pod_spines * half;
  c.spine_switches = c.pods * pod_spines;
  c.core_switches = std::ceil(c.pods * pod_up / P);
  c.cables += c.sus * su_up + c.pods * pod_up;
  if (pod_sus > 1) {
    c.levels.push_back(
        level("spine", pod_sus, su_gpus, su_up * bw, c.pods, pod_spines, P, bw, c.sus * su_up));
  }
  c.levels.push_back(level("core", c.pods, pod_sus * su_gpus, pod_up * bw, 1, c.core_switches, P,
                           bw, c.pods * pod_up));
  return std::nullopt;
}

void summarize(Cluster& c) {
  c.collective_bandwidth = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < c.levels.size(); ++i) {
    const double b = c.levels[i].collective_bandwidth();
    if (b < c.collective_bandwidth) {
      c.collective_bandwidth = b;
      c.binding_level = i;
    }
  }
  // Cut the GPUs in half along the top level: every child below sends across through its own
  // uplink, so the thinnest level's (N/2 / child GPUs) W bounds it. Across nodes, traffic
  // leaves by the NICs, so the node's NVLink counts only in a one-node cluster.
  c.bisection_one_way = std::numeric_limits<double>::infinity();
  const std::size_t first = c.levels.size() > 1 ? 1 : 0;
  for (std::size_t i = first; i < c.levels.size(); ++i) {
    const ClusterLevel& l = c.levels[i];
    c.bisection_one_way =
        std::min(c.bisection_one_way, c.gpus / 2 / l.child_gpus * l.child_bandwidth);
  }
  c.bisection_bandwidth = 2 * c.bisection_one_way;
  c.switches = c.nvswitches + c.leaf_switches + c.spine_switches + c.core_switches;
}

}  // namespace

namespace {

// build_cluster without the chip and spec checks; messages only with M (default_cluster asks
// the same questions without them, so a module that only lays jobs out drops every message).
template <bool M>
Result<Cluster> assemble(const Chip& gpu, const ClusterSpec& spec) {
  Cluster c;
  c.spec = spec;
  c.chip = gpu.id;
  if (spec.gpus_per_node != 0 && spec.gpus_per_node != gpu.nvlink_domain_gpus) {
    return fail_with<M>("gpus_per_node", [&] {
      return std::string("gpus_per_node must be " + format_number(gpu.nvlink_domain_gpus) + " on " +
                         gpu.id + " (its NVLink domain), got " + format_number(spec.gpus_per_node));
    });
  }
  c.gpus_per_node = gpu.nvlink_domain_gpus;
  c.spec.gpus_per_node = c.gpus_per_node;
  c.nodes = spec.nodes;
  c.gpus = c.nodes * c.gpus_per_node;
  c.nvswitches = c.nodes * gpu.nvswitches_per_node;
  c.levels.push_back(node_level(gpu, c));
  if (c.nodes == 1) {
    c.sus = 0;
    summarize(c);
    return c;
  }
  if (c.spec.port_bandwidth == 0) c.spec.port_bandwidth = gpu.nic_bandwidth;
  if (c.spec.port_bandwidth == 0) {
    return fail_with<M>("port_bandwidth", [&] {
      return std::string("port_bandwidth must be given for " + gpu.id +
                         ": the catalog has no scale-out NIC for it");
    });
  }
  if (gpu.nics_per_gpu <= 0) {
    return fail_with<M>("chip", [&] {
      return std::string("chip " + gpu.id +
                         " has no scale-out NICs in the catalog, so it has no nodes "
                         "to join");
    });
  }
  c.nics_per_node = gpu.nics_per_gpu * c.gpus_per_node;
  c.node_egress = c.nics_per_node * c.spec.port_bandwidth;
  if (std::optional<Error> e = add_fabric<M>(c)) return *e;
  summarize(c);
  return c;
}

}  // namespace

Result<Cluster> build_cluster(const Chip& gpu, const ClusterSpec& spec) {
  if (is_tpu(gpu) || gpu.nvlink_domain_gpus <= 0) {
    return field_error("chip", "chip must be a GPU with an NVLink domain, got " + gpu.id);
  }
  if (std::optional<Error> e = check_spec(spec)) return *e;
  return assemble<true>(gpu, spec);
}

Cluster default_cluster(const Chip& gpu, double gpus) {
  const double k = gpu.nvlink_domain_gpus;
  ClusterSpec spec;
  spec.nodes = std::max(1.0, std::ceil(gpus / k));
  if (is_tpu(gpu) || gpu.nvlink_domain_gpus <= 0) return Cluster{};
  Result<Cluster> built = assemble<false>(gpu, spec);
  if (!built.ok() && spec.nodes > 1) {
    // No fat tree of this shape holds it: keep the node and one idealized full-bisection level
    // (the book's "400 GB/s per node at any scale").
    ClusterSpec one_node;
    Result<Cluster> node = assemble<false>(gpu, one_node);
    if (!node.ok()) return Cluster{};
    Cluster c = node.value();
    c.spec.nodes = c.nodes = spec.nodes;
    c.gpus = c.nodes * c.gpus_per_node;
    c.nics_per_node = gpu.nics_per_gpu * c.gpus_per_node;
    c.node_egress = c.nics_per_node * gpu.nic_bandwidth;
    c.nvswitches = c.nodes * gpu.nvswitches_per_node;
    c.levels[0].groups = c.nodes;
    c.levels[0].switches = c.nvswitches;
    c.levels[0].links = c.gpus * gpu.nvlink_links_per_gpu;
    if (c.node_egress > 0) {
      c.levels.push_back(level("scale-out", c.nodes, c.gpus_per_node, c.node_egress, 1, 0, 0, 0,
                               c.nodes * c.nics_per_node));
    }
    summarize(c);
    return c;
  }
  if (!built.ok()) return Cluster{};
  Cluster c = built.value();
  if (gpus < k) {
    // Part of one node: the collective runs over just these GPUs, still one switch hop apart.
    ClusterLevel& node = c.levels[0];
    c.gpus = node.fan_in = node.gpus = gpus;
    node.group_bandwidth = gpus * node.child_bandwidth;
    node.links = gpus * gpu.nvlink_links_per_gpu;
    summarize(c);
  }
  return c;
}

}  // namespace scalebook
