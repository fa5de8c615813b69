// Chapter 5's explorer: the book's layer drawn for the reader's layout (the sharding_* and
// local_* outputs, the arrays table) and the chapter's per-layer table of DP, FSDP, TP and
// FSDP + TP filled with the reader's numbers (the strategies table). Every expected value is
// derived by hand in its comment from the book's formulas, on the chapter's 4x4x4 v5p case:
// B = 48000 tokens, D = 8192, F = 32768, X = 16 (FSDP over X and Y, M_X = 2), Y = 4 (TP over Z,
// M_Y = 1), C = 4.59e14 FLOP/s, W_ici = 2 x 9e10 = 1.8e11 B/s, so C / W_ici = 2550.
#include <string>

#include "helpers.h"
#include "scalebook/core/registry.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

Inputs book_case() {
  return {{"model", text("book-mlp")}, {"D", num(8192)},
          {"F", num(32768)},           {"L", num(1)},
          {"chip", text("tpu-v5p")},   {"shape", text("4x4x4")},
          {"fsdp_axes", text("XY")},   {"tp_axes", text("Z")},
          {"B", num(48000)},           {"T", num(1000)}};
}

// The cell of `column` in the row whose first cell is `key`.
const Value& at(const Calculation& c, const std::string& name, const std::string& key,
                const std::string& column) {
  const Table& t = table(c, name);
  std::size_t col = 0;
  while (col < t.columns.size() && t.columns[col] != column) ++col;
  REQUIRE(col < t.columns.size());
  for (const auto& row : t.rows)
    if (row[0].text == key) return row[col];
  FAIL("no row " << key << " in " << name);
  return t.rows[0][0];
}

std::string text_out(const Calculation& c, const std::string& name) {
  return output_value(c, name).text;
}

}  // namespace

TEST_CASE("the explorer's layer carries chapter 3's notation and the local shapes",
          "[training][explorer]") {
  Calculation c = run("training", book_case());
  // The batch over the FSDP axes X, Y; D of the activations and F of the weights over TP's Z;
  // ZeRO-3 also splits D of the weights over X, Y (the chapter's mixed FSDP + TP layout).
  CHECK(text_out(c, "sharding_in") == "In[B_XY, D_Z]");
  CHECK(text_out(c, "sharding_w_in") == "W_in[D_XY, F_Z]");
  CHECK(text_out(c, "sharding_w_out") == "W_out[F_Z, D_XY]");
  CHECK(text_out(c, "sharding_out") == "Out[B_XY, D_Z]");
  // B / 16 = 3000, D / 4 = 2048; D / 16 = 512, F / 4 = 8192.
  CHECK(text_out(c, "local_in") == "[3000, 2048]");
  CHECK(text_out(c, "local_w_in") == "[512, 8192]");
  CHECK(text_out(c, "local_w_out") == "[8192, 512]");
  CHECK(text_out(c, "local_out") == "[3000, 2048]");

  // Each array is cut 16 x 4 = 64 ways over the 64 chips: one copy of each piece. In holds
  // 2 bytes x 3000 x 2048 = 12,288,000 B on a chip, W_in 2 x 512 x 8192 = 8,388,608 B.
  CHECK(at(c, "arrays", "In", "shape").text == "[48000, 8192]");
  CHECK(at(c, "arrays", "In", "rows").text == "B");
  CHECK(at(c, "arrays", "In", "cols").text == "D");
  CHECK(at(c, "arrays", "In", "row_shards").number == 16);
  CHECK(at(c, "arrays", "In", "col_shards").number == 4);
  CHECK(at(c, "arrays", "In", "copies").number == 1);
  CHECK(at(c, "arrays", "In", "bytes").number == 12288000);
  CHECK(at(c, "arrays", "W_in", "bytes").number == 8388608);
  CHECK(at(c, "arrays", "W_out", "row_shards").number == 4);
  CHECK(at(c, "arrays", "W_out", "col_shards").number == 16);
}

