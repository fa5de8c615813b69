// Per-call latency of the calculators, native. Prints figures; asserts nothing.
#include <chrono>
#include <cstdio>

#include "scalebook/core/registry.h"

namespace {

void bench(const char* name, const scalebook::Inputs& inputs, int calls = 200000) {
  const int kCalls = calls;
  double sink = 0;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) {
    auto result = scalebook::calculate(name, inputs);
    sink += result.ok() ? result.value().outputs[0].second.number : 0;
  }
  std::chrono::duration<double, std::micro> elapsed = std::chrono::steady_clock::now() - start;
  std::printf("native %-14s %9.3f us/call  (%d calls, checksum %g)\n", name,
              elapsed.count() / kCalls, kCalls, sink);
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
  bench("collective", {{"op", Value::of("all-gather")}, {"axes", Value::of("4x4")}}, 50000);
  // The planner enumerates every plan, so its cost grows with the axes the arrays use.
  bench("sharded-matmul", {}, 5000);
  bench("sharded-matmul",
        {{"spec", Value::of("A[I_XY, J_Z] * B[J_Z, K_W] -> C[I_XY, K_W]")},
         {"mesh", Value::of("X=2, Y=2, Z=4, W=2")},
         {"chip", Value::of("tpu-v5p")},
         {"wraparound", Value::of("yes")}},
        2000);
  bench("transformer", {{"model", Value::of("deepseek-v3")}}, 20000);
  return 0;
}
