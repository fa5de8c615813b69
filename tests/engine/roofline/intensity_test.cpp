#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

TEST_CASE("a bf16 dot product has intensity (2N-1)/(4N+2), tending to 1/2 (roofline-ex2)",
          "[intensity]") {
  Calculation c = run("intensity", {{"op", Value::of("dot")}, {"N", Value::of(1000.0)}});
  CHECK(output(c, "flops") == 1999);
  CHECK(output(c, "bytes") == 4002);
  CHECK(output(c, "intensity") == Approx(1999.0 / 4002.0));
  CHECK(output(c, "intensity_limit") == 0.5);
  CHECK(output_value(c, "bound").text == "memory");
}

TEST_CASE("an elementwise add reads two elements and writes one per FLOP", "[intensity]") {
  // The VPU's fp32 rate is not in the catalog; any peak will do for the byte count.
  Calculation c = run("intensity", {{"op", Value::of("elementwise")},
                                    {"N", Value::of(100.0)},
                                    {"dtype", Value::of("fp32")},
                                    {"peak_flops", Value::of(1e13)}});
  CHECK(output(c, "bytes") == 1200);
  CHECK(output(c, "intensity") == Approx(1.0 / 12));  // the GPU chapter's fp32 vector add
}

TEST_CASE("a matmul's intensity tends to 2B over the weight bytes", "[intensity]") {
  Calculation c = run("intensity", {{"B", Value::of(128.0)}, {"dtype_weights", Value::of("int8")}});
  CHECK(output(c, "intensity_limit") == 256);
  CHECK(output(c, "intensity") < 256);
  CHECK(output(c, "critical_intensity") == Approx(240.2439024));  // bf16 arithmetic
}

TEST_CASE("per-example weights keep the intensity near 2 OPs per byte (roofline-q4)",
          "[intensity]") {
  Calculation c = run("intensity", {{"op", Value::of("batched-matmul")},
                                    {"dtype", Value::of("int8")},
                                    {"B", Value::of(256.0)},
                                    {"D", Value::of(4096.0)},
                                    {"F", Value::of(4096.0)}});
  CHECK(output(c, "intensity") == Approx(2.0).epsilon(0.001));
  CHECK(output(c, "intensity_limit") == 2);
  CHECK(output_value(c, "bound").text == "memory");
}

TEST_CASE("an unknown op is named with the choices", "[intensity][errors]") {
  CHECK(run_error("intensity", {{"op", Value::of("conv")}}).message ==
        "op must be one of elementwise, dot, matmul, batched-matmul, got \"conv\"");
}
