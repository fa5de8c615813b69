// The closed-form collective model against the book's chapter 3 answers.
#include "scalebook/collectives/collective_cost.h"

#include <catch2/catch.hpp>

using namespace scalebook;

namespace {

const LinkModel kV5e{4.5e10, 1e-6, true};  // the v4p and v5e ICI link, one way
constexpr double kBf16 = 2;

CollectiveCost cost(CollectiveOp op, double bytes, std::vector<Axis> axes, LinkModel link = kV5e) {
  return collective_cost(op, bytes, axes, link);
}

}  // namespace

TEST_CASE("an AllGather on a bidirectional ring takes V / W_bidi whatever its size",
          "[collective_cost]") {
  const double v = 2048 * 8192 * kBf16;  // Pop Quiz 2: bf16[2048, 8192] gathered over Y = 4
  auto ring = cost(CollectiveOp::all_gather, v, {{'Y', 4, true}});
  CHECK(ring.time == Approx(v / 9e10));
  CHECK(ring.time == Approx(3.728e-4).epsilon(1e-3));  // the book's 377 us with 34 MB for V
  CHECK_FALSE(ring.latency_bound);
  CHECK(cost(CollectiveOp::all_gather, v, {{'X', 16, true}}).time == Approx(v / 9e10));
  CHECK(cost(CollectiveOp::reduce_scatter, v, {{'X', 16, true}}).time == Approx(v / 9e10));
}

TEST_CASE("without wraparound the gather walks n - 1 hops one way", "[collective_cost]") {
  const double v = 2048 * 8192 * kBf16;
  auto line = cost(CollectiveOp::all_gather, v, {{'Y', 4, false}});
  CHECK(line.time == Approx(3 * (v / 4) / 4.5e10));  // 559 us; the book says 560 us
  CHECK(line.hops == 3);
}

TEST_CASE("a small AllGather is latency bound", "[collective_cost]") {
  // Pop Quiz 2, part 2: bf16[256, 256] over a 4-long v5e axis without wraparound: 3 us.
  auto small = cost(CollectiveOp::all_gather, 256 * 256 * kBf16, {{'Y', 4, false}});
  CHECK(small.latency_bound);
  CHECK(small.time == Approx(3e-6));
  // Question 3: bf16[128] over a 4-long v4p axis that wraps: 2 hops, 2 us.
  auto tiny = cost(CollectiveOp::all_gather, 128 * kBf16, {{'X', 4, true}});
  CHECK(tiny.time == Approx(2e-6));
  CHECK(tiny.crossover_bytes == Approx(2e-6 * 9e10));
}

TEST_CASE("Question 2 on a v4p 4x4x4: one axis, two axes, and an AllReduce", "[collective_cost]") {
  const double b = 1024, d = 4096;
  auto x = cost(CollectiveOp::all_gather, 2 * b * d / 4, {{'X', 4, true}});
  CHECK(x.time == Approx(2.33e-5).epsilon(2e-3));
  auto xy = cost(CollectiveOp::all_gather, 2 * b * d, {{'X', 4, true}, {'Y', 4, true}});
  CHECK(xy.time == Approx(4.66e-5).epsilon(2e-3));
  CHECK(xy.t_latency == Approx(4e-6));
  auto z = cost(CollectiveOp::all_reduce, 2 * b * d / 16, {{'Z', 4, true}});
  CHECK(z.time == Approx(1.165e-5).epsilon(2e-3));
  CHECK(z.bytes_per_chip == Approx(2 * 0.75 * 2 * b * d / 16));
}

TEST_CASE("an AllToAll on a bidirectional ring costs a quarter of an AllGather",
          "[collective_cost]") {
  const double v = 1 << 24;
  for (std::int64_t n : {4, 8, 16}) {
    auto gather = cost(CollectiveOp::all_gather, v, {{'X', n, true}});
    auto transpose = cost(CollectiveOp::all_to_all, v, {{'X', n, true}});
    CHECK(gather.t_bandwidth / transpose.t_bandwidth == Approx(4));
  }
  // One way round the ring the AllToAll is half the AllGather (Question 10).
  LinkModel one_way = kV5e;
  one_way.bidirectional = false;
  auto gather = cost(CollectiveOp::all_gather, v, {{'X', 8, true}}, one_way);
  auto transpose = cost(CollectiveOp::all_to_all, v, {{'X', 8, true}}, one_way);
  CHECK(transpose.t_bandwidth / gather.t_bandwidth == Approx(0.5));
  // On an A x B torus the largest axis sets the cut: V max(A, B) / (4 N W_bidi).
  auto torus = cost(CollectiveOp::all_to_all, v, {{'X', 4, true}, {'Y', 8, true}});
  CHECK(torus.t_bandwidth == Approx(v * 8 / (4 * 32 * 9e10)));
}

TEST_CASE("a collective over nothing costs nothing", "[collective_cost]") {
  CHECK(cost(CollectiveOp::all_gather, 1e6, {}).time == 0);
  CHECK(cost(CollectiveOp::all_reduce, 1e6, {{'X', 1, true}}).time == 0);
}