TEST_CASE("the notation follows the layout: TP on two axes, ZeRO-1, DP alone, two slices",
          "[training][explorer]") {
  SECTION("tp over Y and Z, FSDP over X: In[B_X, D_YZ], W_in[D_X, F_YZ]") {
    Inputs in = book_case();
    in["fsdp_axes"] = text("X");
    in["tp_axes"] = text("YZ");
    Calculation c = run("training", in);
    CHECK(text_out(c, "sharding_in") == "In[B_X, D_YZ]");
    CHECK(text_out(c, "sharding_w_in") == "W_in[D_X, F_YZ]");
    CHECK(text_out(c, "local_in") == "[12000, 512]");  // 48000 / 4, 8192 / 16
  }
  SECTION("ZeRO-1 keeps whole weights on every FSDP chip: W_in[D, F_Z], 4 x 1 pieces, 16 copies") {
    Inputs in = book_case();
    in["zero"] = text("1");
    Calculation c = run("training", in);
    CHECK(text_out(c, "sharding_w_in") == "W_in[D, F_Z]");
    CHECK(text_out(c, "local_w_in") == "[8192, 8192]");
    CHECK(at(c, "arrays", "W_in", "copies").number == 16);
  }
  SECTION("pure data parallelism over every axis: In[B_XYZ, D], W_in[D, F]") {
    Inputs in = book_case();
    in["dp_axes"] = text("XYZ");
    in["fsdp_axes"] = text("none");
    in["tp_axes"] = text("none");
    in["B"] = num(64000);
    Calculation c = run("training", in);
    CHECK(text_out(c, "sharding_in") == "In[B_XYZ, D]");
    CHECK(text_out(c, "sharding_w_in") == "W_in[D, F]");
    CHECK(at(c, "arrays", "W_in", "copies").number == 64);
  }
  SECTION("two slices over DCN: each slice's layer holds half the batch, 24000 / 16 = 1500") {
    Inputs in = book_case();
    in["slices"] = num(2);
    in["T"] = num(500);  // 96 sequences over 2 slices x 16 shards
    Calculation c = run("training", in);
    CHECK(text_out(c, "local_in") == "[1500, 2048]");
    CHECK(at(c, "arrays", "In", "shape").text == "[24000, 8192]");
  }
  SECTION("axes of one chip split nothing: 16x1x4 with fsdp over X and Y is B_X") {
    Inputs in = book_case();
    in["shape"] = text("16x1x4");
    Calculation c = run("training", in);
    CHECK(text_out(c, "sharding_in") == "In[B_X, D_Z]");
  }
}

