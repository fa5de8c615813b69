// A degree given alone places itself on the slice's free axes (parallelism's place_degrees):
// the fewest axes of its size, the latest of them, fsdp keeping the rest; the step is then the
// one the same axes named by hand give.
#include <string>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

std::string layout_of(const Inputs& in) { return output_value(run("training", in), "layout").text; }

}  // namespace

TEST_CASE("training: a degree alone takes the latest free axes of its size", "[training][place]") {
  // LLaMA 3 70B on the default 16x16x16 v5p slice.
  CHECK(layout_of({{"tp", num(16)}}) == "fsdp 256 (XY) x tp 16 (Z)");
  CHECK(layout_of({{"tp", num(16)}, {"pp", num(16)}}) == "fsdp 16 (X) x tp 16 (Z) x pp 16 (Y)");
  CHECK(layout_of({{"tp", num(16)}, {"fsdp", num(256)}}) == "fsdp 256 (XY) x tp 16 (Z)");
  // Fewest axes first: on a 16x4x4, 16 is the one axis X, not the later two of 4.
  CHECK(layout_of({{"shape", text("16x4x4")}, {"tp", num(16)}}) == "fsdp 16 (YZ) x tp 16 (X)");
  // A degree that spans two axes takes the two latest.
  CHECK(layout_of({{"model", text("book-mlp")}, {"tp", num(256)}}) == "fsdp 16 (X) x tp 256 (YZ)");
}

TEST_CASE("training: a placed degree computes what the same axes named by hand do",
          "[training][place]") {
  const Calculation placed = run("training", {{"tp", num(16)}, {"pp", num(16)}});
  const Calculation named = run("training", {{"tp_axes", text("Z")}, {"pp_axes", text("Y")}});
  CHECK(output(placed, "step_time") == output(named, "step_time"));
  CHECK(output(placed, "mem_total") == output(named, "mem_total"));
}

TEST_CASE("training: a degree no set of free axes spans names itself", "[training][place]") {
  check_error(run_error("training", {{"dp", num(4)}, {"tp", num(16)}}), ErrorCode::invalid_argument,
              "dp",
              "dp=4 is the size of no set of the free axes (X 16, Y 16); give dp_axes, or a degree "
              "that is a product of their sizes");
  // Axes named by hand leave none free.
  check_error(run_error("training", {{"fsdp_axes", text("XYZ")}, {"tp", num(16)}}),
              ErrorCode::invalid_argument, "tp_axes",
              "tp=16 needs tp_axes, the axes of the slice it spans (X, Y, Z)");
}
