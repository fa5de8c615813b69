// The collective calculator against chapter 3's answers (sharding.json) and chapter 12's GPU
// collectives (gpus.json), its wraparound decisions, and its exact error messages.
#include <algorithm>
#include <cmath>
#include <string>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

constexpr double kBf16 = 2;

Calculation collective(Inputs inputs) { return run("collective", inputs); }

Error collective_error(Inputs inputs) { return run_error("collective", inputs); }

std::string text(const Calculation& c, const std::string& name) {
  return output_value(c, name).text;
}

// The last step computing `output` (the earlier ones compute its parts).
const Step* step_for(const Calculation& c, const std::string& output) {
  const Step* found = nullptr;
  for (const Step& s : c.steps)
    if (s.output == output) found = &s;
  return found;
}

}  // namespace

TEST_CASE("Pop Quiz 2: an AllGather over a 4-long v5e axis, ideal ring and without wraparound",
          "[collective]") {
  const double v = 2048 * 8192 * kBf16;  // bf16[2048, 8192]: the default bytes
  // sharding-pq3a: 377 us if the axis were a full bidirectional ring.
  Calculation ring = collective({{"wraparound", Value::of("yes")}});
  CHECK(output(ring, "time") == Approx(3.77e-4).epsilon(0.02));
  CHECK(output(ring, "time") == Approx(v / 9e10));
  CHECK(text(ring, "wraps") == "yes");
  CHECK(text(ring, "bound") == "bandwidth");
  // sharding-pq3b: a 4-long v5e axis has no wraparound, so 3 hops of an 8.4 MB shard: 560 us.
  Calculation line = collective({});
  CHECK(text(line, "wraps") == "no");
  CHECK(output(line, "time") == Approx(5.6e-4).epsilon(0.02));
  CHECK(output(line, "hops") == 3);
  // sharding-pq3c: bf16[256, 256] is latency bound, 3 hops of 1 us.
  Calculation small = collective({{"bytes", Value::of(256 * 256 * kBf16)}});
  CHECK(output(small, "time") == Approx(3e-6).epsilon(0.5));
  CHECK(output(small, "time") == Approx(3e-6));
  CHECK(text(small, "bound") == "latency");
}

TEST_CASE("Question 2 on a v4p 4x4x4: one axis, two axes and an AllReduce", "[collective]") {
  const double b = 1024, d = 4096;
  Inputs v4p{{"chip", Value::of("tpu-v4p")}};
  // sharding-q2a: AllGather_X of [B_X, D_Y], one Y slice of 2BD/Y bytes: 23.3 us.
  Inputs x = v4p;
  x["bytes"] = Value::of(2 * b * d / 4);
  Calculation gx = collective(x);
  CHECK(text(gx, "wraps") == "yes");  // 4 is a multiple of the 4x4x4 cube's edge
  CHECK(output(gx, "time") == Approx(2.33e-5).epsilon(0.005));
  // sharding-q2b: AllGather_XY: two axes double the bandwidth: 46.6 us, latency 4 us.
  Inputs xy = v4p;
  xy["bytes"] = Value::of(2 * b * d);
  xy["axes"] = Value::of("4x4");
  Calculation gxy = collective(xy);
  CHECK(output(gxy, "time") == Approx(4.66e-5).epsilon(0.005));
  CHECK(output(gxy, "t_latency") == Approx(4e-6));
  CHECK(output(gxy, "chips") == 16);
  CHECK(text(gxy, "wraps") == "yes,yes");
  // sharding-q2c: AllReduce_Z of a [B/X, D/Y] block: twice the AllGather: 11.65 us.
  Inputs z = v4p;
  z["op"] = Value::of("all-reduce");
  z["bytes"] = Value::of(2 * b * d / 16);
  CHECK(output(collective(z), "time") == Approx(1.165e-5).epsilon(0.005));
}