TEST_CASE("the strategies table is the book's per-layer table with the reader's numbers",
          "[training][explorer]") {
  Calculation c = run("training", book_case());
  const double C = 4.59e14, W = 1.8e11;
  const double B = 48000, D = 8192, F = 32768, BDF = B * D * F, DF = D * F, BD = B * D;
  const auto cell = [&](const char* row, const char* column) {
    return at(c, "strategies", row, column).number;
  };
  REQUIRE(table(c, "strategies").rows.size() == 4);

  // DP over X = 16 chips: 4BDF/X = 3.22e12 FLOPs forward, 8BDF/X backward; no forward comms;
  // backward two AllReduces of the 2DF-byte gradients, counted twice: 8DF = 2,147,483,648 B,
  // over M_X = 2 axes in 8DF / (2 W) = 5.97 ms, against 8BDF / (X C) = 14.0 ms of compute. The
  // ratio is B M_X W / (X C) = 3000 / 1275 = 2.35: compute-bound, as B/X = 3000 > 2550 / 2.
  CHECK(cell("DP", "chips") == 16);
  CHECK(cell("DP", "flops_forward") == 4 * BDF / 16);
  CHECK(cell("DP", "flops_backward") == 8 * BDF / 16);
  CHECK(cell("DP", "bytes_forward") == 0);
  CHECK(cell("DP", "bytes_backward") == 8 * DF);
  CHECK(cell("DP", "t_comm_backward") == Approx(8 * DF / (2 * W)).epsilon(1e-12));
  CHECK(cell("DP", "t_compute_backward") == Approx(8 * BDF / (16 * C)).epsilon(1e-12));
  CHECK(cell("DP", "ratio") == Approx(3000.0 / 1275).epsilon(1e-12));
  CHECK(at(c, "strategies", "DP", "bound").text == "compute");

  // FSDP: the weights gathered forward (4DF) and again backward with the gradients'
  // ReduceScatters (8DF); each pass's ratio is again B M_X W / (X C) = 2.35.
  CHECK(cell("FSDP", "bytes_forward") == 4 * DF);
  CHECK(cell("FSDP", "bytes_backward") == 8 * DF);
  CHECK(cell("FSDP", "t_comm_forward") == Approx(4 * DF / (2 * W)).epsilon(1e-12));
  CHECK(cell("FSDP", "ratio") == Approx(3000.0 / 1275).epsilon(1e-12));

  // TP over Y = 4 chips: 4BDF/Y FLOPs forward; AllGather In and ReduceScatter Out, 4BD =
  // 1,572,864,000 B, in 4BD / W = 8.74 ms; backward the same for dOut and dIn. The ratio is
  // F M_Y W / (Y C) = 32768 / (4 x 2550) = 3.21, whatever B.
  CHECK(cell("TP", "chips") == 4);
  CHECK(cell("TP", "flops_forward") == 4 * BDF / 4);
  CHECK(cell("TP", "bytes_forward") == 4 * BD);
  CHECK(cell("TP", "bytes_backward") == 4 * BD);
  CHECK(cell("TP", "t_comm_forward") == Approx(4 * BD / W).epsilon(1e-12));
  CHECK(cell("TP", "ratio") == Approx(32768.0 / (4 * 2550)).epsilon(1e-12));

  // FSDP + TP over XY = 64 chips: forward 4DF/Y + 4BD/X = 268,435,456 + 98,304,000 B; backward
  // 8DF/Y + 4BD/X (the TP algorithm's dOut and dIn; the book's table prints 8BD/X). The two
  // parts run at once on their own axes: forward max(4DF / (Y M_X W), 4BD / (X M_Y W)) =
  // max(0.746, 0.546) ms, FSDP's the longer, against 4BDF / (64 C) = 1.75 ms of compute: the
  // ratio is B M_X W / (X C) = 2.35 again, and the backward's the same.
  CHECK(cell("FSDP + TP", "chips") == 64);
  CHECK(cell("FSDP + TP", "flops_forward") == 4 * BDF / 64);
  CHECK(cell("FSDP + TP", "flops_backward") == 8 * BDF / 64);
  CHECK(cell("FSDP + TP", "bytes_forward") == 4 * DF / 4 + 4 * BD / 16);
  CHECK(cell("FSDP + TP", "bytes_backward") == 8 * DF / 4 + 4 * BD / 16);
  CHECK(cell("FSDP + TP", "t_comm_forward") == Approx(4 * DF / (4 * 2 * W)).epsilon(1e-12));
  CHECK(cell("FSDP + TP", "t_compute_forward") == Approx(4 * BDF / (64 * C)).epsilon(1e-12));
  CHECK(cell("FSDP + TP", "ratio") == Approx(3000.0 / 1275).epsilon(1e-12));
  CHECK(at(c, "strategies", "FSDP + TP", "bound").text == "compute");
}

TEST_CASE("the strategies follow the layout; a strategy on one chip moves nothing",
          "[training][explorer]") {
  SECTION("TP over Y and Z (16 chips, M_Y = 2): TP's ratio 32768 x 2 / (16 x 2550) = 1.61") {
    Inputs in = book_case();
    in["fsdp_axes"] = text("X");
    in["tp_axes"] = text("YZ");
    Calculation c = run("training", in);
    CHECK(at(c, "strategies", "TP", "chips").number == 16);
    CHECK(at(c, "strategies", "TP", "ratio").number ==
          Approx(32768.0 * 2 / (16 * 2550)).epsilon(1e-12));
    // Mixed: now TP's 4BD / (X M_Y W) = 1.09 ms outlasts FSDP's 4DF / (Y M_X W) = 0.37 ms.
    CHECK(at(c, "strategies", "FSDP + TP", "t_comm_forward").number ==
          Approx(4.0 * 48000 * 8192 / (4 * 2 * 1.8e11)).epsilon(1e-12));
  }
  SECTION("a small batch turns DP and FSDP communication-bound: B/X = 1000 < 1275") {
    Inputs in = book_case();
    in["B"] = num(16000);
    Calculation c = run("training", in);
    CHECK(at(c, "strategies", "FSDP", "ratio").number == Approx(1000.0 / 1275).epsilon(1e-12));
    CHECK(at(c, "strategies", "FSDP", "bound").text == "ici");
    CHECK(at(c, "strategies", "TP", "bound").text == "compute");
  }
  SECTION("no TP axes: Y = 1, TP moves no bytes, has no ratio and is compute-bound") {
    Inputs in = book_case();
    in["fsdp_axes"] = text("XYZ");
    in["tp_axes"] = text("none");
    in["B"] = num(64000);
    Calculation c = run("training", in);
    CHECK(at(c, "strategies", "TP", "chips").number == 1);
    CHECK(at(c, "strategies", "TP", "bytes_forward").number == 0);
    CHECK(at(c, "strategies", "TP", "ratio").kind == Value::Kind::none);
    CHECK(at(c, "strategies", "TP", "bound").text == "compute");
  }
}

