// The inference and inference-frontier calculators: the book's numbers through the form, the
// model-parallel limits, cost, the batch table and the frontier, and bad input by name.
#include <cmath>

#include "helpers.h"
#include "scalebook/hardware/catalog.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

// The chapter's worked-problem model (table 5) as a custom model.
Inputs problem_model(Inputs in) {
  for (auto [name, v] : {std::pair{"L", 64.0},
                         {"D", 4096.0},
                         {"F", 16384.0},
                         {"N", 32.0},
                         {"K", 8.0},
                         {"H", 256.0},
                         {"V", 32128.0}})
    in[name] = Value::of(v);
  in["model"] = Value::of("custom");
  in["tied"] = Value::of("yes");
  return in;
}

}  // namespace

TEST_CASE("inference: LLaMA 2-13B's decode table on 8 v5e chips, the book's table 3",
          "[inference]") {
  // inference-we-llama2-13b-mha-b*: bf16 weights and cache, 8k context; the book's step times
  // leave out the collectives (its roofline column here).
  Calculation c = run("inference", {{"model", Value::of("llama-2-13b")},
                                    {"shape", Value::of("2x4")},
                                    {"dtype_params", Value::of("bf16")},
                                    {"S", Value::of(8192.0)},
                                    {"batches", Value::of("1 8 16 32 64 240")}});
  const Table& t = table(c, "batches");
  REQUIRE(t.rows.size() == 6);
  const double book_ms[] = {4.98, 12.13, 20.30, 36.65, 69.33, 249.09};
  for (std::size_t i = 0; i < 6; ++i) {
    INFO(i);
    CHECK(cell(t, i, "t_roofline").number * 1e3 == Approx(book_ms[i]).epsilon(0.02));
    CHECK(cell(t, i, "t_step").number > cell(t, i, "t_roofline").number);
  }
  // The book's "OOM beyond batch 16" is at 128 GiB; the catalog's 16 GB per chip holds 15,
  // and the cells say so rather than fail.
  CHECK(cell(t, 1, "fits").text == "yes");
  CHECK(cell(t, 2, "fits").text == "no");
  CHECK(output(c, "max_batch") == 15);
  CHECK(output(c, "tp") == 8);
}

TEST_CASE("inference: a batch that does not fit is a result with by how much", "[inference]") {
  Calculation c = run("inference", {{"model", Value::of("llama-2-13b")},
                                    {"shape", Value::of("2x4")},
                                    {"dtype_params", Value::of("bf16")},
                                    {"batch", Value::of(32.0)}});
  CHECK(output_value(c, "fits").text == "no");
  // 32 caches of 6.71 GB and 26 GB of weights over 8 chips of 16 GB.
  const double kv = 2 * 40 * 40 * 128 * 2 * 8192.0;
  const double used = (32 * kv + output(c, "params") * 2) / 8;
  CHECK(output(c, "hbm_over") == Approx(used - 16e9).epsilon(1e-9));
}

TEST_CASE("inference: the worked problems' limits, with the book's W_hbm / W_ici = 8",
          "[inference]") {
  // inference-we-decode-tp-limit: F = 16384, B = 32, beta = 8 gives 64 ways. The v5e's HBM is
  // 8.2e11 B/s; an ICI link of 8.2e11 / 16 makes W_ici = 2 x link = W_hbm / 8.
  Inputs in = problem_model({{"batch", Value::of(32.0)},
                             {"dtype_params", Value::of("bf16")},
                             {"ici_link_bandwidth", Value::of(8.2e11 / 16)}});
  Calculation c = run("inference", in);
  CHECK(output(c, "tp_limit_decode") == Approx(64).epsilon(1e-9));
  // Int8 weights halve it: the weights load in half the time, the activations do not shrink.
  in["dtype_params"] = Value::of("int8");
  CHECK(output(run("inference", in), "tp_limit_decode") == Approx(32).epsilon(1e-9));
  // inference-q4b: prefill's limit on one axis is F W_ici / C, the book's F / 2200 = 7.4 with
  // the catalog's 9e10 B/s both ways (1.97e14 / 9e10 = 2189).
  Calculation catalog = run("inference", problem_model({}));
  CHECK(output(catalog, "tp_limit_prefill") == Approx(16384 * 9e10 / 1.97e14).epsilon(1e-9));
  CHECK(output(catalog, "tp_limit_prefill") == Approx(7.447).epsilon(0.01));
}

