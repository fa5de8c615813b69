// The training-budget calculator against chapter 6's numbers (problems/applied-training.json,
// t1..t6 and q2a): parameters by block, 6PT, the days on a pod, the memory floor. Exact values
// are pinned where the inputs make them exact; the book's rounded number sits beside each with
// the tolerance its problem file gives.
#include <cmath>
#include <string>

#include "helpers.h"
#include "scalebook/core/registry.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

Calculation budget(Inputs in) { return run("training-budget", in); }

Error bad(Inputs in) { return run_error("training-budget", in); }

// The book's own inputs for t2..t6: 70e9 parameters rather than the count.
Inputs book(Inputs more = {}) {
  Inputs in = {{"params", num(70e9)}, {"batch", num(4e6)}};
  for (auto& [k, v] : more) in[k] = v;
  return in;
}

constexpr double kYear = 365.25 * 86400;

}  // namespace

TEST_CASE("LLaMA 3 70B's configuration: F / D = 3.5 and 8 query heads per key/value head",
          "[budget]") {
  Calculation c = budget({});
  CHECK(output(c, "layers") == 80);
  CHECK(output(c, "d_model") == 8192);
  CHECK(output(c, "d_ff") == 28672);
  CHECK(output(c, "heads") == 64);
  CHECK(output(c, "kv_heads") == 8);
  CHECK(output(c, "head_dim") == 128);
  CHECK(output(c, "vocab") == 128256);
  CHECK(output(c, "ffw_ratio") == 3.5);
  CHECK(output(c, "query_groups") == 8);
}

TEST_CASE("LLaMA 3 70B's parameters by block are the book's 56.3e9, 12e9 and 2.1e9 (t1)",
          "[budget]") {
  Calculation c = budget({});
  // 3 L D F, 2 L D H (N + K), 2 V D: exact integers.
  CHECK(output(c, "params_mlp") == 3.0 * 80 * 8192 * 28672);
  CHECK(output(c, "params_mlp") == 56371445760.0);
  CHECK(output(c, "params_attention") == 80.0 * 2 * 8192 * 128 * (64 + 8));
  CHECK(output(c, "params_attention") == 12079595520.0);
  CHECK(output(c, "params_embedding") == 2101346304.0);
  // Two norms per layer and a final one: the only parameters the book leaves out.
  CHECK(output(c, "params_norm") == 80.0 * 2 * 8192 + 8192);
  CHECK(output(c, "params_model") == 56371445760.0 + 12079595520.0 + 2101346304.0 + 1318912.0);
  CHECK(output(c, "params_model") == Approx(70.4e9).epsilon(0.005));
  CHECK(output(c, "params_mlp") == Approx(56.3e9).epsilon(0.002));
  CHECK(output(c, "mlp_share") == Approx(0.799).epsilon(0.001));
  CHECK(output(c, "params") == output(c, "params_model"));  // dense: every parameter is active
}

TEST_CASE("6P is 4.2e11 FLOPs a token, about a millisecond on one v5p (t2)", "[budget]") {
  Calculation c = budget(book());
  CHECK(output(c, "flops_per_token") == 4.2e11);
  CHECK(output(c, "t_token_chip") == Approx(4.2e11 / 4.59e14).epsilon(1e-12));
  CHECK(output(c, "t_token_chip") == Approx(1e-3).epsilon(0.1));
  // Attention's extra at T = 4096, not in 6P: 3 x 4 T N H L.
  CHECK(output(c, "flops_attention_per_token") == 3.0 * 4 * 4096 * 64 * 128 * 80);
  CHECK(output(c, "flops_per_token_total") == 4.2e11 + 3.0 * 4 * 4096 * 64 * 128 * 80);
  Calculation causal = budget(book({{"causal", text("yes")}}));
  CHECK(output(causal, "flops_attention_per_token") == 1.5 * 4 * 4096 * 64 * 128 * 80);
}

