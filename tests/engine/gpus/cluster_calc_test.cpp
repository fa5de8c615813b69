// The `gpu-cluster` calculator against chapter 12's numbers: the DGX H100 SuperPod's levels
// (Quiz 3 Q1, the precise AllGather bandwidths, 560 switches), the node's bisection (Quiz 2),
// the GB200 rack's egress, and bad shapes named by field.
#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

TEST_CASE("gpu-cluster: the DGX H100 SuperPod's levels and the 413 GB/s that binds", "[gpus]") {
  const Calculation c = run("gpu-cluster", {{"cluster", Value::of("dgx-h100-superpod")}});
  CHECK(output_value(c, "chip").text == "h100");
  CHECK(output(c, "gpus") == 1024);
  CHECK(output(c, "sus") == 4);
  // Quiz 3 Q1: 400 GB/s per node at every level.
  CHECK(output(c, "node_egress") == Approx(400e9));
  CHECK(output(c, "leaf_bandwidth") == Approx(12.8e12));
  CHECK(output(c, "spine_child_bandwidth") == Approx(12.8e12));
  CHECK(output(c, "spine_bandwidth") == Approx(51.2e12));
  CHECK(output(c, "leaf_bandwidth_per_gpu") == Approx(50e9));
  CHECK(output(c, "spine_bandwidth_per_gpu") == Approx(50e9));
  // Quiz 2 Q1: the node is GPU-limited at 3.6 TB/s under switches of 6.4.
  CHECK(output(c, "node_bandwidth") == Approx(3.6e12));
  CHECK(output(c, "node_switch_bandwidth") == Approx(6.4e12));
  // gpus-ex6: 514, 413 and 17.1 TB/s; the leaf binds.
  CHECK(output(c, "node_collective_bandwidth") == Approx(514e9).epsilon(0.001));
  CHECK(output(c, "leaf_collective_bandwidth") == Approx(413e9).epsilon(0.001));
  CHECK(output(c, "spine_collective_bandwidth") == Approx(17.1e12).epsilon(0.002));
  CHECK(output_value(c, "binding_level").text == "leaf");
  CHECK(output(c, "collective_bandwidth") == Approx(413e9).epsilon(0.001));
  CHECK(output(c, "nvswitches") == 512);
  CHECK(output(c, "leaf_switches") == 32);
  CHECK(output(c, "spine_switches") == 16);
  CHECK(output(c, "switches") == 560);
  CHECK(output_value(c, "core_gpus").is_none());
  const Table& levels = table(c, "levels");
  REQUIRE(levels.rows.size() == 3);
  CHECK(cell(levels, 2, "level").text == "spine");
}

TEST_CASE("gpu-cluster: one H100 node, one GB200 rack, and a 576-GPU GB200 SuperPod", "[gpus]") {
  const Calculation node = run("gpu-cluster", {{"cluster", Value::of("h100-node")}});
  CHECK(output(node, "gpus") == 8);
  CHECK(output(node, "bisection_bandwidth") == Approx(3.6e12));  // Quiz 2 Q2
  CHECK(output_value(node, "leaf_gpus").is_none());
  CHECK(output_value(node, "node_egress").is_none());
  const Calculation rack = run("gpu-cluster", {{"cluster", Value::of("gb200-nvl72")}});
  CHECK(output(rack, "gpus") == 72);
  CHECK(output(rack, "nvswitches") == 18);
  const Calculation pod = run("gpu-cluster", {{"cluster", Value::of("gb200-nvl72-superpod")}});
  CHECK(output(pod, "gpus") == 576);
  CHECK(output(pod, "node_egress") == Approx(3.6e12));  // gpus-ex5: 4 x 18 x 400 Gbps
  CHECK(output_value(pod, "binding_level").text == "node");
}

TEST_CASE("gpu-cluster: the reader's inputs replace the preset's, and bigger trees grow a core",
          "[gpus]") {
  // The H100 SuperPod's shape with B200 nodes: 900 GB/s inside, still 400 GB/s per node out.
  const Calculation b200 = run(
      "gpu-cluster", {{"cluster", Value::of("dgx-h100-superpod")}, {"chip", Value::of("b200")}});
  CHECK(output(b200, "node_child_bandwidth") == Approx(900e9));
  CHECK(output(b200, "node_egress") == Approx(400e9));
  // Quiz 3 Q2: 2,048 GPUs need 32 spines; 4,096 a core level (NVIDIA: 128 spine, 64 core).
  const Calculation two_k = run("gpu-cluster", {{"nodes", Value::of(256.0)}});
  CHECK(output(two_k, "spine_switches") == 32);
  CHECK(output(two_k, "core_switches") == 0);
  const Calculation four_k = run("gpu-cluster", {{"nodes", Value::of(512.0)}});
  CHECK(output(four_k, "spine_switches") == 128);
  CHECK(output(four_k, "core_switches") == 64);
  CHECK(output(four_k, "core_bandwidth_per_gpu") == Approx(50e9));
  // Oversubscribed 3:1 leaves: a node still gets 400 GB/s to its leaf, an SU a third of that up;
  // a hierarchical AllGather still binds at the leaf, but the bisection falls to a third.
  const Calculation over = run("gpu-cluster", {{"cluster", Value::of("dgx-h100-superpod")},
                                               {"spine_switches", Value::of(0.0)},
                                               {"leaf_switches_per_su", Value::of(0.0)},
                                               {"oversubscription", Value::of(3.0)}});
  CHECK(output(over, "leaf_child_bandwidth") == Approx(400e9));
  CHECK(output(over, "spine_child_bandwidth") == Approx(12.8e12 / 3).epsilon(0.01));
  CHECK(output_value(over, "binding_level").text == "leaf");
  CHECK(output(over, "bisection_bandwidth") == Approx(51.2e12 / 3).epsilon(0.01));
}

TEST_CASE("gpu-cluster: shapes that cannot exist name their field", "[gpus]") {
  check_error(run_error("gpu-cluster", {{"nodes", Value::of(40.0)}}), ErrorCode::invalid_argument,
              "nodes", "nodes must be at most 32 (one scalable unit) or a multiple of 32, got 40");
  check_error(run_error("gpu-cluster", {{"nodes", Value::of(2.5)}}), ErrorCode::invalid_argument,
              "nodes", "nodes must be a whole number, got 2.5");
  check_error(
      run_error("gpu-cluster", {{"chip", Value::of("b200")}, {"gpus_per_node", Value::of(72.0)}}),
      ErrorCode::invalid_argument, "gpus_per_node",
      "gpus_per_node must be 8 on b200 (its NVLink domain), got 72");
  check_error(run_error("gpu-cluster", {{"cluster", Value::of("dgx-h100-superpod")},
                                        {"spine_switches", Value::of(40.0)}}),
              ErrorCode::invalid_argument, "spine_switches",
              "spine_switches must be at most 32 (one per leaf up port, so each leaf reaches "
              "every spine), got 40");
  check_error(
      run_error("gpu-cluster", {{"nodes", Value::of(4.0)}, {"port_bandwidth", Value::of(-5.0)}}),
      ErrorCode::out_of_range, "port_bandwidth", "port_bandwidth must be >= 0, got -5");
  const Error tpu = run_error("gpu-cluster", {{"chip", Value::of("tpu-v5p")}});
  CHECK(tpu.field == "chip");
  CHECK(tpu.message.rfind("chip must be one of h100, a100, h200, h800, b200, gb200, got", 0) == 0);
  CHECK(run_error("gpu-cluster", {{"cluster", Value::of("superpod")}}).field == "cluster");
}
