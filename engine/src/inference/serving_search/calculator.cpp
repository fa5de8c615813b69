// The `serving-search` calculator (chapter 8): for a model, dtypes, context and output lengths
// and a chip, every slice of its pod up to max_chips, every tp that divides the model, 1D and
// 2D MLP sharding and batch sizes up to a full HBM; the cost-latency front, and the cheapest
// configuration within a per-token latency and a time-to-first-token target, or why none is.
#include "scalebook/inference/calculator.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "../calculator/parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/transformer/model_preset.h"
#include "search.h"

namespace scalebook {
namespace {

using inference_parts::FrontierPoint;
using inference_parts::ServingPoint;
using inference_parts::ServingTargets;

constexpr auto num = number_output;
constexpr auto text = text_output;

std::vector<InputSpec> inputs() {
  std::vector<InputSpec> list;
  for (InputSpec& spec : inference_parts::inference_inputs()) {
    // The search's own: decode at every batch, every slice, tp and MLP sharding.
    if (spec.name == "phase" || spec.name == "batch" || spec.name == "shape" || spec.name == "tp")
      continue;
    if (spec.name == "mlp_sharding") {
      spec.choices.insert(spec.choices.begin(), "both");
      spec.choice_labels.insert(spec.choice_labels.begin(), "Try both");
      spec.default_value = Value::of("both");
      spec.description = "MLP sharding to try: both (1D, and 2D from 8 chips), or only one";
    }
    if (spec.name == "S") {
      spec.aliases = {"context"};
      spec.description = "tokens in each sequence's KV cache while it decodes (8k is 8192)";
      spec.label = "Context";
    }
    if (spec.name == "T") {
      spec.aliases = {"prompt"};
      spec.default_value = Value::none();
      spec.description = "prompt tokens each query prefills (default: the context)";
      spec.label = "Prompt";
    }
    list.push_back(std::move(spec));
  }
  auto at = list.begin() + 3;
  at = list.insert(at, labelled({"output", InputKind::count, "tokens",
                                 "tokens each query generates (its decode steps)", Value::of(512.0),
                                 1, false, 1e7},
                                "Output tokens")) +
       1;
  at = list.insert(at, labelled({"target_latency", InputKind::number, "s",
                                 "per-token latency the pick must meet (none: no limit)",
                                 Value::none(), 0, true, 1e4},
                                "Latency target")) +
       1;
  at = list.insert(at, labelled({"target_ttft", InputKind::number, "s",
                                 "time to first token the pick must meet (none: no limit)",
                                 Value::none(), 0, true, 1e5},
                                "Time-to-first-token target")) +
       1;
  at = list.insert(at, labelled({"max_chips", InputKind::count, "chips",
                                 "the largest slice to try (default: the chip's whole pod, or one "
                                 "GPU node)",
                                 Value::none(), 1, false, 1e6},
                                "Most chips")) +
       1;
  InputSpec step{"step", InputKind::choice, "",
                 "the step time: with its collectives (the engine's), or the book's roofline "
                 "(attention and weight matmuls only: chapter 8's worked problems)",
                 Value::of("collectives")};
  step.choices = {"collectives", "roofline"};
  at = list.insert(at, labelled(std::move(step), "Step time", InputGroup::main,
                                {"With collectives", "Roofline only (the book's)"})) +
       1;
  list.insert(at, labelled({"prefill_mfu", InputKind::number, "",
                            "model FLOPs utilization of the prompt's prefill (chapter 8: 0.4)",
                            Value::of(0.4), 0, true, 1},
                           "Prefill MFU", InputGroup::advanced));
  return list;
}

std::vector<OutputSpec> point_columns() {
  return {
      text("shape", "the slice", "Slice"),
      num("chips", "chips", "chips in the slice", "Chips"),
      num("tp", "chips", "chips per replica", "TP degree"),
      text("mlp", "MLP sharding: 1D or 2D weight-stationary", "MLP"),
      num("batch", "sequences", "sequences per replica", "Batch"),
      num("t_per_token", "s", "one decode step", "Latency per token"),
      num("ttft", "s", "the prompt's prefill on one replica", "Time to first token"),
      num("tokens_per_s_per_chip", "tokens/s", "decode throughput per chip", "Tokens/s per chip"),
      num("qps_per_chip", "queries/s", "queries per second per chip", "QPS per chip"),
      num("cost_per_million", "USD", "USD per million generated tokens (0: no price)",
          "Cost per 1M"),
      num("hbm_used", "B", "weights and caches per chip", "HBM used"),
      text("bound", "what sets the step", "Bound"),
      text("meets", "yes when within every target given", "Meets target")};
}

std::vector<OutputSpec> slice_columns() {
  return {text("shape", "the slice", "Slice"),
          num("chips", "chips", "chips in the slice", "Chips"),
          num("tp", "chips", "the widest replica that divides the model", "TP degree"),
          num("max_batch", "sequences", "sequences such a replica fits beside its weights",
              "Max batch"),
          num("t_per_token", "s", "the decode step at that batch", "Step time"),
          num("tokens_per_s_per_chip", "tokens/s", "throughput per chip at that batch",
              "Tokens/s per chip"),
          num("qps_per_chip", "queries/s", "queries per second per chip", "QPS per chip"),
          num("best_tokens_per_s_per_chip", "tokens/s",
              "the best of any tp, sharding and batch on this slice", "Best tokens/s per chip")};
}

const Schema& schema() {
  static const Schema s{
      "serving-search",
      "chapter 8's serving search: every slice of the chip's pod, tensor-parallel degree, MLP "
      "sharding and batch size for a model, its dtypes and a context; the cost-latency front "
      "and the cheapest configuration within a latency target",
      inputs(),
      {num("evaluated", "", "configurations evaluated (slice x tp x sharding x batch)",
           "Configurations evaluated"),
       num("fitting", "", "configurations whose weights and caches fit in HBM", "That fit"),
       num("front_points", "", "configurations on the cost-latency front", "On the front"),
       text("pick", "the cheapest configuration within the targets", "Pick"),
       num("pick_chips", "chips", "its slice's chips", "Its chips"),
       num("pick_latency", "s", "its per-token latency", "Its latency"),
       num("pick_ttft", "s", "its time to first token", "Its time to first token"),
       num("pick_throughput", "tokens/s", "its tokens per second per chip",
           "Its tokens/s per chip"),
       num("pick_qps", "queries/s", "its queries per second per chip", "Its QPS per chip"),
       num("pick_cost", "USD", "its USD per million generated tokens", "Its cost per 1M"),
       num("pick_hbm", "B", "its HBM used per chip", "Its HBM per chip"),
       text("pick_bound", "what sets its step", "Its bound"),
       num("fastest_latency", "s", "the lowest per-token latency of any fitting configuration",
           "Fastest latency"),
       num("target_miss", "s", "how far the closest configuration is past the target (0: met)",
           "Target missed by"),
       text("closest", "the configuration nearest the target when none meets it", "Closest"),
       num("min_chips", "chips", "the fewest chips whose HBM holds the weights and a cache",
           "Fewest chips"),
       text("min_slice", "the smallest slice whose HBM holds the weights and a cache",
            "Smallest slice"),
       text("too_small", "slices searched that cannot hold the weights", "Too small")},
      {{"front", "the configurations on the cost-latency front, fastest first", point_columns()},
       {"slices", "each slice with its widest replica at its largest batch, and its best",
        slice_columns()}}};
  return s;
}

std::string describe(const ServingPoint& p) {
  return p.at.shape + ", tp " + format_number(p.at.tp) + ", " +
         (p.mlp == MlpSharding::two_d ? "2D" : "1D") + ", batch " + format_number(p.at.batch);
}

// The time to first token: the prompt prefilled at batch 1, no faster than its FLOPs at `mfu`
// (the book's 0.91 s for 8k tokens of LLaMA 3-70B on 16 v5e at 40%).
Result<double> ttft_of(InferenceConfig config, double prompt, double mfu, bool roofline) {
  config.phase = InferencePhase::prefill;
  config.batch = 1;
  config.tokens = prompt;
  Result<InferenceStep> s = inference_step(config);
  if (!s.ok()) return s.error();
  const InferenceStep& r = s.value();
  return std::max(roofline ? r.t_roofline : r.t_step,
                  (r.flops_matmul + r.flops_attention) / (config.peak_flops * mfu));
}

// The book's step: its roofline, without the collectives, and what follows from it.
void without_collectives(InferenceStep& r) {
  if (!(r.t_roofline > 0) || r.t_roofline == r.t_step) return;
  const double faster = r.t_step / r.t_roofline;
  r.tokens_per_s *= faster;
  r.tokens_per_s_per_chip *= faster;
  r.t_per_token = r.t_roofline;
  r.t_step = r.t_roofline;
  r.t_collectives = 0;
  if (r.bound == InferenceBound::collectives)
    r.bound = r.t_attention >= r.t_matmul    ? InferenceBound::kv_load
              : r.t_flops >= r.t_weight_load ? InferenceBound::flops
                                             : InferenceBound::weight_load;
}

// Cheaper per token: more tokens per second per chip (the price is per chip). Within half a
// percent (the compute-bound plateau, where slices differ only by rounding), fewer chips, then
// the lower latency.
bool cheaper(const ServingPoint& a, const ServingPoint& b) {
  const double ta = a.at.step.tokens_per_s_per_chip, tb = b.at.step.tokens_per_s_per_chip;
  if (std::abs(ta - tb) > 0.005 * std::max(ta, tb)) return ta > tb;
  if (a.at.chips != b.at.chips) return a.at.chips < b.at.chips;
  return a.at.step.t_per_token < b.at.step.t_per_token;
}

struct SliceRow {
  std::string shape;
  double chips = 0;
  double tp = 0;
  std::optional<InferenceStep> whole;  // the widest replica on the slice at its largest batch
  double best = 0;
};

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip* chip = chip_of(in);
  ServingTargets goal;
  goal.output_tokens = in.number("output");
  goal.prompt_tokens = in.has("T") ? in.number("T") : in.number("S");
  goal.prefill_mfu = in.number("prefill_mfu");
  const double target_latency = in.has("target_latency") ? in.number("target_latency") : INFINITY;
  const double target_ttft = in.has("target_ttft") ? in.number("target_ttft") : INFINITY;
  double max_chips = chip->pod_chips > 0 ? chip->pod_chips : 1e6;
  if (in.has("max_chips")) max_chips = in.number("max_chips");
  const Model& m = *model_of(in);
  const double ep = in.number("ep");
  const std::string& only = in.text("mlp_sharding");
  const bool roofline = in.text("step") == "roofline";

