#include <string>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Calculation slice(const std::string& chip, const std::string& shape) {
  return run("slice", {{"chip", Value::of(chip)}, {"shape", Value::of(shape)}});
}

std::string wraps(const Calculation& c) {
  return output_value(c, "wrap_x").text + "," + output_value(c, "wrap_y").text + "," +
         output_value(c, "wrap_z").text;
}

Error slice_error(const std::string& chip, const std::string& shape) {
  return run_error("slice", {{"chip", Value::of(chip)}, {"shape", Value::of(shape)}});
}

}  // namespace

TEST_CASE("v5e wraps an axis only when it spans the pod's 16 chips", "[slice]") {
  CHECK(wraps(slice("tpu-v5e", "16x16")) == "yes,yes,");
  CHECK(wraps(slice("tpu-v5e", "8x16")) == "no,yes,");
  CHECK(wraps(slice("tpu-v5e", "16x8")) == "yes,no,");
  CHECK(wraps(slice("tpu-v5e", "4x4")) == "no,no,");
  CHECK(wraps(slice("tpu-v6e", "8x16")) == "no,yes,");
  CHECK(wraps(slice("tpu-v3", "16x32")) == "no,yes,");
  CHECK(output(slice("tpu-v5e", "8x16"), "wrapped_axes") == 1);
  CHECK(output_value(slice("tpu-v5e", "4x4"), "size_z").is_none());
}

TEST_CASE("v5p wraps every axis of a slice of whole 4x4x4 cubes and none otherwise", "[slice]") {
  CHECK(wraps(slice("tpu-v5p", "4x4x4")) == "yes,yes,yes");
  CHECK(wraps(slice("tpu-v5p", "4x4x8")) == "yes,yes,yes");
  CHECK(wraps(slice("tpu-v5p", "2x2x1")) == "no,no,no");
  CHECK(wraps(slice("tpu-v5p", "4x4x2")) == "no,no,no");
  CHECK(wraps(slice("tpu-v4p", "8x8x16")) == "yes,yes,yes");
  CHECK(output(slice("tpu-v5p", "4x4x8"), "wrapped_axes") == 3);
  CHECK(output(slice("tpu-v5p", "4x4x2"), "wrapped_axes") == 0);
}

TEST_CASE("a chip whose catalog states no wraparound rule gets unknown and no link counts",
          "[slice]") {
  Calculation c = slice("tpu7x", "4x4x4");
  CHECK(wraps(c) == "unknown,unknown,unknown");
  CHECK(output(c, "chips") == 64);
  CHECK(output_value(c, "hops_max").is_none());
  CHECK(output_value(c, "links_per_chip").is_none());
  CHECK(output_value(c, "wrapped_axes").is_none());
}

TEST_CASE("hops to the farthest chip: half of each ring, the whole of each line", "[slice]") {
  CHECK(output(slice("tpu-v5e", "16x16"), "hops_max") == 16);  // 8 + 8
  CHECK(output(slice("tpu-v5e", "8x16"), "hops_max") == 15);   // 7 + 8
  CHECK(output(slice("tpu-v5e", "4x4"), "hops_max") == 6);     // 3 + 3
  CHECK(output(slice("tpu-v5p", "4x4x4"), "hops_max") == 6);   // 2 + 2 + 2
  CHECK(output(slice("tpu-v5p", "4x4x8"), "hops_max") == 8);   // 2 + 2 + 4
  CHECK(output(slice("tpu-v5p", "4x4x2"), "hops_max") == 7);   // 3 + 3 + 1
  CHECK(output(slice("tpu-v5p", "2x2x1"), "hops_max") == 2);   // 1 + 1 + 0
}

TEST_CASE("chips, links and the bisection follow from the sizes and the wraps", "[slice]") {
  Calculation v5p = slice("tpu-v5p", "4x4x4");
  CHECK(output(v5p, "chips") == 64);
  CHECK(output(v5p, "axes") == 3);
  CHECK(output(v5p, "links_per_chip") == 6);
  CHECK(output(v5p, "ici_links") == 192);       // 3 axes x 16 rings x 4 links
  CHECK(output(v5p, "bisection_links") == 32);  // 16 rings cut twice
  CHECK(output(v5p, "bisection_bandwidth") == Approx(32 * 9e10));
  Calculation pair = slice("tpu-v5p", "2x2x1");
  CHECK(output(pair, "links_per_chip") == 2);
  CHECK(output(pair, "ici_links") == 4);
  CHECK(output(pair, "bisection_links") == 2);
  Calculation v5e = slice("tpu-v5e", "8x16");
  CHECK(output(v5e, "chips") == 128);
  CHECK(output(v5e, "size_x") == 8);
  CHECK(output(v5e, "size_y") == 16);
  CHECK(output(v5e, "links_per_chip") == 4);
  CHECK(output(v5e, "ici_links") == 240);       // 16 lines x 7 + 8 rings x 16
  CHECK(output(v5e, "bisection_links") == 16);  // min(16 x 1, 8 x 2)
  CHECK(output(slice("tpu-v5e", "1x1"), "bisection_links") == 0);
}