TEST_CASE("15T tokens are 6.3e24 FLOPs, 435 years on one v5p (t3)", "[budget]") {
  Calculation c = budget(book());
  CHECK(output(c, "flops_total") == Approx(6.3e24).epsilon(1e-12));
  CHECK(output(c, "peak_flops") == 4.59e14);
  CHECK(output(c, "t_one_chip") == Approx(6.3e24 / 4.59e14).epsilon(1e-12));
  CHECK(output(c, "t_one_chip_years") == Approx(434.9345386239268).epsilon(1e-9));
  // Counting attention adds its share to the run.
  Calculation with = budget(book({{"count_attention", text("yes")}}));
  CHECK(output(with, "flops_total") ==
        Approx(15e12 * (4.2e11 + 3.0 * 4 * 4096 * 64 * 128 * 80)).epsilon(1e-12));
}

TEST_CASE("a full v5p pod at 40% MFU takes 3.8e6 s, 44 days (t4)", "[budget]") {
  Calculation c = budget(book());
  CHECK(output(c, "chips") == 8960);
  CHECK(output(c, "run_seconds") == Approx(3829656.8627450983).epsilon(1e-12));
  CHECK(output(c, "run_days") == Approx(44.3247322076979).epsilon(1e-12));
  CHECK(output(c, "run_seconds") == Approx(3.8e6).epsilon(0.01));
  // Steps of the 4e6-token batch, and the time of each.
  CHECK(output(c, "train_steps") == 15e12 / 4e6);
  CHECK(output(c, "step_time") == Approx(3829656.8627450983 / 3.75e6).epsilon(1e-12));
  // One pod given as pods is the same run.
  Calculation pod = budget(book({{"pods", num(1)}, {"chips", num(1)}}));
  CHECK(output(pod, "chips") == 8960);
  CHECK(output(pod, "run_seconds") == output(c, "run_seconds"));
  CHECK(output(budget(book({{"pods", num(4)}})), "run_days") ==
        Approx(44.3247322076979 / 4).epsilon(1e-12));
}

TEST_CASE("chip-hours, the cost at the catalog's 4.20 USD and no energy without a power figure",
          "[budget]") {
  Calculation c = budget(book());
  const double hours = 8960 * 3829656.8627450983 / 3600;
  CHECK(output(c, "chip_hours") == Approx(hours).epsilon(1e-12));
  CHECK(output(c, "price_per_hour") == 4.2);
  CHECK(output(c, "cost") == Approx(hours * 4.2).epsilon(1e-12));  // about 40 million USD
  CHECK(output_value(c, "power").is_none());  // Google publishes no v5p power figure
  CHECK(output_value(c, "energy_mwh").is_none());
  // The reader's own price and power.
  Calculation own = budget(book({{"price_per_hour", num(2)}, {"power", num(500)}}));
  CHECK(output(own, "cost") == Approx(hours * 2).epsilon(1e-12));
  CHECK(output(own, "energy_kwh") == Approx(hours * 500 / 1000).epsilon(1e-12));
  CHECK(output(own, "energy_mwh") == Approx(hours * 500 / 1e6).epsilon(1e-12));
  CHECK(output_value(c, "power").text ==
        "no power figure: the catalog has none for this chip; give power");
  // Free compute costs nothing: a given price of 0 is a price.
  Calculation free = budget(book({{"price_per_hour", num(0)}}));
  CHECK(output(free, "price_per_hour") == 0);
  CHECK(output(free, "cost") == 0);
  CHECK(output(budget(book({{"power", num(0)}})), "energy_mwh") == 0);
  // A chip the catalog has no price for says so.
  Calculation h800 = budget(book({{"chip", text("h800")}}));
  const Value& none = output_value(h800, "cost");
  CHECK(none.is_none());
  CHECK(none.text == "no price: the catalog has none for this chip; give price_per_hour");
}

TEST_CASE("1024 H100s at 700 W: energy from the datasheet's power", "[budget]") {
  Calculation c = budget(book({{"chip", text("h100")}, {"chips", num(1024)}}));
  const double seconds = 6.3e24 / (1024 * 9.89e14 * 0.4);
  CHECK(output(c, "run_seconds") == Approx(seconds).epsilon(1e-12));
  CHECK(output(c, "power") == 700);
  CHECK(output(c, "energy_kwh") == Approx(1024 * 700 * seconds / 3.6e6).epsilon(1e-12));
  CHECK(output(c, "cost") == Approx(1024 * seconds / 3600 * 10.8).epsilon(1e-12));
  // pods mean nothing on a GPU: the catalog has no pod.
  check_error(bad({{"chip", text("h100")}, {"pods", num(2)}}), ErrorCode::unsupported, "pods",
              "h100 has no pod size in the catalog; give chips instead");
}

