// The collective model never promises more than a chip's links carry: over every op, axis
// count and wraparound setting, efficiency (achieved over peak injection) stays at most 1,
// and the time is at least the corner chip's floor.
#include <string>
#include <vector>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

std::vector<std::string> axis_sets(int torus_dims) {
  std::vector<std::string> sets;
  const int sizes[] = {2, 3, 4, 8, 16};
  for (int a : sizes) {
    sets.push_back(std::to_string(a));
    for (int b : sizes) {
      sets.push_back(std::to_string(a) + "x" + std::to_string(b));
      if (torus_dims < 3) continue;
      for (int c : {2, 4})
        sets.push_back(std::to_string(a) + "x" + std::to_string(b) + "x" + std::to_string(c));
    }
  }
  return sets;
}

}  // namespace

TEST_CASE("no collective runs faster than its chips' links allow", "[collective]") {
  int checked = 0;
  for (const auto& [chip, dims] :
       std::vector<std::pair<std::string, int>>{{"tpu-v5e", 2}, {"tpu-v5p", 3}}) {
    for (const std::string& axes : axis_sets(dims)) {
      for (const char* op : {"all-gather", "reduce-scatter", "all-reduce", "all-to-all"}) {
        for (const char* wrap : {"auto", "yes", "no"}) {
          for (const char* bidi : {"yes", "no"}) {
            Result<Calculation> r = calculate("collective",
                                              {{"chip", Value::of(chip)},
                                               {"axes", Value::of(axes)},
                                               {"op", Value::of(op)},
                                               {"wraparound", Value::of(wrap)},
                                               {"bidirectional", Value::of(bidi)},
                                               {"bytes", Value::of(1e9)}},
                                              {.explain = false});
            if (!r.ok()) continue;  // a shape the pod cannot hold
            INFO(chip << " " << axes << " " << op << " wraparound=" << wrap
                      << " bidirectional=" << bidi);
            CHECK(output(r.value(), "efficiency") <= 1 + 1e-12);
            ++checked;
          }
        }
      }
    }
  }
  CHECK(checked > 1000);
}

TEST_CASE("several axes without wraparound: the corner chip's links bound the time",
          "[collective]") {
  // v5p 2x2x2 without wraparound: a corner chip takes in 7/8 of 1 GB over 3 links of 90 GB/s.
  Calculation c = run("collective", {{"chip", Value::of("tpu-v5p")},
                                     {"axes", Value::of("2x2x2")},
                                     {"op", Value::of("all-gather")},
                                     {"bytes", Value::of(1e9)}});
  CHECK(output(c, "t_bandwidth") == Approx(0.875e9 / (3 * 9e10)));
  CHECK(output(c, "efficiency") == Approx(1));
  // v5e 4x4 (no wraparound below a full pod): 15/16 of 1 GB over a corner's 2 links of 45 GB/s.
  Calculation e = run("collective", {{"chip", Value::of("tpu-v5e")},
                                     {"axes", Value::of("4x4")},
                                     {"op", Value::of("all-gather")},
                                     {"bytes", Value::of(1e9)}});
  CHECK(output(e, "time") == Approx(0.9375e9 / (2 * 4.5e10)));
  // Rings keep the book's V / (W_bidi N_axes) (sharding-q2b's formula): v5p links carry
  // 90 GB/s each way, so W_bidi = 180 GB/s over two axes.
  Calculation q = run("collective", {{"chip", Value::of("tpu-v5p")},
                                     {"axes", Value::of("4x4")},
                                     {"op", Value::of("all-gather")},
                                     {"wraparound", Value::of("yes")},
                                     {"bytes", Value::of(2.0 * 1024 * 4096)}});
  CHECK(output(q, "t_bandwidth") == Approx(2.0 * 1024 * 4096 / (2 * 1.8e11)));
}
