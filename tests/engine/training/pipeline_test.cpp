// The pipeline simulator (pipeline.h) against its closed forms, over many p, m, v and costs:
// bubbles, activations, transfers, dependencies, frames and the work budget.
#include "scalebook/training/pipeline.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

PipelineRequest request(std::int64_t p, std::int64_t m, PipelineSchedule schedule,
                        std::int64_t v = 1) {
  PipelineRequest q;
  q.stages = p, q.microbatches = m, q.schedule = schedule, q.virtual_stages = v;
  return q;
}

PipelineResult simulated(const PipelineRequest& q) {
  Result<PipelineResult> r = simulate_pipeline(q);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

// Costs tried with every schedule: (F, I, W); the first is the book's F : B = 1 : 2.
const std::vector<std::tuple<double, double, double>> kCosts = {
    {1, 1, 1}, {1, 2, 0}, {2, 1, 1}, {1, 3, 2}, {0.5, 0.75, 0.25}, {3, 1, 1}, {1, 1, 2}};

// Every dependency of pipeline.h holds, each item runs once, and no device runs two at once.
void check_schedule(const PipelineRequest& q, const PipelineResult& r) {
  const std::int64_t p = q.stages, m = q.microbatches;
  const std::int64_t v = q.schedule == PipelineSchedule::interleaved ? q.virtual_stages : 1;
  const bool split = q.schedule == PipelineSchedule::zero_bubble;
  std::map<std::tuple<std::int64_t, std::int64_t, WorkKind>, const PipelineItem*> at;
  std::vector<double> free(static_cast<std::size_t>(p), 0);
  int previous_stage = 0;
  for (const PipelineItem& item : r.items) {
    REQUIRE(item.stage >= previous_stage);  // grouped by stage
    previous_stage = item.stage;
    double& device_free = free[static_cast<std::size_t>(item.stage)];
    CHECK(item.start >= device_free);
    CHECK(item.end >= item.start);
    device_free = item.end;
    std::int64_t c = item.chunk * p + item.stage;
    CHECK(at.emplace(std::tuple{c, std::int64_t{item.microbatch}, item.kind}, &item).second);
  }
  CHECK(r.items.size() == static_cast<std::size_t>(p * m * v * (split ? 3 : 2)));
  const WorkKind back = split ? WorkKind::backward_input : WorkKind::backward;
  auto end = [&](std::int64_t c, std::int64_t i, WorkKind k) { return at.at({c, i, k})->end; };
  // A transfer between devices only (one device holds every chunk when p = 1).
  double t = p == 1 ? 0 : q.transfer_time;
  if (q.schedule == PipelineSchedule::naive) t *= static_cast<double>(m);
  for (std::int64_t c = 0; c < p * v; ++c) {
    for (std::int64_t i = 0; i < m; ++i) {
      const PipelineItem& f = *at.at({c, i, WorkKind::forward});
      const PipelineItem& b = *at.at({c, i, back});
      if (c > 0) CHECK(f.start >= end(c - 1, i, WorkKind::forward) + t);
      CHECK(b.start >= f.end);
      if (c + 1 < p * v) CHECK(b.start >= end(c + 1, i, back) + t);
      if (split) CHECK(at.at({c, i, WorkKind::backward_weight})->start >= b.end);
    }
  }
}

}  // namespace

