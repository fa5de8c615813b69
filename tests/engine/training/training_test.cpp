// The training calculator against chapter 5's numbers (problems/training.json): its thresholds,
// the problems' answers it covers, and hand derivations of a few collectives. Exact values are
// pinned where the inputs make them exact; the book's rounded number sits beside each with the
// tolerance its problem file gives.
#include <cmath>
#include <string>

#include "helpers.h"
#include "scalebook/core/registry.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

Calculation tr(Inputs in) { return run("training", in); }

// The book's simplified layer on a v5p slice.
Inputs book_mlp(double D, double F, const char* shape) {
  return {{"model", text("book-mlp")}, {"D", num(D)},         {"F", num(F)}, {"L", num(1)},
          {"chip", text("tpu-v5p")},   {"shape", text(shape)}};
}

const Value& cell(const Calculation& c, std::size_t row, const std::string& column) {
  // The collectives come first of the training calculator's tables.
  REQUIRE(c.tables.size() == 4);
  REQUIRE(c.tables[0].first == "collectives");
  const Table& t = c.tables[0].second;
  std::size_t i = 0;
  while (i < t.columns.size() && t.columns[i] != column) ++i;
  REQUIRE(i < t.columns.size());
  REQUIRE(row < t.rows.size());
  return t.rows[row][i];
}

// The row of the collectives table with this op and tensor.
std::size_t row_of(const Calculation& c, const std::string& op, const std::string& tensor,
                   const std::string& phase = "forward") {
  const Table& t = c.tables[0].second;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (t.rows[r][0].text == phase && t.rows[r][1].text == op && t.rows[r][3].text == tensor)
      return r;
  }
  FAIL("no " << phase << " " << op << " of " << tensor);
  return 0;
}

}  // namespace

TEST_CASE("the DP/FSDP threshold is C/W_ici = 2550 tokens per chip on one v5p axis, 850 on three",
          "[training]") {
  Inputs one = book_mlp(8192, 32768, "16x16x16");
  one["fsdp_axes"] = text("X");
  one["dp_axes"] = text("YZ");
  one["B"] = num(4194304);
  one["T"] = num(1024);
  Calculation c1 = tr(one);
  CHECK(output(c1, "W_ici") == 1.8e11);                       // 2 x 9e10, the book's W_ici
  CHECK(output(c1, "alpha") == Approx(2550).epsilon(1e-12));  // training-wx-fsdp-threshold
  CHECK(output(c1, "M_X") == 1);
  CHECK(output(c1, "critical_batch") == Approx(2550).epsilon(1e-12));

  Calculation c3 = tr(book_mlp(8192, 32768, "16x16x16"));  // fsdp takes every axis
  CHECK(output(c3, "M_X") == 3);
  CHECK(output(c3, "critical_batch") == Approx(850).epsilon(1e-12));  // training-wx-dp-threshold
  // A full 8960-chip pod at 850 per chip: the book's 7.6M tokens (tolerance 0.005).
  Calculation pod = tr({{"model", text("book-mlp")},
                        {"chip", text("tpu-v5p")},
                        {"shape", text("16x20x28")},
                        {"B", num(7616000)},
                        {"T", num(850)}});
  CHECK(output(pod, "critical_batch") * output(pod, "chips") == Approx(7616000).epsilon(1e-12));
  CHECK(output(pod, "critical_batch") * output(pod, "chips") == Approx(7.6e6).epsilon(0.005));
}

TEST_CASE("an axis of one chip adds no bandwidth: FSDP over a 16x1x1 slice spans one axis",
          "[training]") {
  Inputs line = book_mlp(8192, 32768, "16x1x1");
  line["B"] = num(65536);
  line["T"] = num(1024);
  Calculation c = tr(line);
  CHECK(output(c, "M_X") == 1);
  CHECK(output(c, "critical_batch") == Approx(2550).epsilon(1e-12));
}