TEST_CASE("the default slice is 4x4 on v5e, and any orientation that fits the pod is taken",
          "[slice]") {
  Calculation c = run("slice", {});
  CHECK(output(c, "chips") == 16);
  CHECK(wraps(c) == "no,no,");
  CHECK(output(slice("tpu-v5p", "16x28x20"), "chips") == 8960);
  CHECK(output(slice("tpu-v5e", " 4x8 "), "chips") == 32);
}

TEST_CASE("the worked solution shows the wrap rule with this slice's numbers", "[slice]") {
  Calculation c = slice("tpu-v5e", "8x16");
  bool found = false;
  for (const Step& s : c.steps) {
    if (s.output != "wrap_x") continue;
    found = true;
    CHECK(s.latex == "n_x = 8 \\ne 16 = \\text{pod}_x \\Rightarrow \\text{no wrap}");
    CHECK(s.value == 0);
  }
  CHECK(found);
}

TEST_CASE("bad shapes get exact messages naming the shape", "[slice][errors]") {
  check_error(slice_error("tpu-v5p", "4x0x4"), ErrorCode::invalid_argument, "shape",
              "shape must be sizes joined by x, like 4x4x4, got \"4x0x4\"");
  check_error(slice_error("tpu-v5e", "abc"), ErrorCode::invalid_argument, "shape",
              "shape must be sizes joined by x, like 4x4, got \"abc\"");
  check_error(slice_error("tpu-v5e", "4 x 4"), ErrorCode::invalid_argument, "shape",
              "shape must be sizes joined by x, like 4x4, got \"4 x 4\"");
  check_error(slice_error("tpu-v5e", "4x"), ErrorCode::invalid_argument, "shape",
              "shape must be sizes joined by x, like 4x4, got \"4x\"");
  check_error(slice_error("tpu-v5e", "2.5x4"), ErrorCode::invalid_argument, "shape",
              "shape must be sizes joined by x, like 4x4, got \"2.5x4\"");
  check_error(slice_error("tpu-v5e", ""), ErrorCode::invalid_argument, "shape",
              "shape must be sizes joined by x, like 4x4, got \"\"");
  check_error(slice_error("tpu-v5p", "4x4"), ErrorCode::invalid_argument, "shape",
              "shape has 2 axes but tpu-v5p is a 3D torus");
  check_error(slice_error("tpu-v5e", "4x4x1"), ErrorCode::invalid_argument, "shape",
              "shape has 3 axes but tpu-v5e is a 2D torus");
  check_error(slice_error("tpu-v5p", "32x32x32"), ErrorCode::out_of_range, "shape",
              "shape 32x32x32 exceeds the tpu-v5p pod of 16x20x28");
  check_error(slice_error("tpu-v5e", "1x32"), ErrorCode::out_of_range, "shape",
              "shape 1x32 exceeds the tpu-v5e pod of 16x16");
  check_error(slice_error("tpu-v5e", "99999999999999x1"), ErrorCode::out_of_range, "shape",
              "shape 1000000000x1 exceeds the tpu-v5e pod of 16x16");
}

TEST_CASE("a chip without an ICI torus is named", "[slice][errors]") {
  check_error(slice_error("h100", "4x4"), ErrorCode::unsupported, "chip",
              "h100 has no ICI torus in the catalog");
}

TEST_CASE("a text input longer than 100 characters is refused", "[slice][errors][registry]") {
  check_error(slice_error("tpu-v5e", std::string(1000, '4')), ErrorCode::invalid_argument, "shape",
              "shape must be at most 100 characters, got 1000");
  check_error(slice_error("tpu-v5e", std::string(101, 'x')), ErrorCode::invalid_argument, "shape",
              "shape must be at most 100 characters, got 101");
  Result<Schema> s = schema_of("slice");
  REQUIRE(s.ok());
  CHECK(std::string(to_string(s.value().inputs[1].kind)) == "text");
}
