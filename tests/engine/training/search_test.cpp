// The configuration search: that every configuration it reports is the training calculator's
// (same step time and memory from the inputs it prints), that it finds the fastest one a
// brute-force walk through the training calculator finds, that its lists are ordered as they
// say, chapter 6's layout for LLaMA 3 70B, and its bad inputs.
#include "scalebook/training/search.h"

#include <cmath>
#include <sstream>
#include <string>

#include "helpers.h"
#include "scalebook/core/registry.h"
#include "scalebook/transformer/models.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const std::string& t) { return Value::of(t); }

// The training calculator's inputs for the search's printed "shape=... zero=3 ...".
Inputs with_words(Inputs in, const std::string& words) {
  std::istringstream s(words);
  std::string word;
  while (s >> word) {
    const std::size_t eq = word.find('=');
    std::string value = word.substr(eq + 1);
    // fsdp_axes="X'YZ": quoted for a shell, as a user would paste it.
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    in[word.substr(0, eq)] = text(value);
  }
  return in;
}

Inputs llama70b_pod() {
  return {{"model", text("llama-3-70b")},
          {"chip", text("tpu-v5p")},
          {"chips", num(8192)},
          {"B", num(4194304)},
          {"T", num(4096)}};
}

}  // namespace

TEST_CASE("training-search: each configuration is the training calculator's", "[search]") {
  const Calculation c = run("training-search", llama70b_pod());
  for (const char* name : {"top", "families", "pareto"}) {
    const Table& t = table(c, name);
    REQUIRE(!t.rows.empty());
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      Inputs in = with_words({{"model", text("llama-3-70b")},
                              {"chip", text("tpu-v5p")},
                              {"B", num(4194304)},
                              {"T", num(4096)}},
                             cell(t, r, "inputs").text);
      const Calculation tr = run("training", in);
      INFO(name << " row " << r << ": " << cell(t, r, "inputs").text);
      // The search keeps floats: agree to their precision.
      CHECK(output(tr, "step_time") == Approx(cell(t, r, "step_time").number).epsilon(1e-6));
      CHECK(output(tr, "mem_total") == Approx(cell(t, r, "mem_total").number).epsilon(1e-6));
      // The table's bound adds the share of the step spent waiting on communication.
      const double exposed = output(tr, "exposed_fraction");
      const std::string share = std::to_string(static_cast<long long>(std::lround(100 * exposed)));
      CHECK(cell(t, r, "bound").text ==
            output_value(tr, "bound").text + (exposed > 0.005 ? " + " + share + "% comms" : ""));
      CHECK(output(tr, "mem_total") <= 0.9 * output(tr, "hbm_capacity"));
    }
  }
}

TEST_CASE("training-search: its lists are ordered as they say", "[search]") {
  const Calculation c = run("training-search", llama70b_pod());
  const Table& top = table(c, "top");
  REQUIRE(top.rows.size() == 10);
  for (std::size_t r = 1; r < top.rows.size(); ++r)
    CHECK(cell(top, r - 1, "step_time").number <= cell(top, r, "step_time").number);
  CHECK(output(c, "step_time") == cell(top, 0, "step_time").number);
  const Table& pareto = table(c, "pareto");
  REQUIRE(pareto.rows.size() >= 2);
  for (std::size_t r = 1; r < pareto.rows.size(); ++r) {
    CHECK(cell(pareto, r - 1, "mem_total").number < cell(pareto, r, "mem_total").number);
    CHECK(cell(pareto, r - 1, "step_time").number > cell(pareto, r, "step_time").number);
  }
  // The front ends at the fastest configuration of all.
  CHECK(cell(pareto, pareto.rows.size() - 1, "step_time").number ==
        cell(top, 0, "step_time").number);
  CHECK(output(c, "feasible") <= output(c, "evaluated"));
}