TEST_CASE("DP over DCN needs C/W_dcn = 73,440 tokens per slice on v5p", "[training]") {
  Calculation c = tr({{"model", text("book-mlp")}, {"chip", text("tpu-v5p")}});
  CHECK(output(c, "dcn_batch") == Approx(73440).epsilon(1e-12));  // training-wx-dcn-intensity
}

TEST_CASE("the largest useful TP degree is M_Y F / 2550", "[training]") {
  // training-wx-tp-llama3-70b: F ~ 30,000 -> 11.8 (book 11, tolerance 0.08).
  Inputs llama = book_mlp(8192, 30000, "4x4x4");
  llama["B"] = num(64 * 1024);
  llama["T"] = num(1024);
  CHECK(output(tr(llama), "max_tp") == Approx(30000.0 / 2550).epsilon(1e-12));
  CHECK(output(tr(llama), "max_tp") == Approx(11).epsilon(0.08));
  // training-wx-tp-gemma-7b: F ~ 50,000 -> 19.6 (book 19, tolerance 0.04).
  Inputs gemma = book_mlp(3072, 50000, "4x4x4");
  gemma["B"] = num(64 * 1024);
  gemma["T"] = num(1024);
  CHECK(output(tr(gemma), "max_tp") == Approx(19.6078).epsilon(1e-4));
  // Two TP axes double it.
  llama["fsdp_axes"] = text("X");
  llama["tp_axes"] = text("YZ");
  CHECK(output(tr(llama), "M_Y") == 2);
  CHECK(output(tr(llama), "max_tp") == Approx(2 * 30000.0 / 2550).epsilon(1e-12));
}

TEST_CASE("X_opt on a 4x4x4 mesh with B = 48,000 and F = 32,768 is 13.7, so 16 x 4", "[training]") {
  // training-wx-xopt-4x4x4: FSDP on two axes, TP on one (M_X / M_Y = 2).
  Inputs in = book_mlp(8192, 32768, "4x4x4");
  in["B"] = num(48000);
  in["T"] = num(3000);
  in["fsdp_axes"] = text("XY");
  in["tp_axes"] = text("Z");
  Calculation c = tr(in);
  CHECK(output(c, "fsdp_degree") == 16);
  CHECK(output(c, "tp_degree") == 4);
  CHECK(output(c, "x_opt") == Approx(std::sqrt(48000.0 / 32768 * 2 * 64)).epsilon(1e-12));
  CHECK(output(c, "x_opt") == Approx(13.9).epsilon(0.03));  // book 13.9, tolerance 0.03
  CHECK(output(c, "y_opt") == Approx(64 / 13.693063937629153).epsilon(1e-12));
  CHECK(output_value(c, "layout").text == "fsdp 16 (XY) x tp 4 (Z)");
}

TEST_CASE("mixed FSDP + TP needs alpha^2 / (M_X M_Y F) tokens per chip", "[training]") {
  Inputs in = book_mlp(8192, 32768, "16x16x16");
  in["fsdp_axes"] = text("XY");
  in["tp_axes"] = text("Z");
  in["B"] = num(4194304);
  in["T"] = num(4096);
  Calculation c = tr(in);
  // training-wx-mixed-threshold: 99.2 (tolerance 0.005).
  CHECK(output(c, "mixed_batch") == Approx(2550.0 * 2550 / (2 * 32768)).epsilon(1e-12));
  CHECK(output(c, "mixed_batch") == Approx(99).epsilon(0.005));
  // training-wx-16x16x16-figure: every strategy comm-bound below 4096 x 99.2 = 406,406 tokens.
  CHECK(output(c, "mixed_batch") * output(c, "chips") == Approx(406406.25).epsilon(1e-12));
  // training-wx-llama3-70b-2M: with F ~ 30,000 the threshold is 108.4 (tolerance 0.005).
  in["F"] = num(30000);
  CHECK(output(tr(in), "mixed_batch") == Approx(108).epsilon(0.005));
}

