// Collectives on a switched fabric (chapter 12) against the book's numbers and nccl-tests'
// bus-bandwidth factors.
#include "scalebook/collectives/switched_cost.h"

#include <catch2/catch.hpp>

#include "helpers.h"

using namespace scalebook;

namespace {

const Chip& h100() { return *find_chip("h100"); }

std::vector<ClusterLevel> levels_of(double gpus) { return default_cluster(h100(), gpus).levels; }

double time_of(CollectiveOp op, double bytes, std::vector<double> extents, double gpus,
               bool sharp = false) {
  return switched_cost(op, bytes, extents, levels_of(gpus), sharp).t_bandwidth;
}

}  // namespace

TEST_CASE("an H100 cluster's levels are the book's SuperPod", "[collectives][gpus]") {
  const std::vector<ClusterLevel> levels = levels_of(1024);
  REQUIRE(levels.size() == 3);
  CHECK(levels[0].fan_in == 8);
  CHECK(levels[0].child_bandwidth == 450e9);
  CHECK(levels[1].fan_in == 32);  // nodes per scalable unit
  CHECK(levels[1].child_gpus == 8);
  CHECK(levels[1].child_bandwidth == 400e9);  // a node's egress
  CHECK(levels[2].fan_in == 4);               // scalable units
  CHECK(levels[2].child_gpus == 256);
  CHECK(levels[2].child_bandwidth == Approx(12.8e12));  // an SU's uplink, full bisection
  CHECK(levels_of(8).size() == 1);
  CHECK(levels_of(16).size() == 2);
}

TEST_CASE("bus bandwidth inside a node is the GPU's NVLink egress, as nccl-tests counts it",
          "[collectives][gpus]") {
  // nccl-tests: busbw = algbw x 2(n-1)/n for AllReduce, x (n-1)/n for the others, where
  // algbw is the array (AllGather's output, AllToAll's per-GPU buffer) over the time.
  const double V = 1e9, n = 8, W = 450e9;
  const double ag = time_of(CollectiveOp::all_gather, V, {8}, 8);
  CHECK(V / ag * (n - 1) / n == Approx(W));
  const double rs = time_of(CollectiveOp::reduce_scatter, V, {8}, 8);
  CHECK(V / rs * (n - 1) / n == Approx(W));
  const double ar = time_of(CollectiveOp::all_reduce, V, {8}, 8);
  CHECK(V / ar * 2 * (n - 1) / n == Approx(W));
  const double a2a = time_of(CollectiveOp::all_to_all, V, {8}, 8);
  CHECK((V / n) / a2a * (n - 1) / n == Approx(W));
}

TEST_CASE("the book's AllGathers on H100 nodes and the SuperPod", "[collectives][gpus]") {
  // Quiz 2 Q3: bf16[4096, 65536] over one node: 536 MB in 1.04 ms.
  const double V = 2.0 * 4096 * 65536;
  CHECK(time_of(CollectiveOp::all_gather, V, {8}, 8) == Approx(V * 7 / 8 / 450e9));
  CHECK(time_of(CollectiveOp::all_gather, V, {8}, 8) == Approx(1.044e-3).epsilon(0.01));
  // Quiz 4 Q5: exactly two nodes: B / 514e9 inside, B / 800e9 across: the node binds.
  SwitchedCost two = switched_cost(CollectiveOp::all_gather, 1.0, {8, 2}, levels_of(16));
  CHECK(1 / two.level_times[0] == Approx(514.3e9).epsilon(0.001));
  CHECK(1 / two.level_times[1] == Approx(800e9));
  CHECK(two.binding == 0);
  // The SuperPod's 1,024 GPUs: 514 GB/s, 413 GB/s, 17.1 TB/s; the leaf binds.
  SwitchedCost pod = switched_cost(CollectiveOp::all_gather, 1.0, {8, 32, 4}, levels_of(1024));
  CHECK(1 / pod.level_times[0] == Approx(514.3e9).epsilon(0.001));
  CHECK(1 / pod.level_times[1] == Approx(412.9e9).epsilon(0.001));
  CHECK(1 / pod.level_times[2] == Approx(17.07e12).epsilon(0.001));
  CHECK(pod.binding == 1);
  CHECK(pod.hops == 7 + 31 + 3);
}

TEST_CASE("an inner axis spanning nodes cuts the outer AllGather by the nodes it spans",
          "[collectives][gpus]") {
  // Pop Quiz 3 / the chapter's curve: AllGather_X(bf16[D_X, F_Y]) in one SU, D 8192, F 32768.
  const double D = 8192, F = 32768, total = 2 * D * F;
  // Y = 8 fills each node: X has one GPU in each of 32 nodes, sharing the node's NICs with 7.
  const double y8 = time_of(CollectiveOp::all_gather, total / 8, {1, 32}, 256);
  CHECK(y8 == Approx(total * 31 / (32 * 400e9)));
  // Y = 16 spans two nodes: X is 16 GPUs, one per pair of nodes: half the time, and so on.
  const double y16 = time_of(CollectiveOp::all_gather, total / 16, {1, 16}, 256);
  CHECK(y16 == Approx(total / 16 * 15 / 16 * 8 / 400e9));
  CHECK(y16 / y8 == Approx((15.0 / 16) / (31.0 / 32) / 2));
  // Y = 2: X takes 4 GPUs of each node; the node's egress carries all of its 2DF/Y bytes.
  const double y2 = time_of(CollectiveOp::all_gather, total / 2, {4, 32}, 256);
  CHECK(y2 == Approx(total * 31 / (32 * 400e9)));
}

TEST_CASE("in-network reduction makes an AllReduce cost bytes over egress", "[collectives][gpus]") {
  // Quiz 4 Q2: one node with SHARP (NVLS): exactly B / W, against 2 (n-1)/n B / W without.
  const double V = 1e9;
  CHECK(time_of(CollectiveOp::all_reduce, V, {8}, 8, true) == Approx(V / 450e9));
  CHECK(time_of(CollectiveOp::all_reduce, V, {8}, 8) == Approx(2 * V * 7 / 8 / 450e9));
  // Other collectives are unchanged by it.
  CHECK(time_of(CollectiveOp::all_gather, V, {8}, 8, true) ==
        time_of(CollectiveOp::all_gather, V, {8}, 8));
}

TEST_CASE("an AllToAll across nodes is bound by the node's egress", "[collectives][gpus]") {
  // In a node B (n-1) / (n^2 W); over 2 nodes the node's egress carries half of each GPU's
  // blocks: B (M-1) / (M^2 W_node) = B / (4 x 400e9). The book's rounded forms, B / (8 W)
  // against B / (2 W_node), make that 4.5x; exactly it is 2.57x.
  const double V = 1e9;
  const double in_node = time_of(CollectiveOp::all_to_all, V, {8}, 8);
  CHECK(in_node == Approx(V * 7 / (64 * 450e9)));
  SwitchedCost two = switched_cost(CollectiveOp::all_to_all, V, {8, 2}, levels_of(16));
  CHECK(two.level_times[1] == Approx(V / (4 * 400e9)));
  CHECK(two.t_bandwidth / in_node == Approx((1.0 / 1600) / (7.0 / (64 * 450))));
}