TEST_CASE("training-search: chapter 6's LLaMA 3 70B on a pod: less TP than the book's wins",
          "[search]") {
  // The chapter's three questions pick mixed FSDP + 4-way TP at 4M tokens. The search's best
  // FSDP + TP layout takes 2-way TP on pairs of neighbouring chips (one axis split X2): in the
  // step model every TP collective is on the critical path, and 2-way TP spends half of 4-way's
  // time there while FSDP's gathers still hide behind compute.
  const Calculation c = run("training-search", llama70b_pod());
  const Table& families = table(c, "families");
  std::size_t row = 0;
  while (row < families.rows.size() && cell(families, row, "family").text != "FSDP + TP") ++row;
  REQUIRE(row < families.rows.size());
  CHECK(cell(families, row, "layout").text ==
        "fsdp 2048 (X'YZ) x tp 2 (X) on 16x16x16 split X2 x dp 2 (DCN)");
  CHECK(output(c, "tokens_per_chip") == 512);
  Inputs book = {{"model", text("llama-3-70b")},
                 {"chip", text("tpu-v5p")},
                 {"shape", text("16x16x4")},
                 {"slices", num(8)},
                 {"fsdp_axes", text("XY")},
                 {"tp_axes", text("Z")},
                 {"B", num(4194304)},
                 {"T", num(4096)},
                 {"zero", text("3")},
                 {"remat", text("none")},
                 {"split_sequences", text("yes")}};
  const Calculation four = run("training", book);
  CHECK(output_value(four, "bound").text == "compute");
  // 620 ms = 501 ms of compute + 119 ms of TP on the critical path: compute is the largest
  // term, and the detail says what the rest of the step waits on.
  CHECK(output(four, "t_compute") == Approx(0.501).epsilon(0.002));
  CHECK(output(four, "t_critical") == Approx(0.1193).epsilon(0.002));
  CHECK(output_value(four, "bound_detail").text ==
        "compute-bound; 119 ms more (19% of the step) waits on communication: 119 ms of TP, EP "
        "and pipeline collectives on the critical path");
  CHECK(cell(families, row, "step_time").number < output(four, "step_time"));
  // Pure FSDP over all 8192 chips is communication-bound, as the chapter's second question says.
  CHECK(cell(families, 0, "family").text == "pure FSDP");
  CHECK(cell(families, 0, "bound").text.rfind("ici", 0) == 0);
}

TEST_CASE("training-search: it finds the fastest layout a brute-force walk finds", "[search]") {
  // Every assignment of a 4x4x4 slice's axes, ZeRO stage and remat policy, through the training
  // calculator one by one (no pipeline: pp_axes=none keeps the walk small).
  const char* strategies[] = {"dp_axes", "fsdp_axes", "tp_axes", "ep_axes"};
  const std::string axes = "XYZ";
  Inputs base = {{"model", text("llama-3-8b")},
                 {"chip", text("tpu-v5p")},
                 {"shape", text("4x4x4")},
                 {"B", num(262144)},
                 {"T", num(4096)},
                 {"pp_axes", text("none")}};
  double best = INFINITY;
  for (int code = 0; code < 64; ++code) {
    std::string given[4];
    for (int a = 0, rest = code; a < 3; ++a, rest /= 4) given[rest % 4] += axes[a];
    for (const char* zero : {"1", "2", "3"}) {
      for (const char* remat : {"none", "big-matmuls", "ffw-matmuls", "block"}) {
        Inputs in = base;
        for (int s = 0; s < 4; ++s) in[strategies[s]] = text(given[s].empty() ? "none" : given[s]);
        in["zero"] = text(zero);
        in["remat"] = text(remat);
        auto r = calculate("training", in, {false});
        if (!r.ok()) continue;
        double mem = 0, step = 0, hbm = 0;
        for (const auto& [n, v] : r.value().outputs) {
          if (n == "mem_total") mem = v.number;
          if (n == "step_time") step = v.number;
          if (n == "hbm_capacity") hbm = v.number;
        }
        if (mem <= 0.9 * hbm) best = std::min(best, step);
      }
    }
  }
  REQUIRE(std::isfinite(best));
  Inputs search = base;
  search.erase("pp_axes");
  search["chips"] = num(64);
  const Calculation c = run("training-search", search);
  // The search also tries pipelines, so it can only do as well or better.
  CHECK(output(c, "step_time") <= Approx(best).epsilon(1e-6));
  const Table& families = table(c, "families");
  double best_without_pp = INFINITY;
  for (std::size_t r = 0; r < families.rows.size(); ++r)
    if (cell(families, r, "family").text != "with PP")
      best_without_pp = std::min(best_without_pp, cell(families, r, "step_time").number);
  CHECK(best_without_pp == Approx(best).epsilon(1e-6));
}

