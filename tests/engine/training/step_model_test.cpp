// The step model against chapter 4's counts and the chapter's own overlap rules: remat's
// recompute, the gradient reductions' window, a split axis's shared links, and what the
// bound says.
#include <string>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value text(const char* s) { return Value::of(s); }
Value num(double x) { return Value::of(x); }

}  // namespace

TEST_CASE("training and transformer count each remat policy's FLOPs the same", "[training]") {
  // The transformer calculator's training FLOPs per token with remat (causal off: the step
  // model counts every key) times the batch's tokens is the training step's FLOPs.
  const double T = 4096;
  const double B = 64 * T;
  for (const char* model :
       {"llama-3-8b", "llama-3-70b", "llama-2-13b", "gemma-7b", "gemma-2-27b", "deepseek-v3"}) {
    for (const char* remat : {"none", "big-matmuls", "ffw-matmuls", "block"}) {
      INFO(model << ", remat " << remat);
      const Calculation tf = run("transformer", {{"model", text(model)},
                                                 {"B", num(1)},
                                                 {"T", num(T)},
                                                 {"causal", text("no")},
                                                 {"remat", text(remat)}});
      const Calculation tr = run("training", {{"model", text(model)},
                                              {"chip", text("tpu-v5p")},
                                              {"shape", text("4x4x4")},
                                              {"B", num(B)},
                                              {"T", num(T)},
                                              {"remat", text(remat)}});
      CHECK(output(tr, "flops_step") ==
            Approx(output(tf, "flops_training_remat") * B).epsilon(1e-12));
      CHECK(output(tr, "flops_model") == Approx(output(tf, "flops_training") * B).epsilon(1e-12));
    }
  }
}

TEST_CASE("the gradient AllReduce over DCN hides under the last backward pass alone",
          "[training]") {
  // The book's layer, FSDP in each of 2 slices, no remat: the backward pass is 2/3 of the
  // step's FLOPs. DCN slowed to 0.6 GB/s per chip makes its AllReduce 1.79 s: shorter than the
  // 1.84 s step of compute, longer than the 1.23 s backward pass, so 0.56 s is exposed.
  Inputs in = {{"model", text("book-mlp")}, {"D", num(8192)},
               {"F", num(32768)},           {"L", num(32)},
               {"chip", text("tpu-v5p")},   {"shape", text("4x4x4")},
               {"fsdp_axes", text("XYZ")},  {"slices", num(2)},
               {"B", num(1048576)},         {"T", num(4096)},
               {"remat", text("none")},     {"dcn_bandwidth", num(6e8)}};
  const Calculation c = run("training", in);
  const double busy = output(c, "t_compute");
  CHECK(output(c, "t_backward") == Approx(busy * 2 / 3).epsilon(1e-12));
  CHECK(output(c, "t_dcn") < busy);
  CHECK(output(c, "t_dcn") > output(c, "t_backward"));
  CHECK(output(c, "t_critical") == 0);
  CHECK(output(c, "exposed_comm") ==
        Approx(output(c, "t_dcn") - output(c, "t_backward")).epsilon(1e-12));
  CHECK(output(c, "step_time") == Approx(busy + output(c, "exposed_comm")).epsilon(1e-12));
  CHECK(output_value(c, "bound_detail").text ==
        "compute-bound; 563 ms more (23% of the step) waits on communication: 563 ms of DCN "
        "gradient AllReduce that outlasts the last backward pass");
  // With 2 accumulation steps the reduction waits for the second's backward: half the window.
  in["grad_accum"] = num(2);
  const Calculation twice = run("training", in);
  CHECK(output(twice, "t_backward") == Approx(output(twice, "t_compute") / 3).epsilon(1e-12));
}

TEST_CASE("a strategy over both parts of a split axis uses its links once", "[training]") {
  // X and X' of a split X4 are the 4 neighbours and the 4 groups of them: together, the whole
  // 16-chip axis. FSDP over XX'YZ is FSDP over XYZ: the same M and the same collectives, not X's
  // rate plus X''s on the same links.
  Inputs in = {{"model", text("llama-3-70b")},
               {"chip", text("tpu-v5p")},
               {"shape", text("16x16x16")},
               {"B", num(4194304)},
               {"T", num(4096)},
               {"split_sequences", text("yes")}};
  const Calculation whole = run("training", in);
  in["split"] = text("X4");
  in["fsdp_axes"] = text("XX'YZ");
  const Calculation split = run("training", in);
  CHECK(output(split, "M_X") == 3);
  CHECK(output(split, "t_overlap_ici") == output(whole, "t_overlap_ici"));
  CHECK(output(split, "step_time") == output(whole, "step_time"));
}