TEST_CASE("chapter 5, Question 2: LLaMA-2 13B's state and checkpoints at a 16M-token batch",
          "[training]") {
  // Ignoring parallelism: the totals over a 512-chip FSDP slice (16e6 splits into it).
  Calculation c = tr({{"model", text("llama-2-13b")},
                      {"chip", text("tpu-v5p")},
                      {"shape", text("8x8x8")},
                      {"B", num(16e6)},
                      {"T", num(6250)},
                      {"remat", text("ffw-matmuls")}});
  const double chips = output(c, "chips_total");
  const double state = (output(c, "mem_params") + output(c, "mem_optimizer")) * chips;
  CHECK(state == Approx(10 * output(c, "params")).epsilon(1e-12));
  CHECK(state == Approx(130e9).epsilon(0.01));  // book 130 GB, tolerance 0.01
  const double activations = output(c, "mem_activations") * chips;
  CHECK(activations == Approx(2 * 40 * 16e6 * (5120 + 2 * 13824)).epsilon(1e-12));
  CHECK(activations == Approx(42e12).epsilon(0.01));  // book 42 TB, tolerance 0.01
}

TEST_CASE("chapter 5, Question 3: LLaMA-2 13B on a v5p 16x16x16 with a 3M-token batch",
          "[training]") {
  // The book's 3e6 tokens in sequences of 32,768 (91.6 of them): with uneven_batch each chip
  // takes 3e6 / 4096 = 732.4 tokens on average, as the book's arithmetic does.
  Inputs base = {{"model", text("llama-2-13b")},
                 {"chip", text("tpu-v5p")},
                 {"shape", text("16x16x16")},
                 {"B", num(3e6)},
                 {"T", num(32768)},
                 {"uneven_batch", text("yes")},
                 {"remat", text("ffw-matmuls")}};
  SECTION("3a: pure data parallelism does not fit: 10 bytes per parameter is 130 GB > 96 GB") {
    Inputs in = base;
    in["dp_axes"] = text("XYZ");
    Calculation c = tr(in);
    CHECK(output(c, "dp_degree") == 4096);
    CHECK(output(c, "mem_params") + output(c, "mem_optimizer") ==
          Approx(10 * output(c, "params")).epsilon(1e-12));
    CHECK(output_value(c, "fits").text == "no");
    CHECK(output_value(c, "bound").text == "does-not-fit");
    CHECK(output(c, "mem_over") == Approx(output(c, "mem_total") - 96e9).epsilon(1e-12));
    CHECK(output(c, "mem_over") > 34e9);
  }
  SECTION("3b: pure FSDP fits, but 732 tokens per chip is below 850: the MLPs are ICI-bound") {
    Calculation c = tr(base);
    CHECK(output(c, "fsdp_degree") == 4096);
    CHECK(output_value(c, "fits").text == "yes");
    CHECK(output(c, "critical_batch") * output(c, "chips") == Approx(3481600).epsilon(1e-12));
    CHECK(output(c, "tokens_per_chip") == Approx(3e6 / 4096).epsilon(1e-12));
    // The book's checkpoints, 2 L B (D + 2F) bytes = 7.86 TB over the slice.
    CHECK(output(c, "mem_activations") * 4096 ==
          Approx(2.0 * 40 * 3e6 * (5120 + 2 * 13824)).epsilon(1e-12));
    // The book's analysis counts the MLP's matmuls: the book's layer with 13B's D, F and L.
    Inputs mlp = base;
    mlp["model"] = text("book-mlp");
    mlp["D"] = num(5120);
    mlp["F"] = num(13824);
    mlp["L"] = num(40);
    Calculation m = tr(mlp);
    CHECK(output_value(m, "bound").text == "ici");
    // Compute over ICI is the tokens per chip over the threshold: 732.4 / 850.
    CHECK(output(m, "t_compute") / output(m, "t_ici") == Approx(3e6 / 3481600).epsilon(1e-9));
    // The whole model also attends over 32,768 keys (4 N H L T = 26.8 GFLOP per token forward,
    // about its 2P again) and recomputes the projections under ffw-matmuls: compute-bound.
    CHECK(output_value(c, "bound").text == "compute");
    // 1024 tokens per chip clears 850: compute-bound.
    Inputs more = base;
    more["B"] = num(4194304);
    more["T"] = num(1024);
    CHECK(output_value(tr(more), "bound").text == "compute");
  }
  SECTION("3c: mixed FSDP x TP needs only 235 tokens per chip; X_opt near the book's 1333") {
    // The thresholds are the MLP's: the book's layer with LLaMA-2 13B's D, F and L (a 16-way
    // TP axis divides F but not the 40 heads, and no 4096-chip v5p slice has a 4-chip axis).
    Inputs in = base;
    in["model"] = text("book-mlp");
    in["D"] = num(5120);
    in["F"] = num(13824);
    in["L"] = num(40);
    in["fsdp_axes"] = text("XY");
    in["tp_axes"] = text("Z");
    Calculation c = tr(in);
    CHECK(output(c, "M_X") == 2);
    CHECK(output(c, "M_Y") == 1);
    CHECK(output(c, "mixed_batch") == Approx(2550.0 * 2550 / (2 * 13824)).epsilon(1e-12));
    CHECK(output(c, "mixed_batch") == Approx(235).epsilon(0.005));  // book 235
    CHECK(output(c, "x_opt") == Approx(std::sqrt(3e6 / 13824 * 2 * 4096)).epsilon(1e-12));
    CHECK(output(c, "x_opt") == Approx(1333).epsilon(0.001));             // book 1333
    CHECK(output(c, "max_tp") == Approx(13824.0 / 2550).epsilon(1e-12));  // 5.4: 4-way is fine
    // LLaMA-2 13B itself as the book's 16 x 4 on a 64-chip cube: compute-bound at 768 per chip.
    Calculation cube = tr({{"model", text("llama-2-13b")},
                           {"chip", text("tpu-v5p")},
                           {"shape", text("4x4x4")},
                           {"fsdp_axes", text("XY")},
                           {"tp_axes", text("Z")},
                           {"B", num(49152)},
                           {"T", num(1024)}});
    CHECK(output(cube, "tp_degree") == 4);
    CHECK(output_value(cube, "bound").text == "compute");
    // The book's step time at 40% MFU, 6 P B / (N C 0.4), with its decimal 3e6 tokens.
    Calculation dec = tr({{"model", text("llama-2-13b")},
                          {"chip", text("tpu-v5p")},
                          {"shape", text("4x4x4")},
                          {"B", num(3e6)},
                          {"T", num(46875)}});
    CHECK(output(dec, "flops_6p") / (4096 * 4.59e14 * 0.4) == Approx(0.3).epsilon(0.05));
  }
}