TEST_CASE("Question 3: a tiny AllGather on a wrapped axis is two hops of latency", "[collective]") {
  Calculation c = collective({{"chip", Value::of("tpu-v4p")},
                              {"bytes", Value::of(128 * kBf16)},
                              {"axis_size", Value::of(4.0)}});
  CHECK(output(c, "time") == Approx(2e-6));
  CHECK(output(c, "hops") == 2);
  CHECK(text(c, "bound") == "latency");
  // The sizes where both terms tie: 2 us at 9e10 B/s.
  CHECK(output(c, "crossover_bytes") == Approx(2e-6 * 9e10));
}

TEST_CASE("a hop moving less than W T_min is latency bound: 45 kB on v5e", "[collective]") {
  // sharding-ex2: 4.5e10 B/s times 1 us.
  CHECK(output(collective({}), "latency_threshold_bytes") == Approx(45000));
  CHECK(output(collective({{"latency", Value::of(2e-6)}}), "latency_threshold_bytes") ==
        Approx(90000));
  CHECK(output(collective({{"ici_link_bandwidth", Value::of(9e10)}}), "link_bandwidth") == 9e10);
}

TEST_CASE("an AllToAll costs a quarter of an AllGather on a bidirectional ring", "[collective]") {
  for (double n : {4.0, 8.0, 16.0}) {
    Inputs in{{"axis_size", Value::of(n)}, {"wraparound", Value::of("yes")}};
    double gather = output(collective(in), "t_bandwidth");
    in["op"] = Value::of("all-to-all");
    CHECK(gather / output(collective(in), "t_bandwidth") == Approx(4));
  }
}

TEST_CASE("auto wraparound: the slice's rule for a whole torus shape, else each axis alone",
          "[collective]") {
  auto wraps = [](const std::string& chip, Inputs in) {
    in["chip"] = Value::of(chip);
    return text(collective(in), "wraps");
  };
  CHECK(wraps("tpu-v5e", {{"axis_size", Value::of(16.0)}}) == "yes");  // the pod's extent
  CHECK(wraps("tpu-v5e", {{"axis_size", Value::of(8.0)}}) == "no");
  CHECK(wraps("tpu-v5e", {{"axes", Value::of("8x16")}}) == "no,yes");
  CHECK(wraps("tpu-v6e", {{"axes", Value::of("16")}}) == "yes");
  CHECK(wraps("tpu-v3", {{"axis_size", Value::of(32.0)}}) == "yes");
  CHECK(wraps("tpu-v5p", {{"axes", Value::of("4x4x8")}}) == "yes,yes,yes");
  CHECK(wraps("tpu-v5p", {{"axes", Value::of("4x4x2")}}) == "no,no,no");  // not whole cubes
  CHECK(wraps("tpu-v5p", {{"axes", Value::of("4x8")}}) == "yes,yes");     // each axis alone
  CHECK(wraps("tpu-v5p", {{"axis_size", Value::of(2.0)}}) == "no");
  CHECK(wraps("tpu-v5p", {{"axis_size", Value::of(12.0)}}) == "yes");
  CHECK(wraps("tpu7x", {{"wraparound", Value::of("no")}}) == "no");
  CHECK(wraps("tpu-v5e", {{"axes", Value::of("4x4")}, {"wraparound", Value::of("yes")}}) ==
        "yes,yes");
  const Calculation c8x16 = collective({{"axes", Value::of("8x16")}});
  const Step* s = step_for(c8x16, "wraps");
  REQUIRE(s);
  CHECK(s->value == 1);
  Calculation v5e = collective({{"axis_size", Value::of(8.0)}});
  bool explained = false;
  for (const Step& st : v5e.steps) {
    explained =
        explained || st.latex ==
                         "n_X = 8 \\notin \\{16\\} = \\text{the pod's extents} \\Rightarrow "
                         "\\text{no wrap}";
  }
  CHECK(explained);
}