namespace {

// The algorithm table's column `column` of every row, as texts or numbers.
std::vector<std::string> texts(const Calculation& c, const std::string& column) {
  const Table& t = table(c, "algorithm");
  std::size_t col = 0;
  while (col < t.columns.size() && t.columns[col] != column) ++col;
  REQUIRE(col < t.columns.size());
  std::vector<std::string> out;
  for (const auto& row : t.rows) out.push_back(row[col].text);
  return out;
}

const Value& step_cell(const Calculation& c, std::size_t order, const std::string& column) {
  const Table& t = table(c, "algorithm");
  std::size_t col = 0;
  while (col < t.columns.size() && t.columns[col] != column) ++col;
  REQUIRE(col < t.columns.size());
  REQUIRE(order >= 1);
  REQUIRE(order <= t.rows.size());
  return t.rows[order - 1][col];
}

// The sum of `column` over the rows of one pass.
double pass_sum(const Calculation& c, const std::string& pass, const std::string& column) {
  double sum = 0;
  const std::vector<std::string> passes = texts(c, "pass");
  for (std::size_t i = 0; i < passes.size(); ++i)
    if (passes[i] == pass && !step_cell(c, i + 1, column).is_none())
      sum += step_cell(c, i + 1, column).number;
  return sum;
}

}  // namespace

TEST_CASE("the explorer runs the book's layer step by step: matmuls and collectives in order",
          "[training][explorer]") {
  Calculation c = run("training", book_case());
  // The chapter's mixed FSDP + TP algorithm, with the batch over X, Y and TP over Z.
  CHECK(texts(c, "operation") ==
        std::vector<std::string>{"AllGather_Z In[B_XY, D_Z] -> In[B_XY, D]",
                                 "AllGather_XY W_in[D_XY, F_Z] -> W_in[D, F_Z]",
                                 "In[B_XY, D] *_D W_in[D, F_Z] -> Tmp[B_XY, F_Z]",
                                 "AllGather_XY W_out[F_Z, D_XY] -> W_out[F_Z, D]",
                                 "Tmp[B_XY, F_Z] *_F W_out[F_Z, D] -> Out[B_XY, D]{U_Z}",
                                 "ReduceScatter_Z Out[B_XY, D]{U_Z} -> Out[B_XY, D_Z]",
                                 "AllGather_Z dOut[B_XY, D_Z] -> dOut[B_XY, D]",
                                 "Tmp[B_XY, F_Z] *_B dOut[B_XY, D] -> dW_out[F_Z, D]{U_XY}",
                                 "ReduceScatter_XY dW_out[F_Z, D]{U_XY} -> dW_out[F_Z, D_XY]",
                                 "AllGather_XY W_out[F_Z, D_XY] -> W_out[F_Z, D]",
                                 "dOut[B_XY, D] *_D W_out[F_Z, D] -> dTmp[B_XY, F_Z]",
                                 "In[B_XY, D] *_B dTmp[B_XY, F_Z] -> dW_in[D, F_Z]{U_XY}",
                                 "ReduceScatter_XY dW_in[D, F_Z]{U_XY} -> dW_in[D_XY, F_Z]",
                                 "AllGather_XY W_in[D_XY, F_Z] -> W_in[D, F_Z]",
                                 "dTmp[B_XY, F_Z] *_F W_in[D, F_Z] -> dIn[B_XY, D]{U_Z}",
                                 "ReduceScatter_Z dIn[B_XY, D]{U_Z} -> dIn[B_XY, D_Z]"});
  // TP's collectives stall the matmuls; FSDP's are prefetched or run after.
  CHECK(texts(c, "critical") == std::vector<std::string>{"yes", "no", "", "no", "", "yes", "yes",
                                                         "", "no", "no", "", "", "no", "no", "",
                                                         "yes"});
  // A matmul: 2 (B/X) D (F/Y) = 2 x 3000 x 8192 x 8192 = 4.02653184e11 FLOPs, / C = 877 us.
  CHECK(step_cell(c, 3, "flops").number == Approx(4.02653184e11));
  CHECK(step_cell(c, 3, "time").number == Approx(4.02653184e11 / 4.59e14));
  // TP gathers In: 2 B x 3000 x 8192 = 49,152,000 B over Z alone (M = 1): / 1.8e11 = 273 us.
  CHECK(step_cell(c, 1, "bytes").number == 49152000);
  CHECK(step_cell(c, 1, "time").number == Approx(49152000 / 1.8e11));
  // FSDP gathers W_in: 2 B x 8192 x 8192 = 134,217,728 B over X and Y (M = 2): / 3.6e11.
  CHECK(step_cell(c, 2, "bytes").number == 134217728);
  CHECK(step_cell(c, 2, "time").number == Approx(134217728 / 3.6e11));
  // Each pass adds up to the strategies table's FSDP + TP row.
  for (const char* pass : {"forward", "backward"}) {
    INFO(pass);
    CHECK(pass_sum(c, pass, "flops") ==
          Approx(at(c, "strategies", "FSDP + TP", std::string("flops_") + pass).number));
    CHECK(pass_sum(c, pass, "bytes") ==
          Approx(at(c, "strategies", "FSDP + TP", std::string("bytes_") + pass).number));
  }
}