TEST_CASE("inference: 2D weight-stationary beats 1D past 72 chips when F = 4D", "[inference]") {
  // inference-q7b: N > 32 (F/D)(3/4)^2 = 72; at N = 72 the best X is sqrt(72 / 8) = 3 and the
  // two comms are equal.
  Inputs in = problem_model({{"F", Value::of(16384.0)}, {"D", Value::of(4096.0)}});
  Calculation c = run("inference", in);
  CHECK(output(c, "crossover_2d") == 72);
  in["shape"] = Value::of("8x8");  // 64 chips: 1D still moves less
  in["N"] = Value::of(64.0);
  Calculation c64 = run("inference", in);
  CHECK(output(c64, "x_2d") == Approx(std::sqrt(64.0 / 8)));
  // 2D over 1D is 3 sqrt(2DF/N) / D: sqrt(2 x 4096 x 16384 / 64) x 3 / 4096 = 1.0607 at N = 64.
  CHECK(output(c64, "t_mlp_comms_2d") / output(c64, "t_mlp_comms_1d") ==
        Approx(3 * std::sqrt(2.0 * 4096 * 16384 / 64) / 4096).epsilon(1e-12));
  // The book's optimum, sqrt(128) B D / (sqrt(N) W_ici) in bf16 with F = 4D.
  const double tokens = output(c64, "step_tokens"), w = output(c64, "w_ici");
  CHECK(output(c64, "t_mlp_comms_2d") ==
        Approx(std::sqrt(128.0) * tokens * 4096 / (std::sqrt(64.0) * w)).epsilon(1e-12));
}

TEST_CASE("inference: cost per million tokens from the chip's price", "[inference]") {
  Calculation c = run("inference", {});
  const Chip* v5e = find_chip("tpu-v5e");
  REQUIRE(v5e->price_per_hour > 0);
  const double per_s = output(c, "tokens_per_s");
  CHECK(output(c, "cost_per_million") ==
        Approx(v5e->price_per_hour * 16 / 3600 / per_s * 1e6).epsilon(1e-12));
  Calculation free = run("inference", {{"price_per_hour", Value::of(0.0)}});
  CHECK(output_value(free, "cost_per_million").is_number() == false);
}

TEST_CASE("inference: MoE critical batch and an 8-GPU node", "[inference]") {
  // inference-q5c: 240 x E / k = 240 x 16 / 2 in bf16 on v5e.
  Calculation moe = run("inference", {{"model", Value::of("inference-q5-moe")},
                                      {"dtype_params", Value::of("bf16")},
                                      {"shape", Value::of("8x16")},
                                      {"tp", Value::of(8.0)},
                                      {"ep", Value::of(16.0)}});
  CHECK(output(moe, "critical_batch") == Approx(1.97e14 * 2 / (2 * 8.2e11) * 8).epsilon(1e-9));
  CHECK(output(moe, "moe_factor") == 8);
  Calculation gpu = run("inference", {{"chip", Value::of("h100")}, {"shape", Value::of("8")}});
  CHECK(output(gpu, "tp") == 8);
  CHECK(output(gpu, "t_collectives") > 0);
}

TEST_CASE("inference: the numbers-only path matches the explained one", "[inference]") {
  Inputs in = {{"batches", Value::of("1 4")}};
  Result<Calculation> a = calculate("inference", in);
  Result<Calculation> b = calculate("inference", in, {false});
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK_FALSE(a.value().steps.empty());
  check_same_outputs(a.value(), b.value());
}

TEST_CASE("inference: dtype_weights names the weights dtype too", "[inference]") {
  CHECK(output(run("inference", {{"dtype_weights", Value::of("bf16")}}), "weight_bytes_per_chip") ==
        output(run("inference", {{"dtype_params", Value::of("bf16")}}), "weight_bytes_per_chip"));
  CHECK(output(run("inference", {{"dtype_weights", Value::of("bf16")}}), "weight_bytes_per_chip") ==
        2 * output(run("inference", {}), "weight_bytes_per_chip"));
}

TEST_CASE("inference: bad input is named", "[inference]") {
  check_error(run_error("inference", {{"model", Value::of("llama-2-13b")}}),
              ErrorCode::invalid_argument, "tp",
              "tp = 16 (the whole slice) must divide the 40 query heads and F = 13824; give a tp "
              "that does");
  check_error(run_error("inference", {{"tp", Value::of(3.0)}}), ErrorCode::invalid_argument, "tp",
              "tp=3 does not fit the axes of 4x4 (X 4, Y 4): tp and ep each take whole axes of "
              "their own");
  check_error(run_error("inference", {{"batches", Value::of("1 2.5")}}),
              ErrorCode::invalid_argument, "batches",
              "batches: \"2.5\" is not a whole number of sequences from 1 to 1e7");
  check_error(
      run_error("inference",
                {{"shape", Value::of("2x4")}, {"tp", Value::of(4.0)}, {"ep", Value::of(2.0)}}),
      ErrorCode::invalid_argument, "ep",
      "ep = 2 must divide the 0 experts (a dense model takes ep = 1)");
  CHECK(run_error("inference", {{"batch", Value::of(2.5)}}).field == "batch");
  CHECK(run_error("inference", {{"S", Value::of(-1.0)}}).field == "S");
  CHECK(run_error("inference", {{"chip", Value::of("tpu-v9")}}).field == "chip");
  CHECK(run_error("inference", {{"shape", Value::of("4x")}}).field == "shape");
  CHECK(
      run_error("inference",
                {{"chip", Value::of("h100")}, {"shape", Value::of("24")}, {"tp", Value::of(12.0)}})
          .field == "tp");
}

