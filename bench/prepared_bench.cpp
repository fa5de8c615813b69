// The prepared, numbers-only path: each calculator prepared once with its default inputs,
// then evaluated over one varying number input. Prints the median and p99 of one evaluation
// and the heap allocations it makes once warm; asserts nothing. Each calculator gets about
// kSecondsEach: a first evaluation's time sets how many calls fit (the search takes tens of
// milliseconds a call, a roofline microseconds), so the whole bench ends in under a minute.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "scalebook/core/registry.h"

namespace {
std::atomic<long> allocations{0};
}  // namespace

// Counts every allocation of the process; only the difference around the evaluations is read.
void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kSecondsEach = 1.0;
constexpr int kMinCalls = 20;  // enough for a median; the p99 of so few is their maximum

// The first number input with a numeric default: the one a sweep would vary.
std::string varying_input(const scalebook::Schema& schema) {
  for (const scalebook::InputSpec& spec : schema.inputs) {
    bool numeric =
        spec.kind == scalebook::InputKind::number || spec.kind == scalebook::InputKind::count;
    if (numeric && spec.default_value.is_number() && !spec.overrides) return spec.name;
  }
  return "";
}

// How many calls of `evaluate` fit in kSecondsEach (warm-up included), from one timed call.
template <class F>
int calls_within_budget(int most, F&& evaluate) {
  auto start = Clock::now();
  evaluate();
  double once = std::chrono::duration<double>(Clock::now() - start).count();
  double fit = kSecondsEach / 1.1 / std::max(once, 1e-9);
  return static_cast<int>(
      std::clamp(fit, static_cast<double>(kMinCalls), static_cast<double>(most)));
}

void bench(const std::string& name, const scalebook::Inputs& fixed, int most_calls,
           const std::string& label = "") {
  scalebook::Schema schema = scalebook::schema_of(name).value();
  std::string over = varying_input(schema);
  double x = 0;
  for (const scalebook::InputSpec& spec : schema.inputs)
    if (spec.name == over) x = spec.default_value.number;
  // A calculator without a number input (chip, slice) is evaluated with nothing varying.
  std::vector<std::string> varying;
  if (!over.empty()) varying.push_back(over);
  auto prepared = scalebook::PreparedCalculation::make(name, fixed, varying, {});
  if (!prepared.ok()) {
    std::printf("prepared %-14s failed: %s\n", name.c_str(), prepared.error().message.c_str());
    return;
  }
  std::vector<double> y(prepared.value().outputs().size());
  const int calls =
      calls_within_budget(most_calls, [&] { prepared.value().evaluate(&x, y.data()); });
  for (int i = 0; i < calls / 10 + 1; ++i) prepared.value().evaluate(&x, y.data());
  std::vector<double> us(static_cast<std::size_t>(calls));
  long before = allocations.load();
  for (int i = 0; i < calls; ++i) {
    auto start = Clock::now();
    prepared.value().evaluate(&x, y.data());
    us[static_cast<std::size_t>(i)] =
        std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  }
  double per_call = static_cast<double>(allocations.load() - before) / calls;
  std::sort(us.begin(), us.end());
  std::printf(
      "prepared %-15s over %-6s median %9.3f us  p99 %9.3f us  %5.1f allocations  (%d calls)\n",
      (label.empty() ? name : label).c_str(), over.empty() ? "-" : over.c_str(), us[us.size() / 2],
      us[us.size() * 99 / 100], per_call, calls);
}

}  // namespace

// Optional argument: one calculator's name, to profile it alone.
int main(int argc, char** argv) {
  using scalebook::Value;
  for (const std::string& name : scalebook::calculator_names()) {
    if (argc > 1 && name != argv[1]) continue;
    scalebook::Inputs fixed;
    if (name == "collective") fixed = {{"op", Value::of("all-gather")}, {"axes", Value::of("4x4")}};
    if (name == "transformer") fixed = {{"model", Value::of("deepseek-v3")}};
    // LLaMA-3 70B on a v5p 16x16x16, FSDP over XY and TP over Z: 10 collectives a layer.
    if (name == "training") fixed = {{"tp_axes", Value::of("Z")}};
    bool search = name == "sharded-matmul";
    bench(name, fixed, search ? 2000 : 50000);
    // Chapter 12's budget: an AllGather over the 1,024 GPUs of a DGX H100 SuperPod.
    if (name == "collective") {
      bench(name,
            {{"op", Value::of("all-gather")},
             {"chip", Value::of("h100")},
             {"axis_size", Value::of(1024.0)},
             {"cluster", Value::of("dgx-h100-superpod")}},
            50000, "coll-superpod");
      bench(name,
            {{"op", Value::of("all-gather")},
             {"chip", Value::of("h100")},
             {"axis_size", Value::of(1024.0)}},
            50000, "coll-1024-h100");
    }
  }
  return 0;
}