  std::vector<ServingPoint> points;
  std::vector<SliceRow> slices;
  double min_chips = 0;
  std::string min_slice;
  double weights_bytes = 0;
  for (const std::string& shape : inference_parts::pod_shapes(*chip, max_chips)) {
    Result<Topology> where = topology_of(*chip, shape);
    if (!where.ok()) return where.error();
    SliceRow row{shape, where.value().chips};
    // On GPUs a replica may span whole nodes, its collectives then crossing the NICs.
    const double most = std::floor(row.chips / ep);
    for (double tp = 1; tp <= most; tp *= 2) {
      if (std::fmod(m.N, tp) != 0 || std::fmod(m.F, tp) != 0) continue;
      for (MlpSharding mlp : {MlpSharding::one_d, MlpSharding::two_d}) {
        // 2D only splits D from F with a few chips to spare (its X is at least 2).
        if (mlp == MlpSharding::two_d && (tp < 8 || only == "1d")) continue;
        if (mlp == MlpSharding::one_d && only == "2d" && tp >= 8) continue;
        Result<InferenceConfig> c = inference_parts::read_config(in, shape, tp, true);
        if (!c.ok()) {
          if (c.error().field == "tp" || c.error().field == "ep") continue;
          return c.error();
        }
        InferenceConfig config = c.value();
        config.mlp_sharding = mlp;
        config.batch = 1;
        Result<InferenceStep> first = inference_step(config);
        if (!first.ok()) return first.error();
        weights_bytes = first.value().weight_bytes_per_chip * tp;
        const double most_batch = first.value().max_batch;
        if (!(most_batch >= 1)) continue;  // the weights alone fill the HBM
        if (min_chips == 0 || tp * ep < min_chips) {
          min_chips = tp * ep;
          min_slice = shape;
        }
        Result<double> ttft = ttft_of(config, goal.prompt_tokens, goal.prefill_mfu, roofline);
        if (!ttft.ok()) return ttft.error();
        std::vector<double> ladder = inference_parts::batch_ladder(most_batch);
        // With a latency target, also the largest batch that meets it (latency grows with the
        // batch): the pick sits on the target, not on the rung below it.
        if (std::isfinite(target_latency)) {
          double lo = 0, hi = std::floor(most_batch);
          while (hi - lo > 0.5) {
            const double mid = std::floor((lo + hi + 1) / 2);
            config.batch = mid;
            Result<InferenceStep> t = inference_step(config);
            if (!t.ok()) return t.error();
            if (roofline) without_collectives(t.value());
            if (t.value().t_per_token <= target_latency)
              lo = mid;
            else
              hi = mid - 1;
          }
          if (lo >= 1 && std::find(ladder.begin(), ladder.end(), lo) == ladder.end()) {
            ladder.push_back(lo);
            std::sort(ladder.begin(), ladder.end());
          }
        }
        for (double b : ladder) {
          config.batch = b;
          Result<InferenceStep> s = inference_step(config);
          if (!s.ok()) return s.error();
          if (roofline) without_collectives(s.value());
          ServingPoint p{
              {shape, row.chips, tp, config.slice.replicas, b, s.value()}, mlp, ttft.value()};
          p.queries_per_s_per_chip = s.value().tokens_per_s_per_chip / goal.output_tokens;
          p.meets =
              s.value().fits && s.value().t_per_token <= target_latency && p.ttft <= target_ttft;
          row.best = std::max(row.best, s.value().fits ? s.value().tokens_per_s_per_chip : 0.0);
          // The largest tp that divides the model, 1D, at a full HBM: the last one written.
          if (mlp == MlpSharding::one_d && b == std::floor(most_batch)) {
            row.whole = s.value();
            row.tp = tp;
          }
          points.push_back(std::move(p));
        }
      }
    }
    slices.push_back(std::move(row));
  }

