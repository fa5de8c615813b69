// sharded-matmul enumerates each spec's plan shapes once and prices them per evaluation; a
// prepared calculation keeps the shapes and picks the cheapest by a scan, the explained path
// sorts every plan for its table. Both must give the explained numbers bit for bit, on every
// book case, with and without a requested output, when the sizes change between evaluations
// and when HBM rules plans out.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

void check_same(const Inputs& fixed, const std::vector<std::vector<double>>& sizes) {
  const std::vector<std::string> varying = {"I", "J", "K"};
  Result<PreparedCalculation> prepared =
      PreparedCalculation::make("sharded-matmul", fixed, varying, {});
  REQUIRE(prepared.ok());
  const Schema& schema = prepared.value().schema();
  std::vector<double> y(prepared.value().outputs().size());
  for (const std::vector<double>& x : sizes) {
    Inputs in = fixed;
    for (std::size_t i = 0; i < varying.size(); ++i) in[varying[i]] = Value::of(x[i]);
    INFO("I=" << x[0] << " J=" << x[1] << " K=" << x[2]);
    Result<Calculation> explained = calculate("sharded-matmul", in);
    Result<Calculation> bare = calculate("sharded-matmul", in, {.explain = false});
    std::optional<Error> error = prepared.value().evaluate(x.data(), y.data());
    REQUIRE(explained.ok() == !error.has_value());
    REQUIRE(explained.ok() == bare.ok());
    if (!explained.ok()) {
      CHECK(explained.error().message == error->message);
      continue;
    }
    check_same_outputs(explained.value(), bare.value());
    std::size_t k = 0;
    for (std::size_t i = 0; i < schema.outputs.size(); ++i) {
      if (schema.outputs[i].is_text) continue;
      INFO(schema.outputs[i].name);
      const Value& value = explained.value().outputs[i].second;
      REQUIRE(value.is_number());
      CHECK(std::memcmp(&value.number, &y[k], sizeof(double)) == 0);
      ++k;
    }
  }
}

}  // namespace

TEST_CASE("sharded-matmul's prepared and numbers-only plans equal the explained ones",
          "[sharded-matmul]") {
  const std::vector<std::string> specs = {
      "A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]",
      "A[I, J_X] * B[J_X, K] -> C[I, K]",
      "A[I, J_X] * B[J_X, K]",
      "A[I_X, J] * B[J, K_X]",
      "A[I_X, J] * B[J, K_X] -> C[I_X, K]",
      "A[I, J_X] * B[J, K_Y]",
      "A[I_XY, J] * B[J, K]",
      "A[I_X, J_Y] * B[J_Y, K_X] -> C[I_XY, K]",
      "A[I, J_XY] * B[J_X, K_Y]",
      "A[I, J_X] * B[J_X, K] -> C[I_X, K]",
      "A[I, J_X] * B[J_X, K] -> C[I, K]{U_X}",
      "A[I_Y, J_X] * B[J_X, K] -> C[I_Y, K_X]",
  };
  // Sizes that divide every axis, one that splits I unevenly on some plans (6 over X=4 and
  // Y=2), and one large enough that the lean plans are the only ones to fit in HBM.
  const std::vector<std::vector<double>> sizes = {
      {4096, 8192, 16384}, {1024, 64, 256}, {24, 8192, 16384}, {131072, 131072, 65536}};
  int checked = 0;
  for (const std::string& spec : specs) {
    for (const char* mesh : {"X=4, Y=2", "X=2, Y=8", "4x4"}) {
      for (const char* chip : {"tpu-v5e", "tpu-v5p"}) {
        INFO(spec << " mesh=" << mesh << " chip=" << chip);
        check_same({{"spec", Value::of(spec)},
                    {"mesh", Value::of(mesh)},
                    {"chip", Value::of(chip)},
                    {"dtype", Value::of("bf16")}},
                   sizes);
        ++checked;
      }
    }
  }
  CHECK(checked == 12 * 3 * 2);
}
