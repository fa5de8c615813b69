// A physical axis split in two (split=X4): its neighbouring chips (X, a line) and the groups of
// them (X', strided, sharing links), costed by hand; the search reaching TP degrees no whole
// axis has; the split's errors; and the batch's names and suffixes the command uses.
#include <string>

#include "helpers.h"
#include "scalebook/collectives/collective_cost.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

constexpr double kW = 9e10;  // v5p, one link one way (chapter 2's ICI table)

// The book's layer on a 16x16x16 v5p slice with X split into 4 neighbours and 4 groups.
Inputs split_mlp() {
  return {{"model", text("book-mlp")}, {"D", num(8192)},
          {"F", num(32768)},           {"L", num(1)},
          {"chip", text("tpu-v5p")},   {"shape", text("16x16x16")},
          {"split", text("X4")},       {"tp_axes", text("X")},
          {"B", num(4194304)},         {"T", num(4096)}};
}

const Table& collectives(const Calculation& c) {
  REQUIRE(c.tables[0].first == "collectives");
  return c.tables[0].second;
}

// The first row of the collectives table for this strategy.
std::size_t row_for(const Table& t, const std::string& strategy) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (cell(t, r, "strategy").text == strategy) return r;
  FAIL("no " << strategy << " row");
  return 0;
}

}  // namespace

TEST_CASE("a strided axis moves its bytes at 1/stride of a link and pays stride hops",
          "[collective][split]") {
  const LinkModel link{kW, 0, true};
  const double V = 1e9;
  // X' of a 16-chip ring split X4: 4 groups, 4 chips apart, still a ring.
  CollectiveCost outer =
      collective_cost(CollectiveOp::all_gather, V, {{'X', 4, true, 4}}, link, false);
  CHECK(outer.t_bandwidth == Approx(4 * 2 * V / (4 * kW)).epsilon(1e-12));  // 4 x the ring's
  CHECK(outer.hops == 8);
  // X: 4 neighbouring chips, a line: (n - 1) hops of a shard.
  CollectiveCost inner =
      collective_cost(CollectiveOp::all_gather, V, {{'X', 4, false, 1}}, link, false);
  CHECK(inner.t_bandwidth == Approx(3 * V / (4 * kW)).epsilon(1e-12));
  // Its worked steps say why.
  CollectiveCost explained =
      collective_cost(CollectiveOp::all_gather, V, {{'X', 4, true, 4}}, link, true);
  REQUIRE(!explained.steps.empty());
  CHECK(explained.steps[0].label ==
        "AllGather along X', a ring used both ways, its chips 4 apart (4 groups share each link)");
}

TEST_CASE("training: split=X4 gives tp 4 neighbouring chips and fsdp the groups", "[split]") {
  const Calculation c = run("training", split_mlp());
  CHECK(output_value(c, "layout").text == "fsdp 1024 (X'YZ) x tp 4 (X)");
  CHECK(output(c, "tp_degree") == 4);
  CHECK(output(c, "fsdp_degree") == 1024);
  CHECK(output(c, "M_X") == 2.25);  // X' counts a quarter: its links serve 4 groups
  CHECK(output_value(c, "sharding_in").text == "In[B_X'YZ, D_X]");
  const Table& t = collectives(c);
  // TP's AllGather of In on the line of 4: 3/4 V over one link.
  const std::size_t tp = row_for(t, "tp");
  CHECK(cell(t, tp, "axes").text == "X");
  const double V_tp = 2.0 * (4194304.0 / 1024) * 8192;  // In[B_X'YZ, D] gathered, bf16
  CHECK(cell(t, tp, "bytes").number == V_tp);
  CHECK(cell(t, tp, "time").number == Approx(0.75 * V_tp / kW).epsilon(1e-12));
  // FSDP's gather of W_in over X'YZ: the three axes' rates add, X' at a quarter of a ring's.
  const std::size_t fsdp = row_for(t, "fsdp");
  CHECK(cell(t, fsdp, "axes").text == "X'YZ");
  const double V_w = 2.0 * 8192 * 32768 / 4;
  const double t_outer = 4 * 2 * V_w / (4 * kW), t_ring = 8 * V_w / (16 * kW);
  CHECK(cell(t, fsdp, "time").number == Approx(1 / (1 / t_outer + 2 / t_ring)).epsilon(1e-12));
}

