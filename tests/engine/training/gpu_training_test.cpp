// Training on GPUs (chapter 12): the training calculator and search take a count of GPUs,
// whose axes are G (a node's GPUs) and N (the nodes), and cost each strategy's collectives on
// the switched fabric its group spans.
#include <cmath>
#include <string>

#include "helpers.h"
#include "scalebook/training/training.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

Inputs on_h100(const char* gpus) {
  return {{"model", text("llama-3-70b")}, {"chip", text("h100")}, {"shape", text(gpus)},
          {"B", num(16777216)},           {"T", num(4096)},       {"remat", text("block")}};
}

}  // namespace

TEST_CASE("training on GPUs: the DP/FSDP threshold is C over what the group's fabric gives",
          "[training][gpus]") {
  const double C = 9.89e14;
  // Pure FSDP in one node: a ring over NVLink, 450e9 x 8/7 per GPU.
  Calculation node = run("training", on_h100("8"));
  CHECK(output(node, "critical_batch") == Approx(C / (450e9 * 8 / 7)));
  // Pure FSDP over 4,096 GPUs: the leaf binds at 400e9 x 32/31 per node (the book's 2475
  // tokens per GPU rounds this to C / 400e9).
  Calculation pod = run("training", on_h100("4096"));
  CHECK(output(pod, "critical_batch") == Approx(C / (400e9 * 32 / 31)));
  CHECK(output(pod, "critical_batch") == Approx(2475).epsilon(0.04));
  // 8-way TP takes the node: FSDP has one GPU per node and an eighth of its NICs.
  Inputs in = on_h100("4096");
  in["tp"] = num(8);
  Calculation tp = run("training", in);
  CHECK(output_value(tp, "layout").text == "fsdp 512 (N) x tp 8 (G)");
  CHECK(output(tp, "critical_batch") == Approx(C / (50e9 * 32 / 31)));
  // TP inside the node: max_tp = M_Y F / alpha with M_Y = 8/7: F W 8/7 / C.
  CHECK(output(tp, "max_tp") == Approx(28672 * 450e9 * 8 / 7 / C));
  CHECK(output_value(tp, "bound").text != "ici");
}

TEST_CASE("training on GPUs: a degree without axes splits the nodes", "[training][gpus]") {
  // LLaMA 3 405B as Meta trained it (published-runs.json): 8,192 H100s, TP 8, PP 16, DP 64
  // (sharded optimizer: fsdp with ZeRO-1 here), 16M-token batches of 8k sequences. Its 126
  // layers do not split evenly over 16 stages: the largest stage holds 8.
  Inputs in = {{"model", text("llama-3-405b")},
               {"chip", text("h100")},
               {"shape", text("8192")},
               {"tp", num(8)},
               {"pp", num(16)},
               {"fsdp", num(64)},
               {"zero", text("1")},
               {"microbatches", num(32)},
               {"B", num(16777216)},
               {"T", num(8192)}};
  Calculation c = run("training", in);
  CHECK(output_value(c, "layout").text == "fsdp 64 (N') x tp 8 (G) x pp 16 (N)");
  CHECK(stage_imbalance(126, 16) == Approx(8 / (126.0 / 16)));
  // Its pipeline sends cross nodes: a GPU's eighth of the node's 400e9.
  const Table& t = table(c, "collectives");
  bool sends = false;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (cell(t, r, "op").text != "send") continue;
    sends = true;
    CHECK(cell(t, r, "time").number == Approx(cell(t, r, "bytes").number / 50e9));
  }
  CHECK(sends);
}

TEST_CASE("training-search lays out GPUs as it does a TPU pod", "[training][gpus][search]") {
  Calculation c = run("training-search", {{"model", text("llama-3-70b")},
                                          {"chip", text("h100")},
                                          {"chips", num(4096)},
                                          {"B", num(4194304)},
                                          {"T", num(4096)}});
  CHECK(output(c, "feasible") > 0);
  CHECK(output(c, "chips_used") == 4096);
  // Its best layout is one the training calculator reproduces from the printed inputs.
  const std::string inputs = output_value(c, "inputs").text;
  CHECK(inputs.rfind("shape=4096 ", 0) == 0);
}
