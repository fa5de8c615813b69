// The kv-allocator calculator against hand derivations and the book's prefix-caching example
// (shared/book/problems/inference.json, inference-we-prefix-cache).
#include "scalebook/inference/kv_allocator.h"

#include <cmath>

#include "helpers.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/transformer/models.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

// LLaMA-2 13B (the default): 2 (K and V) x 40 layers x 40 KV heads x 128 per head, in bf16.
constexpr double kLlama13bKv = 2.0 * 40 * 40 * 128 * 2;

double llama13b_weights() {
  const Model* m = find_model("llama-2-13b");
  REQUIRE(m);
  return count_params(*m).total * 2;
}

double v5e_hbm() {
  const Chip* chip = find_chip("tpu-v5e");
  REQUIRE(chip);
  return chip->hbm_capacity;
}

}  // namespace

TEST_CASE("a fixed request length wastes the slot's tail padded and under a page paged",
          "[inference][kv-allocator]") {
  Calculation calc = run("kv-allocator", {{"lengths", Value::of("fixed")},
                                          {"mean", Value::of(1000.0)},
                                          {"max_context", Value::of(4096.0)},
                                          {"page", Value::of(16.0)}});
  CHECK(output(calc, "kv_per_token") == kLlama13bKv);
  const double budget = 8 * v5e_hbm() - llama13b_weights();
  CHECK(output(calc, "budget") == Approx(budget).epsilon(1e-12));
  CHECK(output(calc, "mean_length") == 1000);
  CHECK(output(calc, "kv_per_request") == 1000 * kLlama13bKv);
  CHECK(output(calc, "padded_bytes") == 4096 * kLlama13bKv);
  CHECK(output(calc, "padded_waste") == Approx(1 - 1000.0 / 4096).epsilon(1e-12));
  const double padded = std::floor(budget / (4096 * kLlama13bKv));
  CHECK(output(calc, "padded_requests") == padded);
  // ceil(1000 / 16) = 63 pages, 1008 tokens.
  CHECK(output(calc, "paged_bytes") == 1008 * kLlama13bKv);
  CHECK(output(calc, "paged_waste") == Approx(1 - 1000.0 / 1008).epsilon(1e-12));
  const double paged = std::floor(budget / (1008 * kLlama13bKv));
  CHECK(output(calc, "paged_requests") == paged);
  CHECK(output(calc, "gain") == Approx(paged / padded).epsilon(1e-12));
}

TEST_CASE("the length distributions' grids have the means their shapes give",
          "[inference][kv-allocator]") {
  SECTION("uniform over (0, 16]: the thousand midpoints fall 63, 62, 63, ... on 1..16") {
    // (63 (1 + 3 + ... + 15) + 62 (2 + 4 + ... + 16)) / 1000 = (4032 + 4464) / 1000
    Calculation calc = run(
        "kv-allocator",
        {{"lengths", Value::of("uniform")}, {"mean", Value::of(8.0)}, {"page", Value::of(1.0)}});
    CHECK(output(calc, "mean_length") == Approx(8.496).epsilon(1e-12));
    CHECK(output(calc, "paged_waste") == Approx(0).margin(1e-15));
  }
  SECTION("exponential: E[ceil(X)] = 1 / (1 - e^(-1/m)), about m + 1/2") {
    Calculation calc =
        run("kv-allocator", {{"mean", Value::of(1024.0)}, {"max_context", Value::of(1e7)}});
    CHECK(output(calc, "mean_length") == Approx(1 / (1 - std::exp(-1.0 / 1024))).epsilon(0.01));
  }
  SECTION("capped at the context limit, the mean falls below the distribution's") {
    Calculation calc =
        run("kv-allocator", {{"mean", Value::of(1024.0)}, {"max_context", Value::of(1024.0)}});
    // E[min(X, m)] = m (1 - 1/e) for an exponential of mean m.
    CHECK(output(calc, "mean_length") == Approx(1024 * (1 - std::exp(-1.0))).epsilon(0.01));
  }
}

TEST_CASE("two 3-token prompts sharing 2 tokens compute 1/3 of the second (the book's example)",
          "[inference][kv-allocator]") {
  // One page per token; HBM for exactly four tokens' caches beside the weights, so one request
  // fits alone (3 tokens) and two fit sharing their 2-token prefix (3 + 1).
  const double hbm = llama13b_weights() + 4 * kLlama13bKv;
  Calculation calc = run("kv-allocator", {{"chips", Value::of(1.0)},
                                          {"hbm_capacity", Value::of(hbm)},
                                          {"lengths", Value::of("fixed")},
                                          {"mean", Value::of(3.0)},
                                          {"max_context", Value::of(3.0)},
                                          {"page", Value::of(1.0)},
                                          {"prefix", Value::of(2.0)},
                                          {"share", Value::of(1.0)}});
  CHECK(output(calc, "budget") == 4 * kLlama13bKv);
  CHECK(output(calc, "paged_requests") == 1);
  // inference-we-prefix-cache: "only the 1 new token of 3 is prefilled".
  CHECK(output(calc, "prefill_fraction") == Approx(1.0 / 3).epsilon(1e-12));
  CHECK(output(calc, "shared_requests") == 2);
  CHECK(output(calc, "sharing") == 2);
  // Over both prompts, 2 of 6 tokens are not recomputed: the outline's "1/3 of the compute".
  CHECK(output(calc, "compute_saved") == Approx(1.0 / 3).epsilon(1e-12));
  CHECK(output(calc, "bytes_saved") == 2 * kLlama13bKv);
}