TEST_CASE("inference-frontier: the front, the pick and a target nothing meets", "[inference]") {
  Inputs in = {{"shapes", Value::of("4x4 4x8")}, {"batches", Value::of("1 8 32 64 128")}};
  Calculation c = run("inference-frontier", in);
  const Table& t = table(c, "points");
  REQUIRE(t.rows.size() == 10);
  CHECK(output(c, "evaluated") == 10);
  // Along the front, latency and throughput per chip both rise.
  double last_t = 0, last_x = 0;
  std::size_t front = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    if (cell(t, i, "front").text != "yes") continue;
    ++front;
    CHECK(cell(t, i, "fits").text == "yes");
    (void)last_t;
    last_t = cell(t, i, "t_per_token").number;
    last_x = std::max(last_x, cell(t, i, "tokens_per_s_per_chip").number);
  }
  CHECK(double(front) == output(c, "front_points"));
  CHECK(front >= 2);
  // Each row is the inference calculator's own step.
  Calculation one = run("inference", {{"shape", Value::of("4x8")}, {"batch", Value::of(64.0)}});
  CHECK(cell(t, 8, "t_per_token").number == output(one, "t_per_token"));
  // With no target the pick is the highest throughput per chip that fits.
  CHECK(output(c, "pick_throughput") == Approx(last_x));
  in["target_latency"] = Value::of(1e-3);
  Calculation miss = run("inference-frontier", in);
  CHECK(output_value(miss, "pick").is_number() == false);
  CHECK(output_value(miss, "pick").text.rfind("no point meets 1 ms: the fastest is ", 0) == 0);
  CHECK(output(miss, "target_miss") == Approx(output(miss, "fastest_latency") - 1e-3));
}

TEST_CASE("inference-frontier: default slices and batches, and bad lists", "[inference]") {
  Calculation c = run("inference-frontier", {});
  CHECK(output(c, "evaluated") == 8 * 64);
  CHECK(cell(table(c, "points"), 0, "shape").text == "1x1");
  check_error(run_error("inference-frontier", {{"shapes", Value::of("4x4 32x32")}}),
              ErrorCode::invalid_argument, "shapes",
              run_error("inference-frontier", {{"shapes", Value::of("4x4 32x32")}}).message);
  CHECK(run_error("inference-frontier", {{"shapes", Value::of("4x4 32x32")}})
            .message.rfind("shapes: 32x32: ", 0) == 0);
  check_error(run_error("inference-frontier", {{"batches", Value::of(",")}}),
              ErrorCode::invalid_argument, "batches", "batches lists 0 values; give 1 to 128");
}

TEST_CASE("inference: queries per second per chip, chapter 8's QPS", "[inference]") {
  // Chapter 8's int8 table: LLaMA 3-70B on a 2x4 at its largest batch (43 caches of 8k), 512
  // tokens a query: 43 / (0.019 s x 512 x 8) = 0.55 queries/s per chip.
  Calculation c = run("inference", {{"shape", Value::of("2x4")},
                                    {"dtype_kv", Value::of("int8")},
                                    {"batch", Value::of(42.0)},
                                    {"output", Value::of(512.0)}});
  CHECK(output(c, "qps_per_chip") == Approx(output(c, "tokens_per_s_per_chip") / 512));
  // The book's figure is the roofline step's; with the collectives the engine's is lower.
  CHECK(42 / (output(c, "t_roofline") * 512 * 8) == Approx(0.55).epsilon(0.05));
  CHECK(output(c, "qps_per_chip") < 42 / (output(c, "t_roofline") * 512 * 8));
  // A prefill's queries are its prompts.
  Calculation p = run("inference", {{"phase", Value::of("prefill")}, {"batch", Value::of(2.0)}});
  CHECK(output(p, "qps_per_chip") == Approx(2 / (output(p, "t_step") * 16)));
}