TEST_CASE("pure DP caps the model at HBM / 10 bytes: 9.6B parameters on a 96 GB v5p",
          "[training]") {
  Inputs in = book_mlp(8192, 32768, "4x4x4");
  in["dp_axes"] = text("XYZ");
  in["L"] = num(17);  // 2DF L = 9.13e9 parameters
  in["B"] = num(64);
  in["T"] = num(1);
  in["remat"] = text("block");
  Calculation c = tr(in);
  const double state = output(c, "mem_params") + output(c, "mem_optimizer");
  CHECK(state == 10 * output(c, "params"));
  CHECK(output(c, "hbm_capacity") / 10 == Approx(9e9).epsilon(0.07));  // training-wx-dp-max-model
  CHECK(state < output(c, "hbm_capacity"));
  in["L"] = num(18);  // 9.66e9 parameters: weights and Adam state alone are over 96 GB
  Calculation over = tr(in);
  CHECK(output(over, "mem_params") + output(over, "mem_optimizer") > 96e9);
  CHECK(output_value(over, "fits").text == "no");
}

TEST_CASE("an FSDP AllGather and a TP AllGather derived by hand on a 4x4x4 v5p", "[training]") {
  Inputs in = book_mlp(8192, 32768, "4x4x4");  // whole cubes: every axis wraps
  in["B"] = num(48000);
  in["T"] = num(3000);
  in["fsdp_axes"] = text("XY");
  in["tp_axes"] = text("Z");
  Calculation c = tr(in);
  // W_in[D_XY, F_Z] gathered over XY: V = 2 D F / 4 bytes; each ring of 4 used both ways moves
  // floor(4/2) V / (4 W) = V / (2 W), and the two axes' rates add: V / (4 W), W = 9e10 B/s.
  const double v = 2.0 * 8192 * 32768 / 4;
  std::size_t r = row_of(c, "all-gather", "W_in");
  CHECK(cell(c, r, "bytes").number == v);
  CHECK(cell(c, r, "axes").text == "XY");
  CHECK(cell(c, r, "time").number == Approx(v / (4 * 9e10)).epsilon(1e-12));
  // The book's T_FSDP = 2 D F / (Y W_ici M_X) for one matrix.
  CHECK(cell(c, r, "time").number == Approx(2.0 * 8192 * 32768 / (4 * 1.8e11 * 2)).epsilon(1e-12));
  CHECK(cell(c, r, "critical").text == "no");
  // In[B_XY, D_Z] gathered over Z: V = 2 (B / 16) D, time V / (2 W) = the book's 2BD/(X W M_Y).
  r = row_of(c, "all-gather", "In");
  CHECK(cell(c, r, "bytes").number == 2.0 * 3000 * 8192);
  CHECK(cell(c, r, "time").number == Approx(2.0 * 48000 * 8192 / (16 * 1.8e11)).epsilon(1e-12));
  CHECK(cell(c, r, "critical").text == "yes");
  CHECK(cell(c, r, "count").number == 1);
  // Per layer: 6 FSDP collectives (AG W_in, W_out forward and backward, RS dW_in, dW_out) and 4 TP.
  CHECK(c.tables[0].second.rows.size() == 10);
  CHECK(output(c, "t_overlap_ici") == Approx(6 * v / (4 * 9e10)).epsilon(1e-12));
  CHECK(output(c, "t_critical") == Approx(4 * 2.0 * 3000 * 8192 / (2 * 9e10)).epsilon(1e-12));
}