TEST_CASE("the memory floor is 21.6 TB, 225 v5p chips, which would take 4.8 years (t5)",
          "[budget]") {
  Calculation c = budget(book());
  CHECK(output(c, "mem_params") == 1.4e11);
  CHECK(output(c, "mem_optimizer") == 5.6e11);
  CHECK(output(c, "mem_checkpoints") == 2.0 * 8192 * 4e6 * 4 * 80);
  CHECK(output(c, "mem_checkpoints") == Approx(20.9e12).epsilon(0.01));
  CHECK(output(c, "mem_total") == Approx(21.67152e12).epsilon(1e-12));
  CHECK(output(c, "hbm_capacity") == 96e9);
  // 21.67e12 / 96e9 = 225.7: the book rounds to 225, a chip short; 226 hold it.
  CHECK(output(c, "chips_min") == 226);
  CHECK(output(c, "chips_min") == Approx(225).epsilon(0.01));
  const double days = 6.3e24 / (226 * 4.59e14 * 0.4) / 86400;
  CHECK(output(c, "run_days_min") == Approx(days).epsilon(1e-12));
  CHECK(output(c, "run_seconds_min") == Approx(days * 86400).epsilon(1e-12));
  CHECK(output(c, "run_days_min") == Approx(1752).epsilon(0.01));
  // The erratum: the book says "nearly four years"; 1757 days are 4.8.
  CHECK(output(c, "run_years_min") == Approx(days * 86400 / kYear).epsilon(1e-12));
  CHECK(output(c, "run_years_min") == Approx(4.81).epsilon(0.001));
  // Usable HBM below 1 needs more chips.
  CHECK(output(budget(book({{"usable_hbm", num(0.5)}})), "chips_min") == 452);
}

TEST_CASE("on a full pod each chip holds 2.4 GB; with 12 checkpoints 7.1 GB (t6)", "[budget]") {
  Calculation c = budget(book());
  CHECK(output(c, "mem_per_chip") == Approx(21.67152e12 / 8960).epsilon(1e-12));
  CHECK(output(c, "mem_per_chip") == Approx(2.4e9).epsilon(0.01));
  CHECK(output(c, "mem_fraction") == Approx(21.67152e12 / 8960 / 96e9).epsilon(1e-12));
  CHECK(output_value(c, "fits").text == "yes");
  Calculation twelve = budget(book({{"checkpoints", num(12)}}));
  CHECK(output(twelve, "mem_per_chip") == Approx(7.099839285714286e9).epsilon(1e-12));
  CHECK(output(twelve, "mem_per_chip") == Approx(8e9).epsilon(0.15));  // the book's loose 8 GB
}

TEST_CASE("a run too big for its chips is an answer, not an error: fits says no", "[budget]") {
  Calculation c = budget(book({{"chips", num(64)}}));
  CHECK(output_value(c, "fits").text == "no");
  CHECK(output(c, "chips_min") == 226);
  CHECK(output(c, "mem_fraction") > 1);
}

TEST_CASE("LLaMA 3 405B: 405.8e9 parameters, 2.44e12 FLOPs a token (q2a)", "[budget]") {
  Calculation c = budget({{"model", text("llama-3-405b")}});
  CHECK(output(c, "params_mlp") == 329772957696.0);
  CHECK(output(c, "params_attention") == 71873593344.0);
  CHECK(output(c, "params_embedding") == 4202692608.0);
  CHECK(output(c, "params_model") == 405849243648.0 + 126.0 * 2 * 16384 + 16384);
  CHECK(output(c, "flops_per_token") == Approx(2435095461888.0).epsilon(0.005));
  CHECK(output(c, "flops_total") == Approx(3.652643192832e25).epsilon(0.005));
}

