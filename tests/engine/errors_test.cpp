#include <cmath>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {
// The registry's names in their order, as the message lists them; the list is not pinned here,
// so a new calculator touches no test of errors.
std::string registered_names() {
  std::string out;
  for (const std::string& name : calculator_names()) out += (out.empty() ? "" : ", ") + name;
  return out;
}
}  // namespace

TEST_CASE("an unknown calculator is not found", "[errors]") {
  check_error(run_error("rooflin", {}), ErrorCode::not_found, "calculator",
              "unknown calculator \"rooflin\"; choose one of " + registered_names());
}

TEST_CASE("an unknown input names itself and the known ones", "[errors]") {
  check_error(run_error("roofline", {{"flop", Value::of(1.0)}}), ErrorCode::invalid_argument,
              "flop",
              "roofline has no input \"flop\"; its inputs are flops, bytes, comm_bytes, chip, "
              "dtype, memory, peak_flops, hbm_bandwidth, comm_bandwidth, and any number field of a "
              "chip (scalebook chip ID)");
}

TEST_CASE("negative bytes are out of range", "[errors]") {
  check_error(run_error("roofline", {{"bytes", Value::of(-5.0)}}), ErrorCode::out_of_range, "bytes",
              "bytes must be > 0, got -5");
}

TEST_CASE("zero bytes are out of range", "[errors]") {
  check_error(run_error("roofline", {{"bytes", Value::of("0")}}), ErrorCode::out_of_range, "bytes",
              "bytes must be > 0, got 0");
}

TEST_CASE("text that is not a number is rejected", "[errors]") {
  check_error(run_error("roofline", {{"flops", Value::of("abc")}}), ErrorCode::invalid_argument,
              "flops", "flops must be a number, got \"abc\"");
  check_error(run_error("roofline", {{"flops", Value::of("")}}), ErrorCode::invalid_argument,
              "flops", "flops must be a number, got \"\"");
  check_error(run_error("roofline", {{"flops", Value::of("0x10")}}), ErrorCode::invalid_argument,
              "flops", "flops must be a number, got \"0x10\"");
  check_error(run_error("roofline", {{"flops", Value::of("1e12 GB")}}), ErrorCode::invalid_argument,
              "flops", "flops is in FLOP, got \"1e12 GB\" (GB is not a unit of it)");
  check_error(run_error("roofline", {{"flops", Value::of("12 furlongs")}}),
              ErrorCode::invalid_argument, "flops", "flops must be a number, got \"12 furlongs\"");
}

TEST_CASE("a number with a unit of the input's own kind is read in the input's unit", "[errors]") {
  // "15ms" for a time in s, "1 TFLOP" for FLOP: the answer box's units (core/units.h).
  CHECK(output(run("roofline", {{"flops", Value::of("1 TFLOP")}}), "t_compute") ==
        output(run("roofline", {{"flops", Value::of(1e12)}}), "t_compute"));
  CHECK(output(run("roofline", {{"bytes", Value::of("2 GB")}}), "t_memory") ==
        output(run("roofline", {{"bytes", Value::of(2e9)}}), "t_memory"));
}

TEST_CASE("an output that overflows is an out-of-range error naming the likeliest input",
          "[errors]") {
  // 1e30 FLOPs over 1e-300 bytes: the intensity is past the largest double.
  check_error(run_error("roofline", {{"flops", Value::of(1e30)}, {"bytes", Value::of(1e-300)}}),
              ErrorCode::out_of_range, "bytes",
              "roofline's intensity comes out too large to represent with bytes=1e-300; bring "
              "bytes nearer ordinary values");
  // Peaks and bandwidths below one unit a second are refused before they can overflow a time.
  check_error(
      run_error("roofline", {{"flops", Value::of(1e30)}, {"peak_flops", Value::of(1e-300)}}),
      ErrorCode::out_of_range, "peak_flops", "peak_flops must be >= 1, got 1e-300");
  check_error(run_error("matmul", {{"hbm_bandwidth", Value::of(0.5)}}), ErrorCode::out_of_range,
              "hbm_bandwidth", "hbm_bandwidth must be >= 1, got 0.5");
  check_error(run_error("collective", {{"ici_link_bandwidth", Value::of(1e-9)}}),
              ErrorCode::out_of_range, "ici_link_bandwidth",
              "ici_link_bandwidth must be >= 1, got 1e-9");
}

TEST_CASE("NaN and infinities are rejected", "[errors]") {
  check_error(run_error("roofline", {{"flops", Value::of(std::nan(""))}}),
              ErrorCode::invalid_argument, "flops", "flops must be a finite number, got nan");
  check_error(run_error("roofline", {{"bytes", Value::of("1e999")}}), ErrorCode::out_of_range,
              "bytes", "bytes is too large: numbers stop near 1.8e308");
  check_error(run_error("roofline", {{"flops", Value::of("inf")}}), ErrorCode::invalid_argument,
              "flops", "flops must be a number, got \"inf\"");
}

TEST_CASE("huge values are out of range", "[errors]") {
  check_error(run_error("roofline", {{"flops", Value::of(1e31)}}), ErrorCode::out_of_range, "flops",
              "flops must be <= 1e30, got 1e31");
  check_error(run_error("matmul", {{"D", Value::of(1e10)}}), ErrorCode::out_of_range, "D",
              "D must be <= 1e9, got 1e10");
}

TEST_CASE("a fraction where a count is needed is rejected", "[errors]") {
  check_error(run_error("matmul", {{"B", Value::of(2.5)}}), ErrorCode::invalid_argument, "B",
              "B must be a whole number, got 2.5");
}

TEST_CASE("a zero dimension is out of range", "[errors]") {
  check_error(run_error("matmul", {{"F", Value::of(0.0)}}), ErrorCode::out_of_range, "F",
              "F must be >= 1, got 0");
}

TEST_CASE("an unknown chip lists the catalog", "[errors]") {
  check_error(run_error("roofline", {{"chip", Value::of("tpu-v9")}}), ErrorCode::invalid_argument,
              "chip",
              "chip must be one of tpu-v5e, tpu-v5p, tpu-v6e, tpu-v4p, h100, tpu-v3, tpu7x, v100, "
              "a100, h200, h800, b200, gb200, got \"tpu-v9\"");
}

TEST_CASE("a number where a choice is needed is rejected", "[errors]") {
  check_error(run_error("matmul", {{"dtype", Value::of(16.0)}}), ErrorCode::invalid_argument,
              "dtype", "dtype must be one of fp32, bf16, fp8, int8, int4, got 16");
}

TEST_CASE("a dtype the chip has no peak for asks for an override", "[errors]") {
  check_error(run_error("roofline", {{"chip", Value::of("h100")}, {"dtype", Value::of("int4")}}),
              ErrorCode::unsupported, "dtype",
              "h100 has no int4 peak in the catalog; give peak_flops to set one");
}

TEST_CASE("a zero bandwidth override is out of range", "[errors]") {
  check_error(run_error("roofline", {{"hbm_bandwidth", Value::of(0.0)}}), ErrorCode::out_of_range,
              "hbm_bandwidth", "hbm_bandwidth must be >= 1, got 0");
}

TEST_CASE("an unknown calculator has no schema", "[errors]") {
  Result<Schema> s = schema_of("");
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message == "unknown calculator \"\"; choose one of " + registered_names());
}
