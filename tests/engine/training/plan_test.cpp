// The training-plan calculator against chapter 6's sharding questions
// (problems/applied-training.json: t7, t8, t9, q1, q2b and wx-final-mesh): the numbers derived
// by hand from the v5p's C = 4.59e14 FLOP/s and W_ici = 2 x 9e10 B/s (alpha = 2550), with the
// book's rounded figure beside each where it prints one.
#include <cmath>
#include <string>

#include "helpers.h"
#include "scalebook/core/registry.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

Calculation plan(Inputs in = {}) { return run("training-plan", in); }
Error bad(Inputs in) { return run_error("training-plan", in); }

std::string out_text(const Calculation& c, const std::string& name) {
  return output_value(c, name).text;
}

constexpr double kB = 4194304;  // 4 x 1024 x 1024 tokens: 1024 sequences of 4096

}  // namespace

TEST_CASE("t7: 1024 sequences cannot give every one of 8960 chips a whole sequence", "[plan]") {
  Calculation c = plan();
  CHECK(output(c, "sequences") == kB / 4096);
  CHECK(output(c, "sequences") == 1024);
  CHECK(out_text(c, "whole_sequences") == "no");
  // 1024 chips would do.
  CHECK(out_text(plan({{"chips", num(1024)}}), "whole_sequences") == "yes");
  CHECK(out_text(plan({{"chips", num(1025)}}), "whole_sequences") == "no");
}

TEST_CASE("t8: FSDP with sequence sharding has 468 tokens per chip, under 2550 / 3 = 850",
          "[plan]") {
  Calculation c = plan();
  CHECK(output(c, "alpha") == Approx(4.59e14 / 1.8e11));
  CHECK(output(c, "alpha") == Approx(2550));
  CHECK(output(c, "tokens_per_chip") == Approx(kB / 8960));
  CHECK(output(c, "tokens_per_chip") == Approx(468).epsilon(0.001));
  CHECK(output(c, "critical_batch") == Approx(850));
  CHECK(out_text(c, "fsdp_ok") == "no");
  // Over one axis the threshold is 2550 and over two 1275: still no; 4096 chips on 3 axes
  // give 1024 tokens each, which is enough.
  CHECK(output(plan({{"M_fsdp", num(1)}}), "critical_batch") == Approx(2550));
  CHECK(out_text(plan({{"chips", num(4096)}}), "fsdp_ok") == "yes");
}

TEST_CASE("t9: mixed FSDP + TP needs 2550^2 / (2 F) = 113 tokens per chip; X_opt 1618 -> 2048 x 4",
          "[plan]") {
  Calculation c = plan();
  CHECK(output(c, "mixed_batch") == Approx(2550.0 * 2550 / (2 * 28672)));
  CHECK(output(c, "mixed_batch") == Approx(113).epsilon(0.004));
  CHECK(out_text(c, "mixed_ok") == "yes");
  // sqrt(2 B N / F) with the exact 4,194,304 tokens; the book's 1618 takes 4.19e6.
  CHECK(output(c, "x_opt") == Approx(std::sqrt(2 * kB * 8960 / 28672)));
  CHECK(output(c, "x_opt") == Approx(1618).epsilon(0.001));
  CHECK(output(c, "y_opt") == Approx(8960 / std::sqrt(2 * kB * 8960 / 28672)));
  CHECK(output(c, "mixed_ratio") == Approx(std::sqrt((kB / 8960) / (2550.0 * 2550 / 57344))));
  CHECK(output(c, "max_tp") == Approx(28672 / 2550.0));
  CHECK(output(c, "fsdp_degree") == 2048);
  CHECK(output(c, "tp_degree") == 4);
  CHECK(out_text(c, "tp_ok") == "yes");
}

TEST_CASE("wx-final-mesh: 1024 data x 2 sequence x 4 tensor on 8192 of the pod's 8960 chips",
          "[plan]") {
  Calculation c = plan();
  CHECK(output(c, "data_degree") == 1024);
  CHECK(output(c, "sequence_degree") == 2);
  CHECK(output(c, "chips_used") == 8192);
  CHECK(out_text(c, "mesh") ==
        "2048-way FSDP (1024 data x 2 sequence) x 4-way TP on 8192 of 8960 chips");
  CHECK(out_text(c, "dcn_ok") == "yes");
  // When FSDP alone is compute-bound it takes every chip: 4096 chips, 1024 tokens each.
  CHECK(out_text(plan({{"chips", num(4096)}}), "mesh") ==
        "4096-way FSDP (1024 data x 4 sequence) on 4096 chips");
}

TEST_CASE("q1: four pods give 117 tokens per chip, just over 113; 1M tokens per pod clear DCN",
          "[plan]") {
  Calculation c = plan({{"chips", num(35840)}, {"slices", num(4)}});
  CHECK(output(c, "tokens_per_chip") == Approx(kB / 35840));
  CHECK(output(c, "tokens_per_chip") == Approx(117.0).epsilon(0.05));
  CHECK(out_text(c, "mixed_ok") == "yes");
  CHECK(output(c, "mixed_ratio") == Approx(1.016).epsilon(0.03));
  CHECK(output(c, "tokens_per_slice") == 1048576);
  // C / W_dcn = 4.59e14 / 6.25e9.
  CHECK(output(c, "dcn_batch") == Approx(73440));
  CHECK(out_text(c, "dcn_ok") == "yes");
  CHECK(output(c, "x_opt") == Approx(std::sqrt(2 * 1048576.0 * 8960 / 28672)));
  CHECK(output(c, "x_opt") == Approx(809.5).epsilon(0.01));
  CHECK(out_text(c, "mesh") ==
        "4-way DP over DCN x 1024-way FSDP (256 data x 4 sequence) x 8-way TP on 32768 of 35840 "
        "chips");
}