TEST_CASE("training-budget: bad inputs name their field", "[budget][errors]") {
  check_error(bad({{"mfu", num(0)}}), ErrorCode::out_of_range, "mfu", "mfu must be > 0, got 0");
  check_error(bad({{"mfu", num(1.5)}}), ErrorCode::out_of_range, "mfu",
              "mfu must be <= 1, got 1.5");
  check_error(bad({{"tokens", num(-5)}}), ErrorCode::out_of_range, "tokens",
              "tokens must be >= 1, got -5");
  check_error(bad({{"tokens", num(0)}}), ErrorCode::out_of_range, "tokens",
              "tokens must be >= 1, got 0");
  check_error(bad({{"tokens", num(std::nan(""))}}), ErrorCode::invalid_argument, "tokens",
              "tokens must be a finite number, got nan");
  check_error(bad({{"tokens", num(1e20)}}), ErrorCode::out_of_range, "tokens",
              "tokens must be <= 1e17, got 1e20");
  check_error(bad({{"chips", num(2.5)}}), ErrorCode::invalid_argument, "chips",
              "chips must be a whole number, got 2.5");
  check_error(bad({{"chips", num(0)}}), ErrorCode::out_of_range, "chips",
              "chips must be >= 1, got 0");
  check_error(bad({{"price_per_hour", num(-1)}}), ErrorCode::out_of_range, "price_per_hour",
              "price_per_hour must be >= 0, got -1");
  check_error(bad({{"B", num(0)}}), ErrorCode::out_of_range, "B", "B must be >= 1, got 0");
  // batch is another name for B, as in the training calculator.
  check_error(bad({{"batch", num(0)}}), ErrorCode::out_of_range, "B", "B must be >= 1, got 0");
  check_error(bad({{"chip", text("v100")}}), ErrorCode::unsupported, "dtype",
              "v100 has no bf16 peak in the catalog; give peak_flops to set one");
}

TEST_CASE("chapter 5's estimate: a 16M-token batch keeps 19,737 v5p chips busy, 2.2 pods",
          "[budget]") {
  // Pure FSDP over a v5p's three torus axes needs C / (W_ici M_X) = 4.59e14 / (2 x 9e10 x 3)
  // = 850 tokens per chip (chapter 5's 2550 on one axis, over 3).
  Calculation c = budget(
      {{"pods", num(1)}, {"batch", num(16777216)}, {"mfu", num(0.5)}, {"params", num(70e9)}});
  CHECK(output(c, "fsdp_axes") == 3);
  CHECK(output(c, "critical_batch") == Approx(4.59e14 / (2 * 9e10 * 3)).epsilon(1e-12));
  CHECK(output(c, "critical_batch") == Approx(850).epsilon(1e-9));
  CHECK(output(c, "chips_usable") == std::floor(16777216 / (4.59e14 / 5.4e11)));
  CHECK(output(c, "chips_usable") == 19737);
  CHECK(output(c, "pods_usable") == Approx(19737.0 / 8960).epsilon(1e-12));
  // 6PT over those chips at 50%: 6.3e24 / (19737 x 4.59e14 x 0.5).
  CHECK(output(c, "run_days_usable") ==
        Approx(6 * 70e9 * 15e12 / (19737 * 4.59e14 * 0.5) / 86400).epsilon(1e-12));
  CHECK(output_value(c, "comm_bound").text == "no");
  // A 4M batch feeds only 4934 chips: a whole pod is more than it can keep busy.
  Calculation small = budget({{"pods", num(1)}, {"batch", num(4194304)}});
  CHECK(output(small, "chips_usable") == 4934);
  CHECK(output_value(small, "comm_bound").text == "yes");
  // A v5e's 2D torus: two axes, C / (2 x 4.5e10 x 2) = 1094 tokens per chip.
  Calculation v5e = budget({{"chip", text("tpu-v5e")}, {"chips", num(256)}});
  CHECK(output(v5e, "fsdp_axes") == 2);
  CHECK(output(v5e, "critical_batch") == Approx(1.97e14 / (2 * 4.5e10 * 2)).epsilon(1e-12));
  // A GPU has no ICI torus: no estimate, and no error.
  Calculation gpu = budget({{"chip", text("h100")}, {"chips", num(1024)}});
  CHECK(output_value(gpu, "chips_usable").is_none());
  CHECK(output_value(gpu, "comm_bound").is_none());
}