TEST_CASE("a 2-stage 1f1b pipeline of 2 microbatches, item by item", "[pipeline]") {
  PipelineResult r = simulated(request(2, 2, PipelineSchedule::one_f_one_b));
  // Stage 0 warms up with one forward; stage 1 alternates. B costs I + W = 2.
  std::vector<std::tuple<int, int, WorkKind, double, double>> want = {
      {0, 0, WorkKind::forward, 0, 1},  {0, 1, WorkKind::forward, 1, 2},
      {0, 0, WorkKind::backward, 4, 6}, {0, 1, WorkKind::backward, 7, 9},
      {1, 0, WorkKind::forward, 1, 2},  {1, 0, WorkKind::backward, 2, 4},
      {1, 1, WorkKind::forward, 4, 5},  {1, 1, WorkKind::backward, 5, 7}};
  REQUIRE(r.items.size() == want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    auto [stage, microbatch, kind, start, end] = want[k];
    INFO(k);
    CHECK(r.items[k].stage == stage);
    CHECK(r.items[k].microbatch == microbatch);
    CHECK(r.items[k].kind == kind);
    CHECK(r.items[k].start == start);
    CHECK(r.items[k].end == end);
  }
  CHECK(r.step_time == 9);  // (m + p - 1)(F + B) = 3 * 3
  CHECK(r.ideal_time == 6);
  CHECK(r.bubble_fraction == Approx(1.0 / 3).epsilon(1e-12));
  CHECK(r.stages[0].busy == 6);
  CHECK(r.stages[1].idle == 3);
  CHECK(r.stages[0].peak_activations == 2);
  CHECK(r.stages[1].peak_activations == 1);
}

TEST_CASE("gpipe and 1f1b pipeline bubbles are (p - 1) / (m + p - 1) for any costs", "[pipeline]") {
  auto schedule = GENERATE(PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b);
  auto [f, b, w] = GENERATE(from_range(kCosts));
  for (std::int64_t p = 1; p <= 12; ++p) {
    for (std::int64_t m = 1; m <= 32; ++m) {
      PipelineRequest q = request(p, m, schedule);
      q.forward_cost = f, q.backward_input_cost = b, q.backward_weight_cost = w;
      PipelineResult r = simulated(q);
      INFO(to_string(schedule) << " p=" << p << " m=" << m << " costs " << f << " " << b << " "
                               << w);
      CHECK(r.step_time == Approx(static_cast<double>(m + p - 1) * (f + b + w)).epsilon(1e-12));
      CHECK(r.bubble_fraction == Approx(pipeline_closed_form(q).bubble_fraction).epsilon(1e-12));
      CHECK(r.bubble_fraction ==
            Approx(static_cast<double>(p - 1) / static_cast<double>(m + p - 1)).epsilon(1e-12));
    }
  }
}

TEST_CASE("1f1b holds min(p, m) microbatches on pipeline stage 0, gpipe all m", "[pipeline]") {
  for (std::int64_t p = 1; p <= 12; ++p) {
    for (std::int64_t m = 1; m <= 32; ++m) {
      INFO("p=" << p << " m=" << m);
      PipelineResult a = simulated(request(p, m, PipelineSchedule::one_f_one_b));
      PipelineResult g = simulated(request(p, m, PipelineSchedule::gpipe));
      CHECK(a.stages[0].peak_activations == static_cast<double>(std::min(p, m)));
      CHECK(a.peak_activations == a.stages[0].peak_activations);
      for (std::size_t s = 0; s < a.stages.size(); ++s) {
        CHECK(a.stages[s].peak_activations ==
              static_cast<double>(std::min(p - static_cast<std::int64_t>(s), m)));
      }
      CHECK(g.peak_activations == static_cast<double>(m));
      CHECK(g.stages[0].peak_activations == static_cast<double>(m));
    }
  }
}

TEST_CASE("the interleaved pipeline bubble is (p - 1) / (v m + p - 1)", "[pipeline]") {
  auto [f, b, w] = GENERATE(from_range(kCosts));
  for (std::int64_t p = 1; p <= 8; ++p) {
    for (std::int64_t m = p; m <= 4 * p; m += p) {
      for (std::int64_t v = 1; v <= 4; ++v) {
        PipelineRequest q = request(p, m, PipelineSchedule::interleaved, v);
        q.forward_cost = f, q.backward_input_cost = b, q.backward_weight_cost = w;
        PipelineResult r = simulated(q);
        INFO("p=" << p << " m=" << m << " v=" << v << " costs " << f << " " << b << " " << w);
        double pv = static_cast<double>(p - 1), vm = static_cast<double>(v * m);
        CHECK(r.bubble_fraction == Approx(pv / (vm + pv)).margin(1e-12));
        // Bubble time (p - 1)(F + I + W) / v per device (Narayanan et al. 2021).
        CHECK(r.step_time - r.ideal_time ==
              Approx(pv * (f + b + w) / static_cast<double>(v)).margin(1e-9));
        PipelineClosedForm c = pipeline_closed_form(q);
        CHECK(r.bubble_fraction == Approx(c.bubble_fraction).margin(1e-12));
        CHECK(r.peak_activations == Approx(c.peak_activations).epsilon(1e-12));
        CHECK(r.stages[0].peak_activations == r.peak_activations);
      }
    }
  }
}