TEST_CASE("nccl-tests bandwidths and the share of a chip's injection bandwidth", "[collective]") {
  const double v = 1 << 26;
  // A 16-ring used both ways: each chip sends 15/16 V in V / (2 W) over its 2 links.
  Calculation ring = collective({{"axis_size", Value::of(16.0)}, {"bytes", Value::of(v)}});
  CHECK(output(ring, "algbw") == Approx(9e10));
  CHECK(output(ring, "busbw") == Approx(9e10 * 15 / 16));
  CHECK(output(ring, "peak_bandwidth") == Approx(9e10));
  CHECK(output(ring, "efficiency") == Approx(15.0 / 16));
  CHECK(output(ring, "achieved_bandwidth") ==
        Approx(output(ring, "bytes_per_chip") / output(ring, "time")));
  // A line of 4 sends one way at a time: half the two links.
  CHECK(output(collective({{"bytes", Value::of(v)}}), "efficiency") == Approx(0.5));
  // Two chips share one link.
  Calculation pair = collective({{"axis_size", Value::of(2.0)}, {"bytes", Value::of(v)}});
  CHECK(output(pair, "peak_bandwidth") == Approx(4.5e10));
  CHECK(output(pair, "efficiency") == Approx(1));
  // AllReduce's bus bandwidth counts both halves.
  Calculation ar = collective(
      {{"op", Value::of("all-reduce")}, {"axis_size", Value::of(16.0)}, {"bytes", Value::of(v)}});
  CHECK(output(ar, "busbw") == Approx(output(ar, "algbw") * 2 * 15 / 16));
  CHECK(output(ar, "bytes_per_chip") == Approx(2 * v * 15 / 16));
  // Two rings at once: four links.
  Calculation torus = collective({{"axes", Value::of("16x16")}, {"bytes", Value::of(v)}});
  CHECK(output(torus, "peak_bandwidth") == Approx(4 * 4.5e10));
  CHECK(output(torus, "efficiency") == Approx(255.0 / 256));
}

TEST_CASE("one chip has nothing to send", "[collective]") {
  Calculation c = collective({{"axis_size", Value::of(1.0)}});
  CHECK(output(c, "time") == 0);
  CHECK(output_value(c, "bound").is_none());
  CHECK(output_value(c, "hops").is_none());
  CHECK(output_value(c, "algbw").is_none());
  CHECK(output_value(c, "efficiency").is_none());
}

TEST_CASE("H100 collectives inside a node ride NVLink", "[collective][gpu]") {
  // gpus-pq1: AllGather of bf16[1024, 16384] over 8 H100s: 65 us (75 us without 7/8).
  const double v = 2 * 1024 * 16384;
  Inputs in{{"chip", Value::of("h100")}, {"axis_size", Value::of(8.0)}, {"bytes", Value::of(v)}};
  Calculation gather = collective(in);
  CHECK(output(gather, "time") == Approx(6.5e-5).epsilon(0.01));
  CHECK(output_value(gather, "wraps").is_none());
  CHECK(output(gather, "link_bandwidth") == 4.5e11);
  CHECK(output(gather, "t_latency") == 0);
  CHECK(output(gather, "efficiency") == Approx(1));
  in["op"] = Value::of("all-reduce");
  CHECK(output(collective(in), "time") == Approx(2 * output(gather, "time")));
  // gpus-pq2: a dense AllToAll, V (N-1) / (W N^2).
  in["op"] = Value::of("all-to-all");
  CHECK(output(collective(in), "time") == Approx(v * 7 / (4.5e11 * 64)));
  // wraparound and bidirectional do not apply; latency is taken when given.
  in["wraparound"] = Value::of("no");
  in["bidirectional"] = Value::of("no");
  in["latency"] = Value::of(1e-5);
  Calculation slow = collective(in);
  CHECK(output(slow, "t_latency") == Approx(1e-5));  // one round of direct sends
  CHECK(text(slow, "bound") == "latency");
}