  // The front over latency and cost per token (the price is per chip, so the cheapest per
  // token is the most tokens per second per chip).
  std::vector<FrontierPoint> plain;
  plain.reserve(points.size());
  for (const ServingPoint& p : points) plain.push_back(p.at);
  inference_parts::mark_front(plain);
  for (std::size_t i = 0; i < points.size(); ++i) points[i].at.front = plain[i].front;

  const double price = chip->price_per_hour;
  const ServingPoint* pick = nullptr;
  const ServingPoint* fastest = nullptr;
  const ServingPoint* quickest_ttft = nullptr;
  double fitting = 0, front = 0;
  for (const ServingPoint& p : points) {
    if (!p.at.step.fits) continue;
    fitting += 1;
    front += p.at.front ? 1 : 0;
    if (!fastest || p.at.step.t_per_token < fastest->at.step.t_per_token) fastest = &p;
    if (!quickest_ttft || p.ttft < quickest_ttft->ttft) quickest_ttft = &p;
    if (p.meets && (!pick || cheaper(p, *pick))) pick = &p;
  }
  auto cost = [&](const ServingPoint& p) {
    return inference_parts::cost_per_million(price, p.at.chips, p.at.step.tokens_per_s);
  };
  out.set("evaluated", double(points.size()));
  out.set("fitting", fitting);
  out.set("front_points", front);
  const std::string largest = slices.empty() ? std::string("none") : slices.back().shape;
  std::string why;
  if (!fastest) {
    why = "no slice up to " + largest + " holds the weights (" + display_text(weights_bytes, "B") +
          ") and a cache: a larger slice (max_chips), narrower dtypes or a shorter context";
  } else if (!pick) {
    const bool latency_short = fastest->at.step.t_per_token > target_latency;
    why = latency_short
              ? "no configuration meets " + display_text(target_latency, "s") +
                    " per token: the fastest is " +
                    display_text(fastest->at.step.t_per_token, "s") + " (" + describe(*fastest) +
                    ")"
              : "no configuration meets a first token within " + display_text(target_ttft, "s") +
                    ": the quickest is " + display_text(quickest_ttft->ttft, "s") + " (" +
                    describe(*quickest_ttft) + ")";
  }
  if (pick) {
    out.set_text("pick", describe(*pick));
    out.set("pick_chips", pick->at.chips);
    out.set("pick_latency", pick->at.step.t_per_token);
    out.set("pick_ttft", pick->ttft);
    out.set("pick_throughput", pick->at.step.tokens_per_s_per_chip);
    out.set("pick_qps", pick->queries_per_s_per_chip);
    if (price > 0)
      out.set("pick_cost", cost(*pick));
    else
      out.set("pick_cost", Value::absent("the catalog has no price for this chip"));
    out.set("pick_hbm", pick->at.step.hbm_used);
    out.set_text("pick_bound", to_string(pick->at.step.bound));
  } else {
    for (const char* name : {"pick", "pick_chips", "pick_latency", "pick_ttft", "pick_throughput",
                             "pick_qps", "pick_cost", "pick_hbm", "pick_bound"})
      out.set(name, Value::absent(why));
  }
  std::string too_small;
  // A larger slice that cannot place one replica across it serves as copies of a smaller one.
  for (const SliceRow& r : slices)
    if (!r.whole && (min_chips == 0 || r.chips < min_chips))
      too_small += (too_small.empty() ? "" : ", ") + r.shape;
  out.set_text("too_small", too_small.empty()
                                ? std::string("none")
                                : too_small + ": the weights (" + display_text(weights_bytes, "B") +
                                      ") and a cache do not fit");
  if (fastest) {
    out.set("fastest_latency", fastest->at.step.t_per_token);
    out.set("min_chips", min_chips);
    out.set_text("min_slice", min_slice);
  } else {
    out.set("min_slice", Value::absent(why));
    out.set("fastest_latency", Value::absent(why));
    out.set("min_chips", Value::absent(why));
  }
  if (!fastest || (!std::isfinite(target_latency) && !std::isfinite(target_ttft))) {
    const char* reason = fastest ? "no target given" : "nothing fits";
    out.set("target_miss", Value::absent(fastest ? reason : why));
    out.set("closest", Value::absent(fastest ? reason : why));
  } else if (pick) {
    out.set("target_miss", 0.0);
    out.set_text("closest", describe(*pick));
  } else {
    const bool latency_short = fastest->at.step.t_per_token > target_latency;
    out.set("target_miss", latency_short ? fastest->at.step.t_per_token - target_latency
                                         : quickest_ttft->ttft - target_ttft);
    out.set_text("closest", why);
  }

