// The collective simulation's cost at the sizes a page may ask for (the largest it accepts),
// and the collective calculator's per-call latency, native. Prints figures; asserts nothing.
#include <chrono>
#include <cstdio>
#include <string>

#include "scalebook/collectives/collective_sim.h"
#include "scalebook/core/registry.h"

namespace {

using scalebook::CollectiveOp;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void simulate(CollectiveOp op, std::vector<std::int64_t> shape, bool wraps) {
  scalebook::CollectiveSimRequest q;
  q.op = op;
  q.shape = shape;
  q.bytes = 1e9;
  q.wraparound = wraps;
  q.bandwidth = 4.5e10;
  q.latency = 1e-6;
  std::string label = std::string(scalebook::to_string(op)) + " " + std::to_string(shape[0]) +
                      (shape.size() > 1 ? "x" + std::to_string(shape[1]) : "") +
                      (wraps ? " ring" : " line");
  auto start = std::chrono::steady_clock::now();
  auto result = scalebook::simulate_collective(q);
  double s = seconds_since(start);
  if (!result.ok()) {
    std::printf("%-32s error: %s\n", label.c_str(), result.error().message.c_str());
    return;
  }
  const scalebook::CollectiveSimResult& r = result.value();
  std::size_t moves = 0;
  for (const auto& step : r.steps) moves += step.moves.size();
  std::printf("%-32s %8.3f ms  %4zu steps  %8zu moves  %.3g state values  time/closed %.4f\n",
              label.c_str(), s * 1e3, r.steps.size(), moves,
              static_cast<double>(r.states.size() * r.states[0].size()), r.time / r.closed_form);
}

void calculator() {
  constexpr int kCalls = 100000;
  scalebook::Inputs in = {{"axes", scalebook::Value::of("8x16")}};
  double sink = 0;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) {
    auto result = scalebook::calculate("collective", in);
    sink += result.ok() ? result.value().outputs[0].second.number : 0;
  }
  std::printf("collective calculator            %8.3f us/call  (checksum %g)\n",
              seconds_since(start) / kCalls * 1e6, sink);
}

}  // namespace

int main() {
  simulate(CollectiveOp::all_gather, {8}, true);
  simulate(CollectiveOp::all_reduce, {64}, false);
  simulate(CollectiveOp::all_gather, {16, 16}, true);
  simulate(CollectiveOp::all_reduce, {16, 16}, false);
  simulate(CollectiveOp::all_to_all, {32}, true);
  simulate(CollectiveOp::all_to_all, {45}, false);
  simulate(CollectiveOp::all_to_all, {8, 8}, false);
  calculator();
  return 0;
}
