#pragma once
// A GPU cluster as chapter 12 draws it: nodes (NVLink domains, every GPU one NVSwitch hop from
// every other), scalable units (SUs) of nodes under a row of leaf switches, and spine switches
// joining the SUs in a fat tree; past what two levels of the switch radix P can hold, pods of
// SUs under their own spines and a core level above them (as NVIDIA's 4,096-GPU reference).
//
// Each level i joins D_i children (GPUs in a node, nodes in an SU, SUs or pods above), each
// child sending W_i B/s one way into the level. A hierarchical AllGather or ReduceScatter of B
// bytes then takes B * max_i (D_i - 1) / (D_i W_i) per GPU's share, so the cluster's collective
// bandwidth is min_i D_i W_i / (D_i - 1): on the DGX H100 SuperPod node 450e9 * 8/7 = 514 GB/s,
// leaf 400e9 * 32/31 = 413 GB/s, spine 12.8e12 * 4/3 = 17.1 TB/s, so 413 GB/s.
//
// Port rules (a folded Clos of P-port switches): a leaf keeps P*o/(1+o) ports down and the
// rest up, for oversubscription o (1: half and half, full bisection); a leaf must reach every
// spine of its tree, so a spine's down ports bound how many leaves one tree holds: P leaves in
// a two-level tree (P^2/2 NIC ports at o = 1: 2,048 for P = 64), P/2 per pod in a three-level
// one, whose core holds at most P pods.
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook {

// What a reader chooses. 0 means "the chip's" or "as many as full bandwidth needs".
struct ClusterSpec {
  double nodes = 1;                 // NVLink domains (a GB200 NVL72 rack is one node of 72)
  double gpus_per_node = 0;         // 0: the chip's NVLink domain; any other must equal it
  double nodes_per_su = 32;         // nodes under one SU's leaf switches
  double leaf_switches_per_su = 0;  // 0: as few as take the SU's NIC cables
  double spine_switches = 0;        // 0: as many as the leaves' uplinks fill (two levels only)
  double switch_ports = 64;         // scale-out switch radix P
  double port_bandwidth = 0;        // B/s one way per port and cable; 0: the chip's NIC's
  double oversubscription = 1;      // leaf down ports : up ports (1 = full bisection)
  double nvswitch_ports = 0;        // NVLink ports per NVSwitch; 0: not known (no node figure)
};

// One level of the tree, innermost first: node, leaf, spine, core.
struct ClusterLevel {
  std::string name;
  double fan_in = 0;            // D: children one group joins (GPUs; nodes; SUs; pods)
  double gpus = 0;              // GPUs under one group of this level (8, 256, 1024)
  double child_gpus = 0;        // GPUs under one child (1, 8, 256)
  double child_bandwidth = 0;   // W: B/s one way from one child into the level
  double group_bandwidth = 0;   // D W: B/s one way into one group from all its children
  double switch_bandwidth = 0;  // B/s one way through one group's switches' ports (0: unknown)
  double groups = 0;            // groups of this level in the cluster
  double switches = 0;          // switches of this level, whole cluster
  double links = 0;             // links into this level, whole cluster (NVLink links; cables)

  double per_gpu_bandwidth() const { return child_bandwidth / child_gpus; }
  // D W / (D - 1): the level's AllGather/ReduceScatter bandwidth.
  double collective_bandwidth() const { return fan_in * child_bandwidth / (fan_in - 1); }
};

struct Cluster {
  ClusterSpec spec;  // as given, zeros resolved
  std::string chip;
  double gpus = 0, nodes = 0, sus = 0, pods = 0;
  double gpus_per_node = 0;
  double nics_per_node = 0;
  double node_egress = 0;  // B/s one way from one node into the scale-out network
  std::vector<ClusterLevel> levels;
  std::size_t binding_level = 0;    // the level with the lowest collective bandwidth
  double collective_bandwidth = 0;  // AllGather/ReduceScatter: min over levels
  double bisection_one_way = 0;     // B/s one way across an even split of the GPUs
  double bisection_bandwidth = 0;   // both ways, as the book counts it (3.6 TB/s on 8 H100)
  double nvswitches = 0, leaf_switches = 0, spine_switches = 0, core_switches = 0;
  double switches = 0;  // all of them
  double cables = 0;    // scale-out cables (NIC to leaf, leaf to spine, spine to core)
};

// Errors name the field: nodes, gpus_per_node, nodes_per_su, leaf_switches_per_su,
// spine_switches, switch_ports, port_bandwidth, oversubscription, nvswitch_ports, or chip.
Result<Cluster> build_cluster(const Chip& gpu, const ClusterSpec& spec);

// The cluster a job of `gpus` GPUs gets when it names no fabric: whole nodes (or one node's
// share), SUs of 32 nodes, full bisection, the chip's NICs. For a chip without NICs in the
// catalog, or a count no fat tree holds, the levels above the node are left out.
Cluster default_cluster(const Chip& gpu, double gpus);

struct ClusterPreset {
  std::string id;
  std::string name;
  std::string chip;
  ClusterSpec spec;
  std::string note;  // where the shape comes from
};

const std::vector<ClusterPreset>& cluster_presets();
const ClusterPreset* find_cluster_preset(std::string_view id);

}  // namespace scalebook
