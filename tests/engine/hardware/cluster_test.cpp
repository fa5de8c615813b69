// GPU clusters as chapter 12 builds them: the DGX H100 SuperPod's levels, bandwidths and switch
// counts, the GB200 rack, and the shapes no fat tree of the chosen switches can hold.
#include "scalebook/hardware/cluster.h"

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Cluster preset(const char* id) {
  const ClusterPreset* p = find_cluster_preset(id);
  REQUIRE(p != nullptr);
  Result<Cluster> c = build_cluster(*find_chip(p->chip), p->spec);
  if (!c.ok()) FAIL(c.error().message);
  return c.value();
}

Error refused(const char* chip, const ClusterSpec& spec) {
  Result<Cluster> c = build_cluster(*find_chip(chip), spec);
  REQUIRE_FALSE(c.ok());
  return c.error();
}

}  // namespace

TEST_CASE("cluster: the DGX H100 SuperPod has the book's levels, bandwidths and 560 switches",
          "[cluster]") {
  const Cluster c = preset("dgx-h100-superpod");
  CHECK(c.gpus == 1024);
  CHECK(c.nodes == 128);
  CHECK(c.sus == 4);
  REQUIRE(c.levels.size() == 3);
  const ClusterLevel& node = c.levels[0];
  const ClusterLevel& leaf = c.levels[1];
  const ClusterLevel& spine = c.levels[2];
  CHECK(node.name == "node");
  CHECK(node.gpus == 8);
  CHECK(node.group_bandwidth == Approx(3.6e12));                // GPU-limited
  CHECK(node.switch_bandwidth == Approx(6.4e12));               // 4 x 64 x 25 GB/s
  CHECK(node.collective_bandwidth() == Approx(450e9 * 8 / 7));  // 514 GB/s
  CHECK(leaf.gpus == 256);
  CHECK(leaf.fan_in == 32);
  CHECK(leaf.child_bandwidth == Approx(400e9));  // per node
  CHECK(leaf.per_gpu_bandwidth() == Approx(50e9));
  CHECK(leaf.group_bandwidth == Approx(12.8e12));
  CHECK(leaf.switch_bandwidth == Approx(25.6e12));
  CHECK(leaf.collective_bandwidth() == Approx(413e9).epsilon(0.001));
  CHECK(spine.gpus == 1024);
  CHECK(spine.fan_in == 4);
  CHECK(spine.child_bandwidth == Approx(12.8e12));     // one SU's uplinks
  CHECK(spine.child_bandwidth / 32 == Approx(400e9));  // still 400 GB/s per node
  CHECK(spine.switch_bandwidth == Approx(51.2e12));
  CHECK(spine.collective_bandwidth() == Approx(17.07e12).epsilon(0.001));
  CHECK(c.binding_level == 1);
  CHECK(c.collective_bandwidth == Approx(412.9e9).epsilon(0.001));
  CHECK(c.nvswitches == 512);
  CHECK(c.leaf_switches == 32);
  CHECK(c.spine_switches == 16);
  CHECK(c.switches == 560);
  CHECK(c.cables == 1024 + 1024);                 // NIC to leaf, leaf to spine
  CHECK(c.bisection_one_way == Approx(25.6e12));  // 64 nodes x 400 GB/s
}

TEST_CASE("cluster: one H100 node's bisection is the book's 3.6 TB/s", "[cluster]") {
  const Cluster c = preset("h100-node");
  CHECK(c.gpus == 8);
  REQUIRE(c.levels.size() == 1);
  CHECK(c.bisection_bandwidth == Approx(3.6e12));
  CHECK(c.switches == 4);
}

TEST_CASE("cluster: a GB200 NVL72 rack egresses 3.6 TB/s, 9x an H100 node", "[cluster]") {
  const Cluster rack = preset("gb200-nvl72");
  CHECK(rack.gpus == 72);
  CHECK(rack.nvswitches == 18);
  const Cluster pod = preset("gb200-nvl72-superpod");
  CHECK(pod.gpus == 576);
  CHECK(pod.node_egress == Approx(3.6e12));
  CHECK(pod.node_egress / preset("dgx-h100-superpod").node_egress == Approx(9));
  CHECK(pod.leaf_switches == 18);  // 576 NIC cables on 32 down ports each
  CHECK(pod.spine_switches == 0);
  REQUIRE(pod.levels.size() == 2);
  CHECK(pod.levels[1].collective_bandwidth() == Approx(3.6e12 * 8 / 7));
  // The node now binds: 900e9 * 72/71 < 3.6e12 * 8/7.
  CHECK(pod.binding_level == 0);
}