TEST_CASE("the gradient AllReduce over DCN costs 2V / W_dcn between two slices", "[training]") {
  Inputs in = book_mlp(8192, 32768, "4x4x4");
  in["slices"] = num(2);
  in["B"] = num(128 * 1024);
  in["T"] = num(1024);
  Calculation c = tr(in);
  std::size_t r = row_of(c, "all-reduce", "dW_in", "step");
  const double v = 2.0 * 8192 * 32768 / 64;  // each chip's FSDP shard of the gradient
  CHECK(cell(c, r, "axes").text == "DCN");
  CHECK(cell(c, r, "bytes").number == v);
  CHECK(cell(c, r, "time").number == Approx(2 * v / 6.25e9).epsilon(1e-12));
  CHECK(output(c, "t_dcn") == Approx(2 * 2 * v / 6.25e9).epsilon(1e-12));
  CHECK(output(c, "chips_total") == 128);
  CHECK(output(c, "tokens_per_slice") == 64 * 1024);
  CHECK(output_value(c, "layout").text == "fsdp 64 (XYZ) x dp 2 (DCN)");
}

TEST_CASE("a step: compute, bubble, overlap and the bounds keep their order", "[training]") {
  Inputs in = {{"model", text("llama-3-70b")},
               {"chip", text("tpu-v5p")},
               {"shape", text("8x8x16")},
               {"fsdp_axes", text("XY")},
               {"pp_axes", text("Z")},
               {"microbatches", num(16)},
               {"B", num(8388608)},
               {"T", num(4096)}};
  Calculation c = tr(in);
  CHECK(output(c, "pp_degree") == 16);
  CHECK(output(c, "bubble") == Approx(15.0 / 31).epsilon(1e-12));
  CHECK(output(c, "step_time_overlapped") <= output(c, "step_time"));
  CHECK(output(c, "step_time") <= output(c, "step_time_serial"));
  CHECK(output(c, "mfu_ceiling") <= 1);
  CHECK(output(c, "mfu") <= output(c, "mfu_ceiling"));
  // 1F1B holds at most pp microbatches, GPipe all 16: the same here.
  in["schedule"] = text("gpipe");
  CHECK(output(tr(in), "mem_activations") == output(c, "mem_activations"));
  in["microbatches"] = num(32);
  in["schedule"] = text("1f1b");
  const double one_f = output(tr(in), "mem_activations");
  in["schedule"] = text("gpipe");
  CHECK(output(tr(in), "mem_activations") == Approx(2 * one_f).epsilon(1e-12));
}

