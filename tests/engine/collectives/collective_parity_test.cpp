// The collective's numbers-only path (sweeps, searches, prepared calculations) skips every
// step and its LaTeX; what it returns must be the explained outputs bit for bit, on every
// branch the explanation takes: each op, torus and GPU chips, one to three axes, each
// wraparound and direction, with and without a latency.
#include <string>
#include <vector>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

void check_same(const Inputs& in) {
  Result<Calculation> explained = calculate("collective", in);
  Result<Calculation> bare = calculate("collective", in, {.explain = false});
  REQUIRE(explained.ok() == bare.ok());
  if (!explained.ok()) {
    CHECK(explained.error().message == bare.error().message);
    return;
  }
  CHECK_FALSE(explained.value().steps.empty());
  check_same_outputs(explained.value(), bare.value());
}

}  // namespace

TEST_CASE("the collective's numbers-only path equals its explained outputs on every branch",
          "[collective]") {
  int checked = 0;
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"tpu-v5e", {"1", "2", "4", "16", "4x4", "2x16", "16x16"}},
      {"tpu-v5p", {"2", "8", "2x2x2", "4x4x4", "4x4x8", "3x5"}},
      {"tpu-v4p", {"4x4x4", "8"}},
      {"h100", {"1", "4", "8", "16", "64", "12"}},
  };
  for (const auto& [chip, axis_list] : cases) {
    for (const std::string& axes : axis_list) {
      for (const char* op : {"all-gather", "reduce-scatter", "all-reduce", "all-to-all"}) {
        for (const char* wrap : {"auto", "yes", "no"}) {
          for (const char* bidi : {"yes", "no"}) {
            INFO(chip << " axes=" << axes << " " << op << " " << wrap << " " << bidi);
            Inputs in{{"chip", Value::of(chip)},
                      {"axes", Value::of(axes)},
                      {"op", Value::of(op)},
                      {"wraparound", Value::of(wrap)},
                      {"bidirectional", Value::of(bidi)},
                      {"bytes", Value::of(3e8)}};
            check_same(in);
            in["latency"] = Value::of(1e-5);  // latency bound at this size on some axes
            check_same(in);
            checked += 2;
          }
        }
      }
    }
  }
  CHECK(checked == 21 * 4 * 3 * 2 * 2);
}