  if (out.explain()) {
    std::vector<Step> st;
    st.push_back({"Configurations evaluated: slices up to " + largest +
                      ", every tp dividing the heads and F, 1D and 2D MLP sharding, batches up "
                      "to a full HBM",
                  latex_number(double(points.size())),
                  double(points.size()),
                  "",
                  "evaluated",
                  {}});
    if (fastest)
      st.push_back({"The fewest chips whose HBM holds the weights and a cache",
                    "N_\\text{min} = " + latex_number(min_chips),
                    min_chips,
                    "chips",
                    "min_chips",
                    {}});
    if (pick) {
      st.push_back(
          {"The pick, the most tokens per second per chip within the target: " + describe(*pick),
           "\\frac{" + latex_number(pick->at.batch * pick->at.replicas) + "}{" +
               latex_quantity(pick->at.step.t_per_token, "s") + " \\cdot " +
               latex_number(pick->at.chips) +
               "} = " + latex_number(pick->at.step.tokens_per_s_per_chip),
           pick->at.step.tokens_per_s_per_chip,
           "tokens/s",
           "pick_throughput",
           {}});
      st.push_back({"Queries per second per chip: each query generates " +
                        format_number(goal.output_tokens) + " tokens",
                    "\\frac{" + latex_number(pick->at.step.tokens_per_s_per_chip) + "}{" +
                        latex_number(goal.output_tokens) +
                        "} = " + latex_number(pick->queries_per_s_per_chip),
                    pick->queries_per_s_per_chip,
                    "queries/s",
                    "pick_qps",
                    {}});
    }
    out.steps(std::move(st));
  }

