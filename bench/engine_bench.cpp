// Per-call latency of the calculators, native: explained (the worked steps built) and
// numbers-only, median and p99 of single calls. Prints figures; asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/core/sweep.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Stats {
  double median_us, p99_us;
};

template <class F>
Stats measure(int calls, F&& call) {
  std::vector<double> us(static_cast<std::size_t>(calls));
  for (int i = 0; i < calls / 10; ++i) call();  // warm-up
  for (int i = 0; i < calls; ++i) {
    auto start = Clock::now();
    call();
    us[static_cast<std::size_t>(i)] =
        std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  }
  std::sort(us.begin(), us.end());
  return {us[us.size() / 2], us[us.size() * 99 / 100]};
}

void bench(const char* name, const scalebook::Inputs& inputs, int calls = 100000) {
  double sink = 0;
  for (bool explain : {true, false}) {
    Stats s = measure(calls, [&] {
      auto result = scalebook::calculate(name, inputs, {.explain = explain});
      sink += result.ok() ? result.value().outputs[0].second.number : 0;
    });
    std::printf("native %-14s %-9s median %8.3f us  p99 %8.3f us  (%d calls)\n", name,
                explain ? "explained" : "numbers", s.median_us, s.p99_us, calls);
  }
  if (sink == 0.5) std::printf("%g\n", sink);  // keeps the calls alive
}

}  // namespace

int main() {
  using scalebook::Value;
  bench("roofline",
        {{"flops", Value::of(1e12)}, {"bytes", Value::of(1e9)}, {"chip", Value::of("tpu-v5e")}});
  bench("matmul", {{"B", Value::of(256.0)},
                   {"D", Value::of(8192.0)},
                   {"F", Value::of(8192.0)},
                   {"chip", Value::of("tpu-v5e")}});
  bench("intensity", {});
  bench("systolic", {});
  bench("mxu", {});
  bench("chip", {});
  bench("slice", {});
  bench("collective", {{"op", Value::of("all-gather")}, {"axes", Value::of("4x4")}}, 50000);
  bench("array-memory", {}, 50000);
  // The planner enumerates every plan, so its cost grows with the axes the arrays use.
  bench("sharded-matmul", {}, 5000);
  bench("sharded-matmul",
        {{"spec", Value::of("A[I_XY, J_Z] * B[J_Z, K_W] -> C[I_XY, K_W]")},
         {"mesh", Value::of("X=2, Y=2, Z=4, W=2")},
         {"chip", Value::of("tpu-v5p")},
         {"wraparound", Value::of("yes")}},
        2000);
  bench("transformer", {{"model", Value::of("deepseek-v3")}}, 20000);
  bench("training", {{"tp_axes", Value::of("Z")}}, 20000);
  bench("training-budget", {}, 50000);
  bench("inference", {}, 50000);
  bench("inference-frontier", {}, 200);  // 64 batches x 8 slices

  std::vector<double> batches(200);
  for (int i = 0; i < 200; ++i) batches[static_cast<std::size_t>(i)] = 1 + 4 * i;
  Stats s = measure(2000, [&] {
    auto r = scalebook::sweep({"matmul", {{"chip", Value::of("h100")}}, "B", batches, {"t_lower"}});
    if (!r.ok()) std::printf("sweep failed\n");
  });
  std::printf("native sweep matmul 200 points   median %8.3f us  p99 %8.3f us\n", s.median_us,
              s.p99_us);
  return 0;
}
