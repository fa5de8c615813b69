// The configuration search's speed, native: configurations evaluated per second, and the
// whole search's time (median of runs) for chapter 6's cases. For comparison it prints the
// ratio to Calculon's rate (a Python analytical model: about 290 configurations per second on
// this kind of machine, the figure issue 13 quotes). Prints figures; asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "scalebook/core/registry.h"

namespace {

constexpr double kCalculonPerSecond = 290;

void search(const char* label, const scalebook::Inputs& inputs, int runs) {
  std::vector<double> seconds;
  double evaluated = 0;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto r = scalebook::calculate("training-search", inputs, {false});
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!r.ok()) {
      std::printf("%-44s error: %s\n", label, r.error().message.c_str());
      return;
    }
    for (const auto& [name, value] : r.value().outputs)
      if (name == "evaluated") evaluated = value.number;
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  std::printf("native %-44s %9.0f configs  median %8.2f ms  %7.2fM configs/s  %6.0fx Calculon\n",
              label, evaluated, median * 1e3, evaluated / median / 1e6,
              evaluated / median / kCalculonPerSecond);
}

scalebook::Value num(double x) { return scalebook::Value::of(x); }
scalebook::Value text(const char* t) { return scalebook::Value::of(t); }

}  // namespace

int main() {
  search(
      "llama-3-70b, 8192 v5p, B=4Mi T=4096",
      {{"model", text("llama-3-70b")}, {"chips", num(8192)}, {"B", num(4194304)}, {"T", num(4096)}},
      21);
  search("llama-3-405b, 65536 v5p, B=16Mi T=8192",
         {{"model", text("llama-3-405b")},
          {"chips", num(65536)},
          {"B", num(16777216)},
          {"T", num(8192)}},
         21);
  search("llama-3-405b, 8960 v5p (a pod), B=16Mi T=8192",
         {{"model", text("llama-3-405b")},
          {"chips", num(8960)},
          {"B", num(16777216)},
          {"T", num(8192)}},
         21);
  // Chapter 12: the same search over GPUs, against a v5p slice of as many chips.
  search("llama-3-70b, 4096 v5p, B=16Mi T=4096",
         {{"model", text("llama-3-70b")},
          {"chips", num(4096)},
          {"B", num(16777216)},
          {"T", num(4096)}},
         21);
  search("llama-3-70b, 4096 h100, B=16Mi T=4096",
         {{"model", text("llama-3-70b")},
          {"chip", text("h100")},
          {"chips", num(4096)},
          {"B", num(16777216)},
          {"T", num(4096)}},
         21);
  search("llama-3-405b, 8192 h100, B=16Mi T=8192",
         {{"model", text("llama-3-405b")},
          {"chip", text("h100")},
          {"chips", num(8192)},
          {"B", num(16777216)},
          {"T", num(8192)}},
         21);
  search("llama-3-8b, 256 v5e, B=1Mi T=4096",
         {{"model", text("llama-3-8b")},
          {"chip", text("tpu-v5e")},
          {"chips", num(256)},
          {"B", num(1048576)},
          {"T", num(4096)}},
         21);
  search("deepseek-v3, 4096 v5p, B=16Mi T=4096",
         {{"model", text("deepseek-v3")},
          {"chips", num(4096)},
          {"B", num(16777216)},
          {"T", num(4096)}},
         11);
}