  if (out.tables()) {
    Table rows = empty_table(schema().tables[0]);
    std::vector<const ServingPoint*> on_front;
    for (const ServingPoint& p : points)
      if (p.at.front) on_front.push_back(&p);
    std::sort(on_front.begin(), on_front.end(), [](const ServingPoint* a, const ServingPoint* b) {
      return a->at.step.t_per_token < b->at.step.t_per_token;
    });
    for (const ServingPoint* p : on_front) {
      const InferenceStep& s = p->at.step;
      rows.rows.push_back({Value::of(p->at.shape), Value::of(p->at.chips), Value::of(p->at.tp),
                           Value::of(p->mlp == MlpSharding::two_d ? "2D" : "1D"),
                           Value::of(p->at.batch), Value::of(s.t_per_token), Value::of(p->ttft),
                           Value::of(s.tokens_per_s_per_chip), Value::of(p->queries_per_s_per_chip),
                           Value::of(cost(*p)), Value::of(s.hbm_used),
                           Value::of(to_string(s.bound)), Value::of(p->meets ? "yes" : "no")});
    }
    out.table("front", std::move(rows));
    Table by_slice = empty_table(schema().tables[1]);
    for (const SliceRow& r : slices) {
      if (!r.whole) continue;  // too_small names them
      const InferenceStep& s = *r.whole;
      by_slice.rows.push_back(
          {Value::of(r.shape), Value::of(r.chips), Value::of(r.tp), Value::of(s.max_batch),
           Value::of(s.t_per_token), Value::of(s.tokens_per_s_per_chip),
           Value::of(s.tokens_per_s_per_chip / goal.output_tokens), Value::of(r.best)});
    }
    out.table("slices", std::move(by_slice));
  }
  return std::nullopt;
}

}  // namespace

Calculator serving_search_calculator() { return {schema(), compute}; }

}  // namespace scalebook
