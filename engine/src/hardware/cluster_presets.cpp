// The clusters chapter 12 draws, as specs the builder checks like any reader's.
#include "scalebook/hardware/cluster.h"

namespace scalebook {
namespace {

ClusterSpec superpod(double nodes) {
  ClusterSpec s;
  s.nodes = nodes;
  s.nodes_per_su = 32;
  s.switch_ports = 64;
  return s;
}

std::vector<ClusterPreset> make_presets() {
  ClusterSpec h100_node;
  h100_node.nvswitch_ports = 64;

  ClusterSpec h100_pod = superpod(128);
  h100_pod.leaf_switches_per_su = 8;
  h100_pod.spine_switches = 16;
  h100_pod.nvswitch_ports = 64;

  ClusterSpec b200_pod = superpod(128);
  b200_pod.leaf_switches_per_su = 8;
  b200_pod.spine_switches = 16;

  ClusterSpec rack;

  ClusterSpec gb200_pod;
  gb200_pod.nodes = 8;
  gb200_pod.nodes_per_su = 8;

  return {
      {"h100-node", "8 x H100 (DGX H100 node)", "h100", h100_node,
       "chapter 12: 8 H100 on 4 NVSwitches of 64 NVLink 4 ports, 450 GB/s per GPU each way"},
      {"dgx-h100-superpod", "DGX H100 SuperPod (1,024 H100)", "h100", h100_pod,
       "chapter 12: 128 nodes in 4 SUs of 32, 8 leaf and 16 spine 64-port NDR switches, one 400 "
       "Gbps NIC per GPU; 512 NVSwitches + 32 leaf + 16 spine = 560 switches"},
      {"dgx-b200-superpod", "DGX B200 SuperPod (1,024 B200)", "b200", b200_pod,
       "chapter 12 (Quiz 5): the H100 SuperPod's fabric with B200 nodes, 900 GB/s NVLink and "
       "400 GB/s per node beyond"},
      {"gb200-nvl72", "GB200 NVL72 rack (72 GPUs)", "gb200", rack,
       "chapter 12, Appendix A: one NVLink domain of 72 GPUs on 18 NVSwitches"},
      {"gb200-nvl72-superpod", "GB200 SuperPod (576 GPUs)", "gb200", gb200_pod,
       "chapter 12's figure: 8 NVL72 racks on one row of leaf switches, 4 x 18 x 400 Gbps out of "
       "each rack"},
      {"deepseek-v3-h800", "DeepSeek V3's 2,048 H800", "h800", superpod(256),
       "chapter 12 gives 2,048 H800 in nodes of 8; the fabric is our default (SUs of 32 nodes, "
       "64-port switches, full bisection), which is the book's 2,048-GPU answer: 32 spines"},
  };
}

}  // namespace

const std::vector<ClusterPreset>& cluster_presets() {
  static const std::vector<ClusterPreset> presets = make_presets();
  return presets;
}

const ClusterPreset* find_cluster_preset(std::string_view id) {
  for (const ClusterPreset& p : cluster_presets()) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

}  // namespace scalebook