TEST_CASE("training: a split axis's errors name the field", "[split][errors]") {
  auto with = [](Inputs extra) {
    Inputs in = split_mlp();
    for (auto& [k, v] : extra) in[k] = v;
    return run_error("training", in);
  };
  check_error(with({{"split", text("X5")}}), ErrorCode::invalid_argument, "split",
              "split X5 needs a size that divides X's 16 chips and leaves at least 2 groups (2 to "
              "8)");
  check_error(with({{"split", text("X16")}}), ErrorCode::invalid_argument, "split",
              "split X16 needs a size that divides X's 16 chips and leaves at least 2 groups (2 "
              "to 8)");
  check_error(with({{"split", text("W4")}}), ErrorCode::invalid_argument, "split",
              "split must be axis letters each with the size of its inner part, like X4 (X's 4 "
              "neighbouring chips as X, the groups of them as X'), got \"W4\"");
  check_error(with({{"split", text("X")}}), ErrorCode::invalid_argument, "split",
              "split must be axis letters each with the size of its inner part, like X4 (X's 4 "
              "neighbouring chips as X, the groups of them as X'), got \"X\"");
  check_error(with({{"split", text("X4 x2")}}), ErrorCode::invalid_argument, "split",
              "split names axis X twice");
  check_error(with({{"split", text("none")}, {"fsdp_axes", text("X'YZ")}}),
              ErrorCode::invalid_argument, "fsdp_axes",
              "fsdp_axes must name axes of the slice (X, Y, Z), got \"X'YZ\"; X' is the outer "
              "part of a split axis: give split=X4 or the like");
  check_error(with({{"fsdp_axes", text("X'Y")}}), ErrorCode::invalid_argument, "fsdp_axes",
              "axis Z of 16x16x16 serves no strategy; name it in fsdp_axes or another strategy's "
              "axes");
  check_error(with({{"dp_axes", text("X'")}, {"fsdp_axes", text("X'YZ")}}),
              ErrorCode::invalid_argument, "fsdp_axes",
              "axis X' is given to both dp_axes and fsdp_axes; each axis serves one strategy");
}

TEST_CASE("training-search: a split axis reaches TP 8 on a 16x16x16 slice", "[search][split]") {
  // 512 sequences on 4096 chips: at most 512 batch shards, so TP is at least 8; whole axes
  // offer only 16, a split one 8.
  const Calculation c = run("training-search", {{"model", text("llama-3-70b")},
                                                {"chip", text("tpu-v5p")},
                                                {"shape", text("16x16x16")},
                                                {"chips", num(4096)},
                                                {"B", num(2097152)},
                                                {"T", num(4096)},
                                                {"split_sequences", text("no")}});
  CHECK(output_value(c, "best").text == "fsdp 512 (X'YZ) x tp 8 (X) on 16x16x16 split X8");
  CHECK(output_value(c, "inputs").text.find(" split=X8 ") != std::string::npos);
  // The same layout through the training calculator, and TP 16 on a whole axis: slower.
  Inputs base = {
      {"model", text("llama-3-70b")},
      {"chip", text("tpu-v5p")},
      {"shape", text("16x16x16")},
      {"B", num(2097152)},
      {"T", num(4096)},
      {"zero", text("3")},
      {"remat", text(output_value(c, "best_choices").text.find("none") != std::string::npos
                         ? "none"
                         : "ffw-matmuls")}};
  Inputs split8 = base, whole16 = base;
  split8["split"] = text("X8");
  split8["tp_axes"] = text("X");
  whole16["tp_axes"] = text("Z");
  const double t8 = output(run("training", split8), "step_time");
  CHECK(output(c, "step_time") == Approx(t8).epsilon(1e-6));
  CHECK(t8 < output(run("training", whole16), "step_time"));
  // The JAX export reshapes the slice's device mesh: X' before X keeps the neighbours adjacent.
  const std::string jax = output_value(c, "jax").text;
  CHECK(jax.find("devices = mesh_utils.create_device_mesh((16, 16, 16)).reshape(2, 8, 16, 16)") !=
        std::string::npos);
  CHECK(jax.find("mesh = Mesh(devices, (\"fsdp_x_outer\", \"tp\", \"fsdp_y\", \"fsdp_z\"))") !=
        std::string::npos);
}

TEST_CASE("training: batch and seq name B and T; token counts take binary suffixes",
          "[split][inputs]") {
  Inputs in = {{"model", text("llama-3-70b")},
               {"chip", text("tpu-v5p")},
               {"batch", text("4M")},
               {"seq", text("4k")},
               {"shape", text("16x16x4")}};
  const Calculation c = run("training", in);
  CHECK(output(c, "tokens_per_chip") == 4194304.0 / 1024);  // 4 Mi tokens over 1024 chips
  // Other quantities read k, M, G, T as powers of ten, and Ki, Mi as powers of two.
  const Calculation r = run("roofline", {{"flops", text("2T")}, {"bytes", text("1Gi")}});
  CHECK(output(r, "intensity") == Approx(2e12 / 1073741824.0).epsilon(1e-12));
  check_error(run_error("training", {{"B", num(4194304)}, {"batch", text("4M")}}),
              ErrorCode::invalid_argument, "batch",
              "batch is another name for B; give one of them");
  check_error(run_error("training", {{"B", text("4X")}}), ErrorCode::invalid_argument, "B",
              "B must be a number, got \"4X\"");
}