TEST_CASE("zero-bubble pipelines: ZB-H1's bubble, a third of 1f1b's with unit costs",
          "[pipeline]") {
  for (std::int64_t p = 1; p <= 12; ++p) {
    for (std::int64_t m = 1; m <= 32; ++m) {
      INFO("p=" << p << " m=" << m);
      PipelineResult z = simulated(request(p, m, PipelineSchedule::zero_bubble));
      PipelineResult a = simulated(request(p, m, PipelineSchedule::one_f_one_b));
      CHECK(z.step_time <= a.step_time);
      CHECK(z.peak_activations == a.peak_activations);
      if (m < p) continue;
      double bubble = static_cast<double>(p - 1);  // (p - 1)(F + I - W)
      CHECK(z.step_time - z.ideal_time == bubble);
      CHECK(a.step_time - a.ideal_time == 3 * bubble);
      CHECK(z.bubble_fraction == Approx(bubble / (3.0 * static_cast<double>(m) + bubble)));
    }
  }
}

TEST_CASE("zero-bubble pipelines match ZB-H1 when W <= F and W <= I, and never trail 1f1b",
          "[pipeline]") {
  auto [f, b, w] = GENERATE(from_range(kCosts));
  auto t = GENERATE(0.0, 0.5, 2.0);
  for (std::int64_t p = 1; p <= 10; ++p) {
    for (std::int64_t m = 1; m <= 24; ++m) {
      PipelineRequest q = request(p, m, PipelineSchedule::zero_bubble);
      q.forward_cost = f, q.backward_input_cost = b, q.backward_weight_cost = w;
      q.transfer_time = t;
      INFO("p=" << p << " m=" << m << " costs " << f << " " << b << " " << w << " t=" << t);
      PipelineResult z = simulated(q);
      q.schedule = PipelineSchedule::one_f_one_b;
      CHECK(z.step_time <= simulated(q).step_time + 1e-9);
      q.schedule = PipelineSchedule::zero_bubble;
      double closed = pipeline_closed_form(q).bubble_fraction;
      CHECK(std::isnan(closed) == (w > f || w > b || m < p));
      if (t == 0 && !std::isnan(closed)) CHECK(z.bubble_fraction == Approx(closed).margin(1e-12));
    }
  }
}

TEST_CASE("a naive pipeline runs one device at a time: bubble (p - 1) / p", "[pipeline]") {
  for (std::int64_t p = 1; p <= 12; ++p) {
    for (std::int64_t m = 1; m <= 16; ++m) {
      PipelineResult r = simulated(request(p, m, PipelineSchedule::naive));
      INFO("p=" << p << " m=" << m);
      CHECK(r.step_time == static_cast<double>(3 * p * m));
      CHECK(r.bubble_fraction == Approx(static_cast<double>(p - 1) / static_cast<double>(p)));
      CHECK(r.peak_activations == static_cast<double>(m));
    }
  }
}

