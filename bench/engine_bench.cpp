// Per-call latency of the calculators, native. Prints figures; asserts nothing.
#include <chrono>
#include <cstdio>

#include "scalebook/registry.h"

namespace {

void bench(const char* name, const scalebook::Inputs& inputs) {
  constexpr int kCalls = 200000;
  double sink = 0;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) {
    auto result = scalebook::calculate(name, inputs);
    sink += result.ok() ? result.value().outputs[0].second.number : 0;
  }
  std::chrono::duration<double, std::micro> elapsed = std::chrono::steady_clock::now() - start;
  std::printf("native %-9s %8.3f us/call  (%d calls, checksum %g)\n", name,
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
  return 0;
}