TEST_CASE("q2b: LLaMA 3 405B on 8 pods is communication-bound at 4M tokens, not at 16M", "[plan]") {
  Inputs in = {{"model", text("llama-3-405b")}, {"chips", num(71680)}, {"slices", num(8)}};
  Calculation c = plan(in);
  CHECK(output(c, "mixed_batch") == Approx(2550.0 * 2550 / (2 * 53248)));
  CHECK(output(c, "mixed_batch") == Approx(61.06).epsilon(0.005));
  CHECK(output(c, "tokens_per_chip") == Approx(58.51).epsilon(0.005));
  CHECK(out_text(c, "mixed_ok") == "no");
  CHECK(output(c, "tokens_per_slice") == 524288);
  CHECK(out_text(c, "dcn_ok") == "yes");
  CHECK(output(c, "max_tp") == Approx(20.88).epsilon(0.01));
  in["B"] = num(16777216);
  Calculation big = plan(in);
  CHECK(output(big, "tokens_per_chip") == Approx(234.1).epsilon(0.005));
  CHECK(out_text(big, "mixed_ok") == "yes");
  CHECK(output(big, "x_opt") == Approx(840.1).epsilon(0.01));
  CHECK(output(big, "fsdp_degree") == 1024);
  CHECK(output(big, "tp_degree") == 8);
}

TEST_CASE("training-plan: every number has its worked step", "[plan]") {
  Calculation c = plan({{"chips", num(35840)}, {"slices", num(4)}});
  for (const char* name :
       {"sequences", "tokens_per_chip", "alpha", "critical_batch", "mixed_batch", "mixed_ratio",
        "x_opt", "y_opt", "max_tp", "tokens_per_slice", "dcn_batch", "chips_used", "fsdp_degree",
        "tp_degree", "data_degree", "sequence_degree"}) {
    bool found = false;
    for (const Step& s : c.steps)
      if (s.output == name) {
        found = true;
        CHECK(s.value == Approx(output(c, name)));
      }
    CHECK(found);
  }
}

TEST_CASE("training-plan: bad input names the field", "[plan][errors]") {
  check_error(bad({{"chips", num(0)}}), ErrorCode::out_of_range, "chips",
              "chips must be >= 1, got 0");
  check_error(bad({{"chips", num(1.5)}}), ErrorCode::invalid_argument, "chips",
              "chips must be a whole number, got 1.5");
  check_error(bad({{"chips", num(NAN)}}), ErrorCode::invalid_argument, "chips",
              "chips must be a finite number, got nan");
  check_error(bad({{"B", num(4194305)}}), ErrorCode::invalid_argument, "B",
              "B = 4194305 tokens must be whole sequences of T = 4096 tokens");
  check_error(bad({{"model", text("llama-9")}}), ErrorCode::invalid_argument, "model",
              "model must be one of llama-3-70b, llama-3-8b, llama-3-405b, llama-2-13b, "
              "gemma-7b, gemma-2-27b, deepseek-v3, transformers-q1, inference-q1, "
              "inference-q5-moe, custom, book-mlp, got \"llama-9\"");
  check_error(bad({{"chip", text("h100")}}), ErrorCode::unsupported, "chip",
              "training-plan lays out a TPU pod over ICI, and h100 has no ICI torus in the "
              "catalog; pick a TPU");
  check_error(bad({{"slices", num(3)}}), ErrorCode::invalid_argument, "slices",
              "chips = 8960 do not split into 3 equal pods");
  check_error(bad({{"chips", num(3 * 512)}, {"slices", num(3)}}), ErrorCode::invalid_argument, "B",
              "B = 4194304 tokens is 1024 sequences, which do not split over 3 pods");
  check_error(bad({{"M_X", num(3)}}), ErrorCode::invalid_argument, "M_Y",
              "M_X + M_Y = 4 axes, but the chip's slices have 3");
  // A v5e slice has two axes: the counts default to them, and three are refused.
  CHECK(output(plan({{"chip", text("tpu-v5e")}}), "critical_batch") ==
        Approx(output(plan({{"chip", text("tpu-v5e")}}), "alpha") / 2));
  check_error(bad({{"chip", text("tpu-v5e")}, {"M_fsdp", num(3)}}), ErrorCode::invalid_argument,
              "M_fsdp", "M_fsdp = 3 axes, but the chip's slices have 2");
  // One sequence of 1000 tokens over 16384 chips: X = 32, each sequence in 32 parts.
  check_error(bad({{"B", num(1000)}, {"T", num(1000)}, {"chips", num(16384)}}),
              ErrorCode::invalid_argument, "T",
              "T = 1000 tokens does not cut into the 32 parts a sequence needs for 32-way FSDP "
              "over 1 whole sequences a pod; give a T divisible by 32");
}
