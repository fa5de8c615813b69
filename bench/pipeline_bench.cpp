// The pipeline simulator's cost per call (median and p99, native): the page's sizes, the
// work-item budget's worst case, and the pipeline calculator on the numbers-only path. Prints
// figures; asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/training/pipeline.h"

namespace {

using scalebook::PipelineSchedule;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class F>
void report(const char* label, int calls, F call) {
  std::vector<double> us;
  double sink = 0;
  for (int i = 0; i < calls; ++i) {
    auto start = std::chrono::steady_clock::now();
    sink += call();
    us.push_back(seconds_since(start) * 1e6);
  }
  std::sort(us.begin(), us.end());
  std::printf("%-52s median %10.1f us  p99 %10.1f us  (checksum %g)\n", label, us[us.size() / 2],
              us[us.size() * 99 / 100], sink);
}

void simulate(const char* label, int calls, scalebook::PipelineRequest q) {
  report(label, calls, [&] {
    auto r = scalebook::simulate_pipeline(q);
    return r.ok() ? r.value().step_time + static_cast<double>(r.value().frames.size()) : -1;
  });
}

scalebook::PipelineRequest request(std::int64_t p, std::int64_t m, PipelineSchedule s,
                                   std::int64_t v = 2) {
  scalebook::PipelineRequest q;
  q.stages = p, q.microbatches = m, q.schedule = s, q.virtual_stages = v;
  return q;
}

}  // namespace

int main() {
  for (PipelineSchedule s :
       {PipelineSchedule::naive, PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b,
        PipelineSchedule::interleaved, PipelineSchedule::zero_bubble}) {
    char label[64];
    std::snprintf(label, sizeof label, "p=16 m=64 %s", scalebook::to_string(s));
    simulate(label, 500, request(16, 64, s));
  }
  scalebook::PipelineRequest framed = request(16, 64, PipelineSchedule::one_f_one_b);
  framed.max_frames = 100000;
  simulate("p=16 m=64 1f1b, every frame", 500, framed);
  simulate("p=4 m=8 1f1b (the page's default)", 5000, request(4, 8, PipelineSchedule::one_f_one_b));
  simulate("p=1024 m=512 1f1b (2^20 items, the budget)", 5,
           request(1024, 512, PipelineSchedule::one_f_one_b));
  simulate("p=64 m=4096 interleaved v=2 (2^20 items)", 5,
           request(64, 4096, PipelineSchedule::interleaved));
  report("pipeline calculator, numbers only, defaults", 5000, [] {
    auto r = scalebook::calculate("pipeline", {}, {.explain = false});
    return r.ok() ? r.value().outputs[0].second.number : -1;
  });
}