TEST_CASE("the step-by-step algorithm follows the layout: DP all-reduces, ZeRO-1 gathers once",
          "[training][explorer]") {
  SECTION("pure DP over every axis: two gradient AllReduces, counted twice, as the DP row") {
    Inputs in = book_case();
    in.erase("fsdp_axes");
    in["dp_axes"] = text("XYZ");
    in["tp_axes"] = text("-");
    in["T"] = num(750);  // 64 sequences, one per chip
    Calculation c = run("training", in);
    CHECK(texts(c, "operation") ==
          std::vector<std::string>{"In[B_XYZ, D] *_D W_in[D, F] -> Tmp[B_XYZ, F]",
                                   "Tmp[B_XYZ, F] *_F W_out[F, D] -> Out[B_XYZ, D]",
                                   "Tmp[B_XYZ, F] *_B dOut[B_XYZ, D] -> dW_out[F, D]{U_XYZ}",
                                   "AllReduce_XYZ dW_out[F, D]{U_XYZ} -> dW_out[F, D]",
                                   "dOut[B_XYZ, D] *_D W_out[F, D] -> dTmp[B_XYZ, F]",
                                   "In[B_XYZ, D] *_B dTmp[B_XYZ, F] -> dW_in[D, F]{U_XYZ}",
                                   "AllReduce_XYZ dW_in[D, F]{U_XYZ} -> dW_in[D, F]",
                                   "dTmp[B_XYZ, F] *_F W_in[D, F] -> dIn[B_XYZ, D]"});
    CHECK(pass_sum(c, "backward", "bytes") ==
          Approx(at(c, "strategies", "DP", "bytes_backward").number));
  }
  SECTION("ZeRO-1 keeps whole weights and gathers the updated ones once a step") {
    Inputs in = book_case();
    in["zero"] = text("1");
    Calculation c = run("training", in);
    const std::vector<std::string> ops = texts(c, "operation");
    CHECK(ops[1] == "In[B_XY, D] *_D W_in[D, F_Z] -> Tmp[B_XY, F_Z]");
    CHECK(texts(c, "pass").back() == "step");
    CHECK(ops.back() == "AllGather_XY W_out[F_Z, D_XY] -> W_out[F_Z, D]");
  }
}