TEST_CASE("transfer time adds 2 (p - 1) hops to a gpipe pipeline step, naive m times that",
          "[pipeline]") {
  for (double t : {0.25, 1.0, 3.0}) {
    for (std::int64_t p = 1; p <= 8; ++p) {
      for (std::int64_t m = 1; m <= 12; ++m) {
        INFO("p=" << p << " m=" << m << " t=" << t);
        PipelineRequest q = request(p, m, PipelineSchedule::gpipe);
        q.transfer_time = t;
        double hops = 2 * static_cast<double>(p - 1) * t;
        CHECK(simulated(q).step_time == Approx(3.0 * static_cast<double>(m + p - 1) + hops));
        q.schedule = PipelineSchedule::naive;
        CHECK(simulated(q).step_time ==
              Approx(3.0 * static_cast<double>(p * m) + static_cast<double>(m) * hops));
        // 1f1b waits a round trip in its steady state: never faster than gpipe.
        q.schedule = PipelineSchedule::one_f_one_b;
        PipelineResult a = simulated(q);
        CHECK(a.step_time >= Approx(3.0 * static_cast<double>(m + p - 1) + hops));
      }
    }
  }
}

TEST_CASE("every pipeline schedule keeps its dependencies, each item once, one at a time",
          "[pipeline]") {
  auto schedule =
      GENERATE(PipelineSchedule::naive, PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b,
               PipelineSchedule::interleaved, PipelineSchedule::zero_bubble);
  auto t = GENERATE(0.0, 0.5);
  for (std::int64_t p = 1; p <= 6; ++p) {
    for (std::int64_t m = 1; m <= 13; ++m) {
      for (std::int64_t v = 1; v <= (schedule == PipelineSchedule::interleaved ? 3 : 1); ++v) {
        if (schedule == PipelineSchedule::interleaved && m % p != 0) continue;
        PipelineRequest q = request(p, m, schedule, v);
        q.transfer_time = t, q.backward_input_cost = 2, q.backward_weight_cost = 0.5;
        INFO(to_string(schedule) << " p=" << p << " m=" << m << " v=" << v << " t=" << t);
        check_schedule(q, simulated(q));
      }
    }
  }
}

TEST_CASE("pipeline frames show what each stage runs between events", "[pipeline]") {
  PipelineRequest q = request(2, 2, PipelineSchedule::one_f_one_b);
  q.max_frames = 100;
  PipelineResult r = simulated(q);
  // Events at 0, 1, 2, 4, 5, 6, 7, 9 (the item-by-item case above).
  REQUIRE(r.frame_count == 7);
  REQUIRE(r.frames.size() == 7);
  CHECK_FALSE(r.frames_truncated);
  std::vector<double> times, durations;
  for (const PipelineFrame& f : r.frames) times.push_back(f.time), durations.push_back(f.duration);
  CHECK(times == std::vector<double>{0, 1, 2, 4, 5, 6, 7});
  CHECK(durations == std::vector<double>{1, 1, 2, 1, 1, 1, 2});
  // Items 0-3 are stage 0's, 4-7 stage 1's; -1 is idle.
  CHECK(r.frames[0].running == std::vector<std::int32_t>{0, -1});
  CHECK(r.frames[1].running == std::vector<std::int32_t>{1, 4});
  CHECK(r.frames[2].running == std::vector<std::int32_t>{-1, 5});
  CHECK(r.frames[3].running == std::vector<std::int32_t>{2, 6});
  CHECK(r.frames[6].running == std::vector<std::int32_t>{3, -1});
  CHECK(r.frames[2].activations == std::vector<double>{2, 1});
  CHECK(r.frames[4].activations == std::vector<double>{2, 1});
  CHECK(r.frames[6].activations == std::vector<double>{1, 0});
}

TEST_CASE("pipeline frames are a window, capped to protect memory", "[pipeline]") {
  PipelineRequest q = request(2, 2, PipelineSchedule::one_f_one_b);
  q.first_frame = 3, q.max_frames = 2;
  PipelineResult r = simulated(q);
  CHECK(r.frame_count == 7);
  REQUIRE(r.frames.size() == 2);
  CHECK(r.frames[0].time == 4);
  CHECK(r.frames[1].running == std::vector<std::int32_t>{2, 7});
  q.first_frame = 7;
  CHECK(simulated(q).frames.empty());
  q.first_frame = 0, q.max_frames = 0;
  CHECK(simulated(q).frames.empty());
  CHECK(simulated(q).frame_count == 0);  // counted only when frames are asked for
  // 1024 stages: at most kMaxPipelineFrameCells / 1024 = 1024 frames.
  q = request(1024, 64, PipelineSchedule::gpipe);
  q.max_frames = 5000;
  r = simulated(q);
  CHECK(r.frames.size() == 1024);
  CHECK(r.frames_truncated);
  CHECK(r.frame_count > 1024);
}

