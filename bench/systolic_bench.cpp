// The stepped systolic simulator's speed (PE-steps per second) and the closed form's cost,
// native. Prints figures; asserts nothing.
#include <chrono>
#include <cstdio>

#include "scalebook/core/registry.h"
#include "scalebook/systolic/systolic_sim.h"

namespace {

using scalebook::Convention;
using scalebook::Dataflow;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void simulate(const char* label, scalebook::SimRequest q) {
  q.max_pe_steps = 1e11;
  auto start = std::chrono::steady_clock::now();
  auto result = scalebook::simulate_systolic(q);
  double s = seconds_since(start);
  if (!result.ok()) {
    std::printf("%-44s error: %s\n", label, result.error().message.c_str());
    return;
  }
  const scalebook::SimResult& r = result.value();
  std::printf("%-44s %9.3f s  %10lld cycles  %.3g PE-steps  %.3g PE-steps/s\n", label, s,
              static_cast<long long>(r.cycles), r.pe_steps, r.pe_steps / s);
}

void closed_form() {
  constexpr int kCalls = 200000;
  scalebook::Inputs in = {{"M", scalebook::Value::of(1024.0)},
                          {"N", scalebook::Value::of(1024.0)},
                          {"K", scalebook::Value::of(1024.0)}};
  double sink = 0;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) {
    auto result = scalebook::calculate("systolic", in);
    sink += result.ok() ? result.value().outputs[0].second.number : 0;
  }
  std::printf("closed form (systolic calculator)            %8.3f us/call  (checksum %g)\n",
              seconds_since(start) / kCalls * 1e6, sink);
}

}  // namespace

int main() {
  simulate("128x128, 1024^3, ws, pipelined",
           {{1024, 1024, 1024}, {128, 128}, Dataflow::ws, Convention::pipelined});
  simulate("128x128, 1024^3, ws, scalesim",
           {{1024, 1024, 1024}, {128, 128}, Dataflow::ws, Convention::scalesim});
  simulate("128x128, 512^3, is, pipelined",
           {{512, 512, 512}, {128, 128}, Dataflow::is, Convention::pipelined});
  simulate("128x128, 512^3, os, pipelined",
           {{512, 512, 512}, {128, 128}, Dataflow::os, Convention::pipelined});
  scalebook::SimRequest page{{64, 64, 64}, {16, 16}, Dataflow::ws, Convention::pipelined};
  page.max_frames = 2048;
  simulate("16x16, 64^3, ws, pipelined, 2048 frames", page);
  closed_form();
  return 0;
}