TEST_CASE("only the prefix's whole pages are shared", "[inference][kv-allocator]") {
  // 100 prefix tokens in pages of 16: 6 whole pages, 96 tokens; the default half of the
  // requests share.
  Calculation calc = run(
      "kv-allocator",
      {{"lengths", Value::of("fixed")}, {"mean", Value::of(1000.0)}, {"prefix", Value::of(100.0)}});
  CHECK(output(calc, "shared_bytes") == 96 * kLlama13bKv);
  CHECK(output(calc, "shared_tokens") == 100);
  const double budget = output(calc, "budget");
  const double n = output(calc, "shared_requests");
  // n is the largest count whose pages fit with floor(n / 2) sharers.
  auto bytes = [](double r) {
    return r * 1008 * kLlama13bKv - (std::floor(r / 2) - 1) * 96 * kLlama13bKv;
  };
  CHECK(bytes(n) <= budget);
  CHECK(bytes(n + 1) > budget);
  CHECK(output(calc, "sharing") == std::floor(n / 2));
}

TEST_CASE("requests made wholly of the shared prefix have no limit, and say so",
          "[inference][kv-allocator]") {
  Calculation calc = run("kv-allocator", {{"lengths", Value::of("fixed")},
                                          {"mean", Value::of(16.0)},
                                          {"prefix", Value::of(16.0)},
                                          {"share", Value::of(1.0)}});
  const Value& v = output_value(calc, "shared_requests");
  CHECK(v.is_none());
  CHECK(v.text == "every request is wholly the shared prefix: no limit");
}

TEST_CASE("kv-allocator's numbers-only path matches the explained one",
          "[inference][kv-allocator]") {
  Inputs in = {{"lengths", Value::of("uniform")}, {"dtype_kv", Value::of("int8")}};
  Result<Calculation> bare = calculate("kv-allocator", in, {false, {}});
  REQUIRE(bare.ok());
  Calculation explained = run("kv-allocator", in);
  CHECK(output(explained, "kv_per_token") == kLlama13bKv / 2);
  check_same_outputs(explained, bare.value());
}

TEST_CASE("kv-allocator refuses bad input by name", "[inference][kv-allocator][errors]") {
  auto error = [](Inputs in) { return run_error("kv-allocator", in); };
  check_error(error({{"mean", Value::of(9000.0)}}), ErrorCode::out_of_range, "mean",
              "mean must be <= max_context (8192), got 9000");
  check_error(error({{"page", Value::of(4096.0)},
                     {"max_context", Value::of(2048.0)},
                     {"mean", Value::of(100.0)}}),
              ErrorCode::out_of_range, "page", "page must be <= max_context (2048), got 4096");
  check_error(error({{"prefix", Value::of(9000.0)}}), ErrorCode::out_of_range, "prefix",
              "prefix must be <= max_context (8192), got 9000");
  check_error(error({{"model", Value::of("llama-3-70b")}, {"chips", Value::of(1.0)}}),
              ErrorCode::out_of_range, "chips",
              "the weights (1.41107e11 B) fill the HBM of chips=1 (1.6e10 B), leaving none for "
              "KV caches; add chips or choose a smaller dtype_weights");
  check_error(error({{"lengths", Value::of("normal")}}), ErrorCode::invalid_argument, "lengths",
              "lengths must be one of fixed, uniform, exponential, got \"normal\"");
  check_error(error({{"share", Value::of(1.5)}}), ErrorCode::out_of_range, "share",
              "share must be <= 1, got 1.5");
  check_error(error({{"page", Value::of(0.0)}}), ErrorCode::out_of_range, "page",
              "page must be >= 1, got 0");
  check_error(error({{"mean", Value::of(std::nan(""))}}), ErrorCode::invalid_argument, "mean",
              "mean must be a finite number, got nan");
  check_error(error({{"chips", Value::of(2.5)}}), ErrorCode::invalid_argument, "chips",
              "chips must be a whole number, got 2.5");
  check_error(error({{"hbm_capacity", Value::of(0.0)}}), ErrorCode::out_of_range, "hbm_capacity",
              "hbm_capacity must be >= 1, got 0");
}