TEST_CASE("the pipeline simulator refuses bad requests, naming the field", "[pipeline][errors]") {
  PipelineRequest q = request(0, 8, PipelineSchedule::gpipe);
  check_error(simulate_pipeline(q).error(), ErrorCode::out_of_range, "stages",
              "stages must be >= 1, got 0");
  q = request(4, 2000000, PipelineSchedule::gpipe);
  check_error(simulate_pipeline(q).error(), ErrorCode::out_of_range, "microbatches",
              "microbatches must be <= 1e6, got 2e6");
  q = request(4, 8, PipelineSchedule::interleaved, 65);
  check_error(simulate_pipeline(q).error(), ErrorCode::out_of_range, "virtual_stages",
              "virtual_stages must be <= 64, got 65");
  q = request(4, 8, PipelineSchedule::gpipe);
  q.forward_cost = 0;
  check_error(simulate_pipeline(q).error(), ErrorCode::out_of_range, "forward_cost",
              "forward_cost must be > 0, got 0");
  q.forward_cost = std::nan("");
  check_error(simulate_pipeline(q).error(), ErrorCode::invalid_argument, "forward_cost",
              "forward_cost must be a finite number, got nan");
  q.forward_cost = 1, q.backward_weight_cost = -1;
  check_error(simulate_pipeline(q).error(), ErrorCode::out_of_range, "backward_weight_cost",
              "backward_weight_cost must be >= 0, got -1");
  q.backward_weight_cost = 0, q.transfer_time = 2e9;
  check_error(simulate_pipeline(q).error(), ErrorCode::out_of_range, "transfer_time",
              "transfer_time must be <= 1e9, got 2e9");
  q.transfer_time = 0, q.max_frames = -1;
  check_error(simulate_pipeline(q).error(), ErrorCode::out_of_range, "max_frames",
              "max_frames must be >= 0, got -1");
  q = request(4, 6, PipelineSchedule::interleaved, 2);
  check_error(simulate_pipeline(q).error(), ErrorCode::invalid_argument, "microbatches",
              "microbatches must be a multiple of stages (4) for the interleaved schedule, got 6");
}

TEST_CASE("the pipeline simulator refuses more work items than its budget before simulating",
          "[pipeline][errors]") {
  PipelineRequest q = request(1024, 1024, PipelineSchedule::one_f_one_b);
  check_error(simulate_pipeline(q).error(), ErrorCode::out_of_range, "microbatches",
              "microbatches is too many for the simulator: stages = 1024, microbatches = 1024, "
              "virtual_stages = 1 make 2097152 work items, over its budget of 1048576");
  q = request(1024, 512, PipelineSchedule::one_f_one_b);  // exactly the budget
  CHECK(simulate_pipeline(q).ok());
  q = request(1024, 512, PipelineSchedule::zero_bubble);
  CHECK(simulate_pipeline(q).error().field == "stages");  // the larger of the two
  q = request(1024, 1024, PipelineSchedule::interleaved, 2);
  CHECK(simulate_pipeline(q).error().message ==
        "microbatches is too many for the simulator: stages = 1024, microbatches = 1024, "
        "virtual_stages = 2 make 4194304 work items, over its budget of 1048576");
  q = request(1024, 600, PipelineSchedule::gpipe);
  CHECK(simulate_pipeline(q).error().message ==
        "stages is too many for the simulator: stages = 1024, microbatches = 600, "
        "virtual_stages = 1 make 1228800 work items, over its budget of 1048576");
  // v counts only for interleaved.
  CHECK(simulate_pipeline(request(1024, 512, PipelineSchedule::gpipe, 64)).ok());
}
