// The step simulation of the collectives against collective_cost's closed forms and against
// what each collective must leave on each device.
#include "scalebook/collectives/collective_sim.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

using i64 = std::int64_t;
constexpr CollectiveOp kOps[] = {CollectiveOp::all_gather, CollectiveOp::reduce_scatter,
                                 CollectiveOp::all_reduce, CollectiveOp::all_to_all};
constexpr double kW = 4.5e10;

double dbl(i64 x) { return static_cast<double>(x); }

CollectiveSimRequest request(CollectiveOp op, std::vector<i64> shape, double bytes, bool wraps,
                             bool both, double latency) {
  CollectiveSimRequest q;
  q.op = op;
  q.shape = std::move(shape);
  q.bytes = bytes;
  q.wraparound = wraps;
  q.bidirectional = both;
  q.bandwidth = kW;
  q.latency = latency;
  return q;
}

CollectiveSimResult simulate(const CollectiveSimRequest& q) {
  Result<CollectiveSimResult> r = simulate_collective(q);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

Error sim_error(const CollectiveSimRequest& q) {
  Result<CollectiveSimResult> r = simulate_collective(q);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

double held(const CollectiveSimResult& r, std::size_t state, i64 device, i64 chunk) {
  return r.states[state][static_cast<std::size_t>(device * r.chunks + chunk)];
}

// What the collective must leave: every chunk everywhere (AllGather, AllReduce), chunk d
// whole on device d (ReduceScatter), block s -> d on device d and nowhere else (AllToAll).
void check_final(const CollectiveSimResult& r) {
  const std::size_t last = r.states.size() - 1;
  for (i64 d = 0; d < r.devices; ++d) {
    for (i64 c = 0; c < r.chunks; ++c) {
      double h = held(r, last, d, c);
      if (r.op == CollectiveOp::all_to_all) {
        REQUIRE(h == (c % r.devices == d ? 1 : 0));
      } else if (r.op == CollectiveOp::reduce_scatter) {
        if (c == d) REQUIRE(h == 1);
      } else {
        REQUIRE(h == 1);
      }
    }
  }
}

double phase_cost(CollectiveOp op, double bytes, i64 n, const CollectiveSimRequest& q) {
  return collective_cost(op, bytes, {{'X', n, q.wraparound}},
                         {q.bandwidth, q.latency, q.bidirectional})
      .time;
}

}  // namespace

TEST_CASE(
    "on one axis AllGather, ReduceScatter and AllReduce take the closed form's time in "
    "both regimes",
    "[collective_sim]") {
  for (CollectiveOp op :
       {CollectiveOp::all_gather, CollectiveOp::reduce_scatter, CollectiveOp::all_reduce}) {
    for (i64 n = 1; n <= 64; ++n) {
      for (int way = 0; way < 3; ++way) {  // ring both ways, ring one way, line
        for (auto [bytes, latency] : {std::pair{1e9, 1e-6}, std::pair{1e3, 1e-6}}) {
          auto q = request(op, {n}, bytes, way < 2, way == 0, latency);
          CollectiveSimResult r = simulate(q);
          INFO(to_string(op) << " n=" << n << " way=" << way << " bytes=" << bytes);
          CHECK(r.time == Approx(r.closed_form).epsilon(1e-12));
          CHECK(r.states.size() == r.steps.size() + 1);
          check_final(r);
        }
      }
    }
  }
}

TEST_CASE("an AllToAll on one axis takes the closed form's time when its steps share a regime",
          "[collective_sim]") {
  for (i64 n = 1; n <= 40; ++n) {
    for (int way = 0; way < 3; ++way) {
      INFO("n=" << n << " way=" << way);
      // No latency: every step is bandwidth bound.
      CollectiveSimResult fast =
          simulate(request(CollectiveOp::all_to_all, {n}, 1e9, way < 2, way == 0, 0));
      CHECK(fast.time == Approx(fast.closed_form).epsilon(1e-12));
      check_final(fast);
      // A long latency and a small array: every step is latency bound.
      CollectiveSimResult slow =
          simulate(request(CollectiveOp::all_to_all, {n}, 1e3, way < 2, way == 0, 1e-3));
      CHECK(slow.time == Approx(slow.closed_form).epsilon(1e-12));
      check_final(slow);
      // In between, the late light steps wait out the latency: never faster than the model.
      CollectiveSimResult mixed =
          simulate(request(CollectiveOp::all_to_all, {n}, 4e5, way < 2, way == 0, 1e-6));
      CHECK(mixed.time >= mixed.closed_form * (1 - 1e-12));
    }
  }
}

TEST_CASE("on a line the AllToAll loads every step alike, so it matches in any regime",
          "[collective_sim]") {
  for (i64 n : {3, 4, 7, 16, 33}) {
    CollectiveSimResult r =
        simulate(request(CollectiveOp::all_to_all, {n}, 4e5, false, true, 1e-6));
    INFO("n=" << n);
    CHECK(r.time == Approx(r.closed_form).epsilon(1e-12));
    for (const CollectiveSimStep& s : r.steps) CHECK(s.duration == Approx(r.steps[0].duration));
  }
}

TEST_CASE("the book's ring AllToAll moves N^2/4 blocks each way round a bidirectional ring",
          "[collective_sim]") {
  // Question 10: D^2 / 8 blocks on each link one way, versus D^2 / 2 one way round.
  for (i64 n : {4, 8, 16}) {
    for (bool both : {true, false}) {
      CollectiveSimResult r =
          simulate(request(CollectiveOp::all_to_all, {n}, dbl(n * n), true, both, 0));
      double link = 0;  // bytes over 0 -> 1, where one block is one byte
      for (const CollectiveSimStep& s : r.steps)
        for (const CollectiveMove& m : s.moves)
          if (m.from == 0 && m.to == 1) link += m.bytes;
      double blocks = both ? dbl(n * n) / 8 : dbl(n * (n - 1)) / 2;
      CHECK(link == Approx(blocks));
    }
  }
}

TEST_CASE("a 2D torus runs X then Y: each phase takes its one-axis closed form",
          "[collective_sim]") {
  for (auto shape : {std::vector<i64>{4, 4}, {2, 8}, {8, 3}, {5, 5}, {1, 6}, {16, 16}}) {
    const i64 nx = shape[0], ny = shape[1];
    const double N = static_cast<double>(nx * ny), v = 1e9;
    for (int way = 0; way < 3; ++way) {
      for (CollectiveOp op : kOps) {
        if (op == CollectiveOp::all_to_all && nx * ny > 64) continue;
        auto q = request(op, shape, v, way < 2, way == 0, 1e-6);
        CollectiveSimResult r = simulate(q);
        INFO(to_string(op) << " " << nx << "x" << ny << " way=" << way);
        double want = 0;
        // AllGather: X gathers one Y-row's share, then Y the whole array.
        double gather = phase_cost(CollectiveOp::all_gather, v / dbl(ny), nx, q) +
                        phase_cost(CollectiveOp::all_gather, v, ny, q);
        double reduce = phase_cost(CollectiveOp::reduce_scatter, v, nx, q) +
                        phase_cost(CollectiveOp::reduce_scatter, v / dbl(nx), ny, q);
        if (op == CollectiveOp::all_gather) want = gather;
        if (op == CollectiveOp::reduce_scatter) want = reduce;
        if (op == CollectiveOp::all_reduce) want = gather + reduce;
        if (op == CollectiveOp::all_to_all) {
          want = phase_cost(op, v / dbl(ny), nx, q) + phase_cost(op, v / dbl(nx), ny, q);
        }
        CHECK(r.time == Approx(want).epsilon(1e-12));
        CHECK(r.time >= r.closed_form * (1 - 1e-12));  // the model runs both axes at once
        CHECK(r.devices == static_cast<i64>(N));
        check_final(r);
      }
    }
  }
}

TEST_CASE("in the latency regime a 2D torus counts the closed form's hops", "[collective_sim]") {
  for (CollectiveOp op : kOps) {
    for (bool wraps : {true, false}) {
      CollectiveSimResult r = simulate(request(op, {4, 8}, 1e3, wraps, true, 1e-3));
      INFO(to_string(op) << " wraps=" << wraps);
      CHECK(r.time == Approx(r.closed_form).epsilon(1e-12));
    }
  }
}

TEST_CASE("phases run X first, then Y; an AllReduce reduces, then gathers", "[collective_sim]") {
  CollectiveSimResult r = simulate(request(CollectiveOp::all_reduce, {4, 2}, 8e6, true, true, 0));
  std::vector<std::pair<CollectiveOp, int>> phases;
  for (const CollectiveSimStep& s : r.steps)
    if (phases.empty() || phases.back() != std::pair{s.phase, s.axis})
      phases.push_back({s.phase, s.axis});
  CHECK(phases == std::vector<std::pair<CollectiveOp, int>>{{CollectiveOp::reduce_scatter, 0},
                                                            {CollectiveOp::reduce_scatter, 1},
                                                            {CollectiveOp::all_gather, 0},
                                                            {CollectiveOp::all_gather, 1}});
  // Steps follow each other and every move goes to a torus neighbour.
  double clock = 0;
  for (const CollectiveSimStep& s : r.steps) {
    CHECK(s.start == Approx(clock));
    clock += s.duration;
    for (const CollectiveMove& m : s.moves) {
      i64 dx = (m.from / 2 - m.to / 2 + 4) % 4, dy = (m.from % 2 - m.to % 2 + 2) % 2;
      bool along = s.axis == 0 ? (dy == 0 && (dx == 1 || dx == 3)) : (dx == 0 && dy == 1);
      CHECK(along);
      CHECK(m.bytes == Approx(1e6));  // one chunk of V / 8
    }
  }
}

TEST_CASE("a ReduceScatter on a ring of 4 sums every device's share into its owner",
          "[collective_sim]") {
  auto q = request(CollectiveOp::reduce_scatter, {4}, 4e6, true, true, 0);
  q.values = {1, 10, 100, 1000};
  CollectiveSimResult r = simulate(q);
  REQUIRE(r.steps.size() == 2);
  REQUIRE(r.sums.size() == 3);
  const std::size_t last = 2;
  for (i64 d = 0; d < 4; ++d) {
    CHECK(r.sums[last][static_cast<std::size_t>(d * 4 + d)] == 1111);
    CHECK(held(r, 0, d, (d + 1) % 4) == 0.25);  // each starts with its own contribution
  }
  // The AllGather backwards: first the far device's partial comes one hop closer (4 moves),
  // then every device hands its neighbours their partials, both ways (8 moves).
  CHECK(r.steps[0].moves.size() == 4);
  CHECK(r.steps[1].moves.size() == 8);
  // Per device and chunk: device d gives d * 10 + c to chunk c.
  q.values.clear();
  for (i64 d = 0; d < 4; ++d)
    for (i64 c = 0; c < 4; ++c) q.values.push_back(static_cast<double>(d * 10 + c));
  q.op = CollectiveOp::all_reduce;
  CollectiveSimResult ar = simulate(q);
  for (i64 d = 0; d < 4; ++d)
    for (i64 c = 0; c < 4; ++c)
      CHECK(ar.sums.back()[static_cast<std::size_t>(d * 4 + c)] == dbl(60 + 4 * c));
}

TEST_CASE("an AllGather's and an AllToAll's values travel with their chunks", "[collective_sim]") {
  auto q = request(CollectiveOp::all_gather, {3}, 3e6, false, true, 0);
  q.values = {7, 8, 9};
  CollectiveSimResult r = simulate(q);
  CHECK(r.sums[0] == std::vector<double>{7, 0, 0, 0, 8, 0, 0, 0, 9});
  CHECK(r.sums.back() == std::vector<double>{7, 8, 9, 7, 8, 9, 7, 8, 9});
  q.op = CollectiveOp::all_to_all;
  q.values = {0, 1, 2, 10, 11, 12, 20, 21, 22};
  CollectiveSimResult t = simulate(q);
  REQUIRE(t.chunks == 9);
  for (i64 d = 0; d < 3; ++d)
    for (i64 b = 0; b < 9; ++b)
      CHECK(t.sums.back()[static_cast<std::size_t>(d * 9 + b)] ==
            dbl(b % 3 == d ? 10 * (b / 3) + d : 0));
}

TEST_CASE("bad simulation requests get exact messages", "[collective_sim][errors]") {
  auto q = request(CollectiveOp::all_gather, {8}, 1e6, true, true, 1e-6);
  auto with = [&](auto change) {
    CollectiveSimRequest bad = q;
    change(bad);
    return sim_error(bad);
  };
  check_error(with([](auto& b) { b.shape = {}; }), ErrorCode::invalid_argument, "shape",
              "shape must have one axis (a ring or a line) or two (a 2D torus), got 0");
  check_error(with([](auto& b) {
                b.shape = {2, 2, 2};
              }),
              ErrorCode::invalid_argument, "shape",
              "shape must have one axis (a ring or a line) or two (a 2D torus), got 3");
  check_error(with([](auto& b) { b.shape = {65}; }), ErrorCode::out_of_range, "shape",
              "shape sizes must be <= 64, got 65");
  check_error(with([](auto& b) { b.shape = {0}; }), ErrorCode::out_of_range, "shape",
              "shape sizes must be >= 1, got 0");
  check_error(with([](auto& b) {
                b.shape = {32, 16};
              }),
              ErrorCode::out_of_range, "shape",
              "shape 32x16 has 512 devices; the simulation takes at most 256");
  check_error(with([](auto& b) {
                b.shape = {64};
                b.op = CollectiveOp::all_to_all;
              }),
              ErrorCode::out_of_range, "shape",
              "an all-to-all over 64 records 8.65075e6 state values (devices x chunks x states); "
              "the simulation takes at most 4.1943e6: use fewer devices");
  check_error(with([](auto& b) { b.bytes = 0; }), ErrorCode::out_of_range, "bytes",
              "bytes must be > 0, got 0");
  check_error(with([](auto& b) { b.bytes = std::nan(""); }), ErrorCode::invalid_argument, "bytes",
              "bytes must be a finite number, got nan");
  check_error(with([](auto& b) { b.bandwidth = -1; }), ErrorCode::out_of_range, "bandwidth",
              "bandwidth must be > 0, got -1");
  check_error(with([](auto& b) { b.latency = INFINITY; }), ErrorCode::invalid_argument, "latency",
              "latency must be a finite number, got inf");
  check_error(with([](auto& b) {
                b.values = {1, 2, 3};
              }),
              ErrorCode::invalid_argument, "values",
              "values must have 8 numbers (one per device) or 64 (one per device and destination "
              "device), got 3");
  check_error(with([](auto& b) { b.values = {1, 2, 3, 4, 5, 6, 7, 2.5}; }),
              ErrorCode::invalid_argument, "values",
              "values must be whole numbers from -1e6 to 1e6, got 2.5 at index 7");
}

TEST_CASE("requests from named fields: defaults, form text and exact messages",
          "[collective_sim][errors]") {
  Result<CollectiveSimRequest> plain = collective_sim_request({}, {});
  REQUIRE(plain.ok());
  CHECK(plain.value().shape == std::vector<i64>{8});
  CHECK(plain.value().bandwidth == 4.5e10);  // the tpu-v5e link
  Result<CollectiveSimRequest> text = collective_sim_request({{"op", Value::of("all-to-all")},
                                                              {"shape", Value::of(" 4x2 ")},
                                                              {"bytes", Value::of("1e6")},
                                                              {"wraparound", Value::of("no")},
                                                              {"bidirectional", Value::of("no")}},
                                                             {});
  REQUIRE(text.ok());
  CHECK(text.value().op == CollectiveOp::all_to_all);
  CHECK(text.value().shape == std::vector<i64>{4, 2});
  CHECK(text.value().bytes == 1e6);
  CHECK_FALSE(text.value().wraparound);
  CHECK_FALSE(text.value().bidirectional);
  auto error = [](Inputs in) {
    Result<CollectiveSimRequest> r = collective_sim_request(in, {});
    REQUIRE_FALSE(r.ok());
    return r.error();
  };
  check_error(error({{"op", Value::of("gather")}}), ErrorCode::invalid_argument, "op",
              "op must be one of all-gather, reduce-scatter, all-reduce, all-to-all, got "
              "\"gather\"");
  check_error(error({{"shape", Value::of("4xx4")}}), ErrorCode::invalid_argument, "shape",
              "shape must be sizes joined by x, like 8 or 4x4, got \"4xx4\"");
  check_error(error({{"wraparound", Value::of("auto")}}), ErrorCode::invalid_argument, "wraparound",
              "wraparound must be one of yes, no, got \"auto\"");
  check_error(error({{"bytes", Value::of("lots")}}), ErrorCode::invalid_argument, "bytes",
              "bytes must be a number, got \"lots\"");
  check_error(error({{"chips", Value::of(8.0)}}), ErrorCode::invalid_argument, "chips",
              "simulateCollective has no field \"chips\"; its fields are op, shape, bytes, "
              "wraparound, bidirectional, bandwidth, latency, values");
}