TEST_CASE("training-search: chips are what the reader has; it uses the slices that fit",
          "[search]") {
  // A full v5p pod is 16x20x28 = 8,960 chips. A batch of 1,024 sequences splits over no layout
  // of them (8,960 = 2^8 x 35, and every batch shard must hold whole sequences or equal parts
  // of one), so the search also lays out 8,192: two 16x16x16 slices over DCN.
  Inputs in = llama70b_pod();
  in["chips"] = num(8960);
  const Calculation pod = run("training-search", in);
  const Calculation exact = run("training-search", llama70b_pod());
  CHECK(output(pod, "chips_used") == 8192);
  CHECK(output(pod, "chips_idle") == 768);
  CHECK(output_value(pod, "chips_note").text ==
        "8,192 of 8,960 chips: a batch of 1,024 sequences splits over 8,192 but over no layout "
        "of all 8,960");
  CHECK(output_value(pod, "best").text == output_value(exact, "best").text);
  CHECK(output(pod, "step_time") == output(exact, "step_time"));
  CHECK(output_value(exact, "chips_note").text == "all 8,192 chips");
  // 3 sequences on 8,192 chips: 3 x 2^11 = 6,144 is the largest count they split over.
  in = llama70b_pod();
  in["B"] = num(4096 * 3);
  const Calculation three = run("training-search", in);
  CHECK(output(three, "chips_used") == 6144);
  CHECK(output(three, "chips_idle") == 2048);
}

TEST_CASE("training-search: bad input names the field", "[search][errors]") {
  auto bad = [](Inputs in) { return run_error("training-search", in); };
  Inputs in = llama70b_pod();
  in["shape"] = text("16x16x16");
  in["chips"] = num(6000);
  check_error(bad(in), ErrorCode::invalid_argument, "chips",
              "chips=6000 is not a whole number of 16x16x16 slices (4096 chips each)");
  in = llama70b_pod();
  in["chips"] = num(16);
  in["model"] = text("llama-3-405b");
  const Error e = bad(in);
  CHECK(e.field == "chips");
  CHECK(e.code == ErrorCode::out_of_range);
  // 405e9 parameters at 2 + 2 + 2 x 4 bytes and one 2-byte D-wide input per layer per token,
  // over 90% of 95.74 GB: about 5,400 chips (the exact count from the preset's parameters).
  CHECK_THAT(e.message, Catch::Matchers::StartsWith("LLaMA 3 405B fits in none of the ") &&
                            Catch::Matchers::Contains("chips to hold its weights"));
  in = llama70b_pod();
  in["chip"] = text("h100");
  in["chips"] = num(12);
  check_error(bad(in), ErrorCode::invalid_argument, "chips",
              "chips must be at most 8 GPUs (one h100 node) or a multiple of 8, got 12");
  in["chip"] = text("v100");
  check_error(bad(in), ErrorCode::unsupported, "chip",
              "training-search lays out a TPU slice or GPUs, and v100 has neither an ICI torus "
              "nor an NVLink domain in the catalog");
  in = llama70b_pod();
  in["chips"] = num(8192.5);
  CHECK(bad(in).field == "chips");
}

TEST_CASE("training-search: the work budget refuses before working", "[search][errors]") {
  SearchRequest q;
  q.chip = find_chip("tpu-v5p");
  q.base.shape = shape_of_model(*find_model("llama-3-70b"));
  q.base.B = 4194304;
  q.base.T = 4096;
  q.base.hbm_capacity = q.chip->hbm_capacity;
  q.chips = 8192;
  q.max_evaluations = 100;
  Result<SearchResult> r = search_training(q);
  REQUIRE(!r.ok());
  CHECK(r.error().field == "chips");
  CHECK_THAT(r.error().message,
             Catch::Matchers::Contains("more than its budget of 100; give a slice shape"));
}

TEST_CASE("training-search: it reports its progress, rising to 1, about a hundred times at most",
          "[search]") {
  std::vector<double> seen;
  CalculateOptions options;
  options.explain = false;
  options.progress = [&](double f) { seen.push_back(f); };
  auto with = calculate("training-search", llama70b_pod(), options);
  REQUIRE(with.ok());
  REQUIRE(seen.size() >= 10);
  CHECK(seen.size() <= 101);
  for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] > seen[i - 1]);
  CHECK(seen.front() > 0);
  CHECK(seen.back() == Approx(1.0));
  // The same answer as without a listener; a calculator that counts no work never calls it.
  auto without = calculate("training-search", llama70b_pod(), {.explain = false});
  REQUIRE(without.ok());
  for (const char* name : {"evaluated", "feasible", "step_time", "mem_total"})
    CHECK(output(without.value(), name) == output(with.value(), name));
  seen.clear();
  REQUIRE(calculate("training", {{"model", text("llama-3-70b")}}, options).ok());
  CHECK(seen.empty());
}