TEST_CASE("ZeRO stages trade memory, not bytes; offload moves the optimizer state to the host",
          "[training]") {
  Inputs in = {{"model", text("llama-3-8b")},
               {"chip", text("tpu-v5p")},
               {"shape", text("4x4x4")},
               {"B", num(262144)},
               {"T", num(4096)}};
  in["zero"] = text("3");
  Calculation z3 = tr(in);
  in["zero"] = text("1");
  Calculation z1 = tr(in);
  CHECK(output(z1, "mem_params") == Approx(64 * output(z3, "mem_params")).epsilon(1e-12));
  CHECK(output(z1, "mem_optimizer") == output(z3, "mem_optimizer"));
  in["zero"] = text("3");
  in["offload"] = text("yes");
  Calculation off = tr(in);
  CHECK(output(off, "mem_optimizer") == 0);
  CHECK(output(off, "mem_host") == output(z3, "mem_optimizer"));
  CHECK(output(off, "t_pcie") == Approx(output(z3, "mem_optimizer") / 1.6e10).epsilon(1e-12));
}

TEST_CASE("training's numbers-only path gives the explained outputs bit for bit", "[training]") {
  Inputs in = book_mlp(8192, 32768, "4x4x8");
  in["tp_axes"] = text("Z");
  in["slices"] = num(2);
  in["B"] = num(65536);
  in["T"] = num(512);
  Calculation explained = tr(in);
  CHECK_FALSE(explained.steps.empty());
  Result<Calculation> bare = calculate("training", in, {.explain = false});
  REQUIRE(bare.ok());
  check_same_outputs(explained, bare.value());
}

TEST_CASE("a prepared training calculation sweeps the batch", "[training]") {
  auto p = PreparedCalculation::make("training", {{"model", text("llama-3-70b")}}, {"B"},
                                     {"step_time", "tokens_per_chip"});
  REQUIRE(p.ok());
  double x = 33554432, y[2] = {0, 0};
  REQUIRE_FALSE(p.value().evaluate(&x, y));
  CHECK(y[1] == 8192);
  Calculation direct = tr({{"model", text("llama-3-70b")}, {"B", num(33554432)}});
  CHECK(y[0] == output(direct, "step_time"));
}

TEST_CASE("expert parallelism moves the routed tokens with AllToAlls on the critical path",
          "[training]") {
  Calculation c = tr({{"model", text("deepseek-v3")},
                      {"chip", text("tpu-v5p")},
                      {"shape", text("4x4x8")},
                      {"ep_axes", text("Z")},
                      {"B", num(524288)},
                      {"T", num(4096)},
                      {"remat", text("block")}});
  CHECK(output(c, "ep_degree") == 8);
  CHECK(output_value(c, "layout").text == "fsdp 16 (XY) x ep 8 (Z)");
  std::size_t r = row_of(c, "all-to-all", "routed tokens");
  // Each of the 8 chips routes its 4096 tokens to k = 8 experts: the group's array is
  // 2 B x 4096 x 8 x D x 8.
  CHECK(cell(c, r, "bytes").number == 2.0 * 4096 * 8 * 7168 * 8);
  CHECK(cell(c, r, "count").number == 2 * 58);  // dispatch and combine, 58 MoE layers
  CHECK(cell(c, r, "critical").text == "yes");
  CHECK(cell(c, r, "axes").text == "Z");
}