TEST_CASE("cluster: 2,048 GPUs take 32 spines, 4,096 a core level of 64 (the book's answers)",
          "[cluster]") {
  const Cluster deepseek = preset("deepseek-v3-h800");
  CHECK(deepseek.gpus == 2048);
  CHECK(deepseek.spine_switches == 32);
  CHECK(deepseek.core_switches == 0);
  ClusterSpec big;
  big.nodes = 512;
  Result<Cluster> c = build_cluster(*find_chip("h100"), big);
  REQUIRE(c.ok());
  CHECK(c.value().pods == 4);
  CHECK(c.value().spine_switches == 128);
  CHECK(c.value().core_switches == 64);
  CHECK(c.value().levels.back().name == "core");
  CHECK(c.value().levels.back().child_bandwidth / 128 == Approx(400e9));
}

TEST_CASE("cluster: default_cluster takes any job size a GPU count names", "[cluster]") {
  const Chip& h100 = *find_chip("h100");
  const Cluster llama = default_cluster(h100, 8192);
  CHECK(llama.gpus == 8192);
  CHECK(llama.core_switches == 128);
  CHECK(llama.collective_bandwidth == Approx(412.9e9).epsilon(0.001));
  const Cluster half = default_cluster(h100, 4);
  CHECK(half.gpus == 4);
  CHECK(half.collective_bandwidth == Approx(450e9 * 4 / 3));
  // 300 nodes fill no fat tree of SUs of 32: one idealized scale-out level.
  const Cluster odd = default_cluster(h100, 2400);
  CHECK(odd.gpus == 2400);
  REQUIRE(odd.levels.size() == 2);
  CHECK(odd.levels[1].name == "scale-out");
  CHECK(odd.levels[1].child_bandwidth == Approx(400e9));
}

TEST_CASE("cluster: shapes that cannot exist are refused, naming the field", "[cluster]") {
  ClusterSpec s;
  s.nodes = 2.5;
  check_error(refused("h100", s), ErrorCode::invalid_argument, "nodes",
              "nodes must be a whole number of at least 1, got 2.5");
  s = {};
  s.nodes = 40;
  check_error(refused("h100", s), ErrorCode::invalid_argument, "nodes",
              "nodes must be at most 32 (one scalable unit) or a multiple of 32, got 40");
  s = {};
  s.nodes = 32 * 70;
  check_error(refused("h100", s), ErrorCode::invalid_argument, "nodes",
              "nodes must be at most 256 (a two-level tree of 64-port switches) or, with a core "
              "level, a multiple of 128 up to 8192, got 2240");
  s = {};
  s.nodes = 64;  // 2 SUs of 32 NVL72 racks: 72 leaves an SU, more than a spine pod reaches
  check_error(refused("gb200", s), ErrorCode::invalid_argument, "nodes_per_su",
              "nodes_per_su must be at most 14 for this many nodes: an SU of 32 needs 72 leaf "
              "switches, more than the 32 one spine pod reaches, got 32");
  s = {};
  s.gpus_per_node = 72;
  check_error(refused("b200", s), ErrorCode::invalid_argument, "gpus_per_node",
              "gpus_per_node must be 8 on b200 (its NVLink domain), got 72");
  s = {};
  s.nodes = 32;
  s.leaf_switches_per_su = 4;
  check_error(refused("h100", s), ErrorCode::invalid_argument, "leaf_switches_per_su",
              "leaf_switches_per_su must be at least 8 to take one SU's 256 NIC cables (32 down "
              "ports each), got 4");
  s = {};
  s.port_bandwidth = -1;
  check_error(refused("h100", s), ErrorCode::invalid_argument, "port_bandwidth",
              "port_bandwidth must be 0 (the chip's NIC) or a positive number of B/s, got -1");
  s = {};
  s.oversubscription = std::nan("");
  check_error(refused("h100", s), ErrorCode::invalid_argument, "oversubscription",
              "oversubscription must be at least 1 (leaf down ports per up port), got nan");
  check_error(refused("tpu-v5p", {}), ErrorCode::invalid_argument, "chip",
              "chip must be a GPU with an NVLink domain, got tpu-v5p");
}

TEST_CASE("cluster: a node's NICs carry the catalog's node egress wherever it gives both",
          "[cluster]") {
  int checked = 0;
  for (const Chip& chip : chips()) {
    if (chip.node_egress_bandwidth <= 0 || chip.nics_per_gpu <= 0) continue;
    INFO(chip.id);
    CHECK(chip.nics_per_gpu * chip.nic_bandwidth * chip.nvlink_domain_gpus ==
          Approx(chip.node_egress_bandwidth));
    ++checked;
  }
  CHECK(checked == 3);  // h100, b200, gb200
}