TEST_CASE("across H100 nodes the slower of the node and network stages sets the time",
          "[collective][gpu]") {
  // gpus-quiz4-q5: 2 nodes: B 7 / (8 450e9) = B / 514e9 inside, B / (2 400e9) = B / 800e9 out.
  const double v = 1e9;
  Inputs in{{"chip", Value::of("h100")}, {"axis_size", Value::of(16.0)}, {"bytes", Value::of(v)}};
  Calculation c = collective(in);
  CHECK(v / output(c, "t_bandwidth") == Approx(5.14e11).epsilon(0.01));
  CHECK(output(c, "peak_bandwidth") == Approx(4.5e11 + 4e11 / 8));
  in["axis_size"] = Value::of(64.0);  // 8 nodes: B 7 / (8 400e9) is now the slower stage
  CHECK(output(collective(in), "t_bandwidth") == Approx(v * 7 / (8 * 4e11)));
  // AllToAll across M = 2 nodes: V (M-1) / (M^2 W_node) leaves each node.
  in["axis_size"] = Value::of(16.0);
  in["op"] = Value::of("all-to-all");
  CHECK(output(collective(in), "t_bandwidth") == Approx(v / (4 * 4e11)));
  in["axes"] = Value::of("2x8");
  CHECK(output(collective(in), "chips") == 16);
  // h200 has no node egress in the catalog, but a reader may give one.
  Inputs h200{{"chip", Value::of("h200")},
              {"axis_size", Value::of(16.0)},
              {"node_egress_bandwidth", Value::of(4e11)}};
  CHECK(output(collective(h200), "time") > 0);
}

TEST_CASE("every step names its output, after the outputs it depends on", "[collective]") {
  for (Inputs in :
       std::vector<Inputs>{{},
                           {{"axes", Value::of("4x4x8")}, {"chip", Value::of("tpu-v5p")}},
                           {{"axes", Value::of("8x16")}, {"op", Value::of("all-to-all")}},
                           {{"chip", Value::of("h100")}, {"axis_size", Value::of(8.0)}},
                           {{"chip", Value::of("h100")},
                            {"axis_size", Value::of(32.0)},
                            {"op", Value::of("all-reduce")}},
                           {{"axis_size", Value::of(1.0)}}}) {
    Calculation c = collective(in);
    std::vector<std::string> seen;
    for (const Step& s : c.steps) {
      INFO(s.label);
      CHECK_FALSE(s.output.empty());
      for (const std::string& d : s.depends) {
        INFO(s.output << " depends on " << d);
        CHECK(std::find(seen.begin(), seen.end(), d) != seen.end());
      }
      seen.push_back(s.output);
    }
    for (const auto& [name, value] : c.outputs) {
      INFO(name);
      CHECK(value.is_none() != (std::find(seen.begin(), seen.end(), name) != seen.end()));
    }
  }
}