TEST_CASE("gradient accumulation repeats the FSDP gathers and shrinks the activations",
          "[training]") {
  Inputs in = book_mlp(8192, 32768, "4x4x4");
  in["B"] = num(262144);
  in["T"] = num(1024);
  Calculation one = tr(in);
  in["grad_accum"] = num(4);
  Calculation four = tr(in);
  CHECK(output(four, "micro_tokens") == output(one, "micro_tokens") / 4);
  CHECK(output(four, "mem_activations") == Approx(output(one, "mem_activations") / 4));
  CHECK(output(four, "t_overlap_ici") == Approx(4 * output(one, "t_overlap_ici")));
  CHECK(output(four, "flops_step") == output(one, "flops_step"));
}

TEST_CASE("int8 doubles alpha to 5100 on v5p, but TP's bytes halve, so the TP limit holds",
          "[training]") {
  Inputs in = book_mlp(8192, 30000, "4x4x4");
  in["B"] = num(64 * 1024);
  in["T"] = num(1024);
  const double bf16 = output(tr(in), "max_tp");
  in["dtype"] = text("int8");
  Calculation c = tr(in);
  CHECK(output(c, "alpha") == Approx(5100).epsilon(1e-12));  // training-wx-tp-int8
  CHECK(output(c, "max_tp") == Approx(bf16).epsilon(1e-12));
}

TEST_CASE(
    "checkpoints override the remat policy's width; the explained path shows the book's formulas",
    "[training]") {
  Inputs in = book_mlp(8192, 32768, "4x4x4");
  in["B"] = num(65536);
  in["T"] = num(1024);
  in["remat"] = text("block");
  const double block = output(tr(in), "mem_activations");
  in["checkpoints"] = num(3);
  Calculation c = tr(in);
  CHECK(output(c, "mem_activations") == Approx(3 * block).epsilon(1e-12));
  bool found = false;
  for (const Step& s : c.steps) {
    if (s.output != "flops_layer") continue;
    found = true;
    // Block remat runs the layer's forward (4BDF) again.
    CHECK(s.latex.rfind("16 B D F = 16 \\cdot 65536 \\cdot 8192 \\cdot 32768", 0) == 0);
  }
  CHECK(found);
}

TEST_CASE("the run estimate: chips before comms bind, steps and days of LLaMA-3 70B on 15T tokens",
          "[training]") {
  Inputs run = {
      {"model", text("llama-3-70b")}, {"chip", text("tpu-v5p")}, {"shape", text("16x16x16")},
      {"B", num(16777216)},           {"T", num(4096)},          {"tokens", num(15e12)},
      {"mfu_target", num(0.5)}};
  Calculation c = tr(run);
  // FSDP over three axes binds below 850 tokens per chip: B / 850 chips can be fed.
  CHECK(output(c, "chips_usable") == Approx(16777216.0 / 850).epsilon(1e-12));
  CHECK(output(c, "train_steps") == Approx(15e12 / 16777216.0).epsilon(1e-12));
  // Model FLOPs per token x tokens over 4096 chips x C x 0.5, in days.
  const double seconds =
      15e12 * output(c, "flops_model") / 16777216.0 / (4096 * output(c, "peak_flops") * 0.5);
  CHECK(output(c, "run_days") == Approx(seconds / 86400).epsilon(1e-12));
  // The book (training-wx-llama3-70b-fsdp-16M): on the ~18.8k chips the batch can feed, at 50%
  // MFU, about 17 days; scaled to the chips this batch feeds, the engine agrees within 3%.
  CHECK(output(c, "run_days") * 4096 / output(c, "chips_usable") == Approx(17).epsilon(0.03));
  // Without tokens there is no run to estimate; without an MFU, this layout's step time counts.
  run.erase("tokens");
  Calculation none = tr(run);
  CHECK(output_value(none, "run_days").is_none());
  run["tokens"] = num(15e12);
  run.erase("mfu_target");
  Calculation own = tr(run);
  CHECK(output(own, "run_days") ==
        Approx(output(own, "train_steps") * output(own, "step_time") / 86400).epsilon(1e-12));
}
