// The sampler calculator against hand sums on a one-layer toy model.
#include "scalebook/inference/sampler.h"

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Inputs toy(double prompt, double g) {
  // L = 1, D = 8, F = 16, N = K = 2, H = 4, V = 10, untied.
  return {{"model", Value::of("custom")}, {"L", Value::of(1.0)},
          {"D", Value::of(8.0)},          {"F", Value::of(16.0)},
          {"N", Value::of(2.0)},          {"K", Value::of(2.0)},
          {"H", Value::of(4.0)},          {"V", Value::of(10.0)},
          {"P", Value::of(prompt)},       {"G", Value::of(g)}};
}

}  // namespace

TEST_CASE("sampler: naive and cached loops by hand", "[inference]") {
  Calculation one = run("sampler", toy(3, 1));
  // One token: both loops are a single pass over the prompt.
  CHECK(output(one, "flops_naive") == output(one, "flops_cached"));
  CHECK(output(one, "bytes_naive") == output(one, "bytes_cached"));

  Calculation c = run("sampler", toy(3, 3));
  // Per token: a the matmul FLOPs, k the attention FLOPs per key; passes over n = 3, 4, 5.
  Calculation p3 = run("sampler", toy(3, 1));
  Calculation p4 = run("sampler", toy(4, 1));
  // A pass over n tokens costs a n + k n^2 / 2: two passes give a and k.
  const double f3 = output(p3, "flops_naive"), f4 = output(p4, "flops_naive");
  const double k = (f4 - f3 * 4 / 3) / (16.0 / 2 - 9.0 / 2 * 4 / 3);
  const double a = (f3 - k * 9 / 2) / 3;
  CHECK(k == Approx(4 * 1 * 2 * 4));  // 4 L N H
  CHECK(output(c, "flops_naive") == Approx(a * 12 + k * (9 + 16 + 25) / 2.0));
  CHECK(output(c, "flops_cached") == Approx(a * 3 + k * 9 / 2.0 + a * 2 + k * (4 + 5)));
  // The cache: 2 L K H = 16 elements, 2 B each, for 5 tokens.
  CHECK(output(c, "kv_bytes") == 16 * 2 * 5);
  CHECK(output(c, "bytes_cached") - output(c, "bytes_naive") == 16 * 2 * (4 + 5));
  const Table& t = table(c, "curve");
  REQUIRE(t.rows.size() == 3);
  CHECK(cell(t, 2, "flops_naive").number == output(c, "flops_naive"));
}

TEST_CASE("sampler: a long generation stays closed-form and grows as it should", "[inference]") {
  Calculation c = run("sampler", {{"P", Value::of(1.0)}, {"G", Value::of(1e6)}});
  CHECK(table(c, "curve").rows.size() == 48);
  CHECK(output(c, "flops_ratio") > 1000);
  CHECK(run_error("sampler", {{"G", Value::of(0.5)}}).field == "G");
  CHECK(run_error("sampler", {{"model", Value::of("gpt-9")}}).field == "model");
}