TEST_CASE("bad collective inputs get exact messages", "[collective][errors]") {
  check_error(collective_error({{"bytes", Value::of(0.0)}}), ErrorCode::out_of_range, "bytes",
              "bytes must be > 0, got 0");
  check_error(collective_error({{"bytes", Value::of(std::nan(""))}}), ErrorCode::invalid_argument,
              "bytes", "bytes must be a finite number, got nan");
  check_error(collective_error({{"bytes", Value::of(2e18)}}), ErrorCode::out_of_range, "bytes",
              "bytes must be <= 1e18, got 2e18");
  check_error(collective_error({{"axis_size", Value::of(2.5)}}), ErrorCode::invalid_argument,
              "axis_size", "axis_size must be a whole number, got 2.5");
  check_error(collective_error({{"axis_size", Value::of(0.0)}}), ErrorCode::out_of_range,
              "axis_size", "axis_size must be >= 1, got 0");
  for (const char* bad : {"4x", "4xx4", "", "x4", "4x0", "4 x 4", "-4", "2.5x4"}) {
    INFO(bad);
    check_error(collective_error({{"axes", Value::of(bad)}}), ErrorCode::invalid_argument, "axes",
                std::string("axes must be sizes joined by x, like 4x4, got \"") + bad + "\"");
  }
  check_error(collective_error({{"axes", Value::of("2x2x2x2")}}), ErrorCode::invalid_argument,
              "axes", "axes has 4 sizes; at most 3 (a torus has 3 axes)");
  check_error(collective_error({{"axes", Value::of("2000000x2")}, {"wraparound", Value::of("no")}}),
              ErrorCode::out_of_range, "axes", "axes sizes must be <= 1e6, got 2e6");
  check_error(collective_error({{"axes", Value::of("32x32")}}), ErrorCode::out_of_range, "axes",
              "axes 32x32 exceeds the tpu-v5e pod of 16x16");
  check_error(collective_error({{"axis_size", Value::of(300.0)}}), ErrorCode::out_of_range,
              "axis_size", "axis_size asks for 300 chips, more than the 256 of a TPU v5e pod");
  check_error(collective_error({{"axes", Value::of("16x16x2")}}), ErrorCode::out_of_range, "axes",
              "axes asks for 512 chips, more than the 256 of a TPU v5e pod");
  check_error(collective_error({{"op", Value::of("broadcast")}}), ErrorCode::invalid_argument, "op",
              "op must be one of all-gather, reduce-scatter, all-reduce, all-to-all, got "
              "\"broadcast\"");
  check_error(collective_error({{"wraparound", Value::of("maybe")}}), ErrorCode::invalid_argument,
              "wraparound", "wraparound must be one of auto, yes, no, got \"maybe\"");
  check_error(collective_error({{"latency", Value::of(-1.0)}}), ErrorCode::out_of_range, "latency",
              "latency must be >= 0, got -1");
}

TEST_CASE("chips the model cannot price are named", "[collective][errors]") {
  check_error(collective_error({{"chip", Value::of("tpu7x")}}), ErrorCode::unsupported,
              "wraparound",
              "tpu7x's catalog states no wraparound rule; give wraparound=yes or wraparound=no");
  check_error(collective_error({{"chip", Value::of("v100")}}), ErrorCode::unsupported, "chip",
              "v100 has neither an ICI torus nor an NVLink domain in the catalog");
  check_error(collective_error({{"chip", Value::of("h100")}, {"axis_size", Value::of(12.0)}}),
              ErrorCode::invalid_argument, "axis_size",
              "axis_size must be at most 8 GPUs (one h100 node) or a multiple of 8, got 12");
  check_error(collective_error({{"chip", Value::of("h100")}, {"axes", Value::of("3x4")}}),
              ErrorCode::invalid_argument, "axes",
              "axes must multiply to at most 8 GPUs (one h100 node) or a multiple of 8, got 3x4 "
              "= 12");
  check_error(
      collective_error({{"chip", Value::of("b200")}, {"cluster", Value::of("dgx-h100-superpod")}}),
      ErrorCode::invalid_argument, "cluster",
      "cluster dgx-h100-superpod is built of h100 GPUs, not b200; give chip=h100");
  check_error(collective_error({{"chip", Value::of("h100")},
                                {"axis_size", Value::of(2048.0)},
                                {"cluster", Value::of("dgx-h100-superpod")}}),
              ErrorCode::out_of_range, "axis_size",
              "the collective spans 2048 GPUs, more than cluster dgx-h100-superpod's 1024");
  check_error(collective_error({{"chip", Value::of("h100")}, {"stride", Value::of(3.0)}}),
              ErrorCode::invalid_argument, "stride",
              "stride must divide a h100 node's 8 GPUs or be a multiple of them, got 3");
  check_error(
      collective_error(
          {{"chip", Value::of("h100")}, {"axis_size", Value::of(6.0)}, {"stride", Value::of(2.0)}}),
      ErrorCode::invalid_argument, "axis_size",
      "with stride 2 a node holds 4 of the group's GPUs, so the group must be at most 4 "
      "or a multiple of it, got 6");
  check_error(collective_error({{"in_network", Value::of("yes")}}), ErrorCode::invalid_argument,
              "in_network",
              "in_network is for GPUs' NVSwitches and InfiniBand switches; tpu-v5e is a TPU");
}
