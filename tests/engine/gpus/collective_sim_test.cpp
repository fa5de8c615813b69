// The switched-collective simulation: its steps add up to the collective calculator's time on
// the same GPUs (every op, one node and a few, with and without latency, in-network reduction),
// the book's 8 x H100 AllGather, the ring's moves by hand, and bad input named by field.
#include "scalebook/gpus/collective_sim.h"

#include <cmath>
#include <set>

#include "helpers.h"
#include "scalebook/core/simulation.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

GpuCollectiveSimResult sim(CollectiveOp op, double gpus, double bytes, double latency = 0,
                           GpuSimAlgorithm algorithm = GpuSimAlgorithm::ring,
                           const std::string& cluster = "") {
  GpuCollectiveSimRequest q;
  q.op = op;
  q.gpus = gpus;
  q.bytes = bytes;
  q.latency = latency;
  q.algorithm = op == CollectiveOp::all_to_all ? GpuSimAlgorithm::direct : algorithm;
  q.cluster = cluster;
  Result<GpuCollectiveSimResult> r = simulate_gpu_collective(q);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

double calculator_time(CollectiveOp op, double gpus, double bytes, double latency,
                       bool in_network = false, const std::string& cluster = "auto") {
  return output(run("collective", {{"op", Value::of(to_string(op))},
                                   {"chip", Value::of("h100")},
                                   {"axis_size", Value::of(gpus)},
                                   {"bytes", Value::of(bytes)},
                                   {"latency", Value::of(latency)},
                                   {"cluster", Value::of(cluster)},
                                   {"in_network", Value::of(in_network ? "yes" : "no")}}),
                "time");
}

Error sim_error(const Inputs& fields) {
  SimulationRequest q;
  q.fields = fields;
  Result<SimNode> r = simulate("gpu-collective", q);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

// bf16[4096, 65536]: the book's AllGather over one H100 node.
constexpr double kBookArray = 2.0 * 4096 * 65536;

}  // namespace

TEST_CASE("gpu-collective: the steps add up to the collective calculator's time", "[gpus]") {
  for (CollectiveOp op : {CollectiveOp::all_gather, CollectiveOp::reduce_scatter,
                          CollectiveOp::all_reduce, CollectiveOp::all_to_all}) {
    for (double gpus : {8.0, 16.0, 32.0}) {
      // Bandwidth-bound, latency-bound and in between.
      for (auto [bytes, latency] : {std::pair{kBookArray, 0.0}, std::pair{1e6, 5e-6},
                                    std::pair{1e3, 5e-6}, std::pair{3e7, 2e-5}}) {
        CAPTURE(to_string(op), gpus, bytes, latency);
        const GpuCollectiveSimResult r = sim(op, gpus, bytes, latency);
        CHECK(r.time == Approx(calculator_time(op, gpus, bytes, latency)).epsilon(1e-12));
        CHECK(r.time == Approx(r.closed_form).epsilon(1e-12));
        CHECK(static_cast<double>(r.steps.size()) == r.hops);
      }
    }
  }
}

TEST_CASE("gpu-collective: in-network AllReduce on 8 H100s takes bytes / 450 GB/s", "[gpus]") {
  const GpuCollectiveSimResult r =
      sim(CollectiveOp::all_reduce, 8, kBookArray, 0, GpuSimAlgorithm::in_network);
  CHECK(r.time == Approx(kBookArray / 450e9).epsilon(1e-12));
  REQUIRE(r.steps.size() == 1);
  // Each GPU sends the whole array up into the NVSwitch and gets the sum back down.
  CHECK(r.steps[0].moves.size() == 16);
  CHECK(r.steps[0].moves[0].to == -1);
  CHECK(r.steps[0].moves[1].from == -1);
  CHECK(r.steps[0].moves[0].bytes == kBookArray);
  CHECK(r.steps[0].phase == CollectiveOp::all_reduce);
  // Against the ring's 2 (n - 1)/n: 7/4 as fast.
  CHECK(sim(CollectiveOp::all_reduce, 8, kBookArray).time / r.time == Approx(1.75));
  for (double gpus : {16.0, 32.0}) {
    CAPTURE(gpus);
    const double t =
        sim(CollectiveOp::all_reduce, gpus, kBookArray, 1e-5, GpuSimAlgorithm::in_network).time;
    CHECK(t == Approx(calculator_time(CollectiveOp::all_reduce, gpus, kBookArray, 1e-5, true))
                   .epsilon(1e-12));
  }
}

TEST_CASE("gpu-collective: the book's 8 x H100 AllGather of bf16[4096, 65536] is 1.04 ms",
          "[gpus]") {
  const GpuCollectiveSimResult r = sim(CollectiveOp::all_gather, 8, kBookArray);
  CHECK(r.time == Approx(1.04e-3).epsilon(0.005));
  CHECK(r.time == Approx(7.0 / 8 * kBookArray / 450e9).epsilon(1e-12));
  REQUIRE(r.steps.size() == 7);
  REQUIRE(r.levels.size() == 1);
  CHECK(r.levels[0].name == "node");
  for (std::size_t j = 0; j < r.steps.size(); ++j) {
    const GpuSimStep& s = r.steps[j];
    CAPTURE(j);
    // Every step: each GPU sends one shard of V/8 to the next over NVLink, at 450 GB/s.
    CHECK(s.duration == Approx(kBookArray / 8 / 450e9));
    CHECK(s.binding == 0);
    REQUIRE(s.moves.size() == 8);
    for (const GpuSimMove& m : s.moves) {
      CHECK(m.to == (m.from + 1) % 8);
      CHECK(m.chunk == (m.from - static_cast<std::int64_t>(j) + 8) % 8);
      CHECK(m.level == 0);
      CHECK(m.bytes == kBookArray / 8);
    }
  }
}

TEST_CASE("gpu-collective: across two nodes each step runs both rings at once", "[gpus]") {
  const GpuCollectiveSimResult r = sim(CollectiveOp::all_gather, 16, kBookArray);
  REQUIRE(r.levels.size() == 2);
  CHECK(r.levels[1].name == "leaf");
  CHECK(r.levels[1].gpu_bandwidth == Approx(50e9));  // a node's 400 GB/s over its 8 GPUs
  CHECK(r.nodes == 2);
  REQUIRE(r.steps.size() == 8);  // 7 sends in the node, 1 across
  const GpuSimStep& s = r.steps[0];
  // NVLink: 7V/8 over 8 steps at 450 GB/s; the NIC: V/16 over 8 steps at 50 GB/s.
  CHECK(s.level_bytes[0] == Approx(7.0 / 8 * kBookArray / 8));
  CHECK(s.level_bytes[1] == Approx(kBookArray / 16 / 8));
  CHECK(s.binding == 0);
  std::set<std::int64_t> across;
  for (const GpuSimMove& m : s.moves)
    if (m.level == 1) {
      CHECK(std::llabs(m.to - m.from) == 8);
      across.insert(m.from);
    }
  CHECK(across.size() == 16);
  // With a per-step latency longer than either level, the latency binds.
  const GpuCollectiveSimResult slow = sim(CollectiveOp::all_gather, 16, 1e3, 1e-5);
  CHECK(slow.steps[0].binding == -1);
  CHECK(slow.time == Approx(8 * 1e-5));
}

TEST_CASE("gpu-collective: AllToAll sends every pair a block, AllReduce reduces then gathers",
          "[gpus]") {
  const GpuCollectiveSimResult a = sim(CollectiveOp::all_to_all, 16, 1.6e7);
  REQUIRE(a.steps.size() == 2);  // one round per level
  CHECK(a.steps[0].moves.size() == 16 * 15);
  double to_five = 0;
  for (const GpuSimStep& s : a.steps)
    for (const GpuSimMove& m : s.moves)
      if (m.from == 0 && m.to == 5) to_five += m.bytes;
  CHECK(to_five == Approx(1.6e7 / 256));
  const GpuCollectiveSimResult ar = sim(CollectiveOp::all_reduce, 8, 8e6);
  REQUIRE(ar.steps.size() == 14);
  CHECK(ar.steps[6].phase == CollectiveOp::reduce_scatter);
  CHECK(ar.steps[7].phase == CollectiveOp::all_gather);
  // The ReduceScatter's first send: GPU g passes on the partial sum of chunk g - 1.
  CHECK(ar.steps[0].moves[3].chunk == 2);
}

TEST_CASE("gpu-collective: on a SuperPod's leaf the steps match the calculator too", "[gpus]") {
  const GpuCollectiveSimResult r = sim(CollectiveOp::all_gather, 32, kBookArray, 1e-6,
                                       GpuSimAlgorithm::ring, "dgx-h100-superpod");
  CHECK(r.fabric == "DGX H100 SuperPod (1,024 H100)");
  CHECK(r.time == Approx(calculator_time(CollectiveOp::all_gather, 32, kBookArray, 1e-6, false,
                                         "dgx-h100-superpod"))
                      .epsilon(1e-12));
}

TEST_CASE("gpu-collective: bad input is refused naming the field", "[gpus]") {
  check_error(sim_error({{"gpus", Value::of(128.0)}}), ErrorCode::out_of_range, "gpus",
              "gpus must be <= 64: the simulation draws every GPU (the collective calculator "
              "costs larger groups), got 128");
  check_error(sim_error({{"gpus", Value::of(12.0)}}), ErrorCode::invalid_argument, "gpus",
              "gpus must be at most 8 (one h100 node) or a multiple of 8, got 12");
  check_error(sim_error({{"gpus", Value::of(2.5)}}), ErrorCode::invalid_argument, "gpus",
              "gpus must be a whole number, got 2.5");
  check_error(sim_error({{"gpus", Value::of(0.0)}}), ErrorCode::out_of_range, "gpus",
              "gpus must be >= 1, got 0");
  check_error(sim_error({{"bytes", Value::of(std::nan(""))}}), ErrorCode::invalid_argument, "bytes",
              "bytes must be a finite number, got nan");
  check_error(sim_error({{"bytes", Value::of(-1.0)}}), ErrorCode::out_of_range, "bytes",
              "bytes must be > 0, got -1");
  check_error(sim_error({{"latency", Value::of(-1e-6)}}), ErrorCode::out_of_range, "latency",
              "latency must be >= 0, got -1e-6");
  check_error(sim_error({{"chip", Value::of("tpu-v5e")}}), ErrorCode::invalid_argument, "chip",
              "chip tpu-v5e is not a GPU on a switched fabric; choose one of " +
                  std::string("h100, a100, h200, h800, b200, gb200"));
  CHECK(sim_error({{"chip", Value::of("h900")}}).field == "chip");
  check_error(sim_error({{"op", Value::of("all-gather")}, {"algorithm", Value::of("in-network")}}),
              ErrorCode::invalid_argument, "algorithm",
              "algorithm in-network reduces in the switches, so it takes op all-reduce, got "
              "all-gather");
  check_error(sim_error({{"op", Value::of("all-to-all")}, {"algorithm", Value::of("ring")}}),
              ErrorCode::invalid_argument, "algorithm",
              "op all-to-all takes algorithm direct, got ring");
  check_error(sim_error({{"cluster", Value::of("dgx-b200-superpod")}}), ErrorCode::invalid_argument,
              "cluster",
              "cluster dgx-b200-superpod is built of b200 GPUs, not h100; give chip=b200");
  CHECK(sim_error({{"cluster", Value::of("nowhere")}}).code == ErrorCode::not_found);
  CHECK(sim_error({{"speed", Value::of(2.0)}}).field == "speed");
}

TEST_CASE("gpu-collective: the book's quiz numbers, one node and two", "[gpus]") {
  // Pop Quiz 1: AllGather of bf16[1024, 16384] on 8 H100s, 7/8 of 32 MiB at 450 GB/s: 65.2 us.
  CHECK(sim(CollectiveOp::all_gather, 8, 2.0 * 1024 * 16384).time ==
        Approx(65.2e-6).epsilon(0.001));
  // Quiz 4 Q5: over exactly two nodes the node stage runs at V / 514 GB/s, the cross-node one
  // at V / 800 GB/s; the node binds.
  const double v = 1e9;
  const GpuCollectiveSimResult r = sim(CollectiveOp::all_gather, 16, v);
  REQUIRE(r.levels.size() == 2);
  CHECK(v / r.levels[0].stage_time == Approx(514.2857e9).epsilon(1e-6));
  CHECK(v / r.levels[1].stage_time == Approx(800e9));
  CHECK(r.binding == 0);
  for (const GpuSimStep& s : r.steps) CHECK(s.binding == 0);
}
