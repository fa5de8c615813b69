// The `inference-frontier` calculator: the inference calculator's form, a list of slices and
// of batch sizes; every decode step among them, per-token latency against throughput per chip
// and cost, the Pareto front, and the best point under a latency target.
#include "scalebook/inference/calculator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "../calculator/parts.h"
#include "frontier.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook {
namespace {

using inference_parts::FrontierPoint;

constexpr std::size_t kMostShapes = 16;
constexpr std::size_t kMostBatches = 128;

constexpr auto num = number_output;
constexpr auto text = text_output;

std::vector<InputSpec> inputs() {
  std::vector<InputSpec> list;
  for (InputSpec& spec : inference_parts::inference_inputs()) {
    // One decode step per point: the phase, prompt and single slice are the frontier's own.
    if (spec.name == "phase" || spec.name == "T" || spec.name == "shape" || spec.name == "batch")
      continue;
    list.push_back(std::move(spec));
  }
  InputSpec shapes = labelled({"shapes", InputKind::text, "",
                               "slices to try, like 2x2 4x4 8x8 (default: up to 8 doubling "
                               "slices from one chip, or 1 to 8 GPUs); at most 16",
                               Value::none()},
                              "Slices");
  shapes.help =
      "Shapes separated by spaces or commas; each holds one replica when tp is not given "
      "(the largest power-of-two tp that divides the heads and F, the rest replicas).";
  InputSpec batches = labelled({"batches", InputKind::text, "",
                                "batch sizes to try, like 1 8 64 256 (default: 64 from 1 to 4096); "
                                "at most 128",
                                Value::none()},
                               "Batch sizes");
  InputSpec target = labelled({"target_latency", InputKind::number, "s",
                               "per-token latency the pick must meet (none: the highest "
                               "throughput per chip)",
                               Value::none(), 0, true, 1e4},
                              "Latency target");
  list.insert(list.begin() + 2, shapes);
  list.insert(list.begin() + 3, batches);
  list.insert(list.begin() + 4, target);
  return list;
}

std::vector<OutputSpec> point_columns() {
  return {text("shape", "the slice", "Slice"),
          num("chips", "chips", "chips in the slice", "Chips"),
          num("tp", "chips", "chips per replica", "TP degree"),
          num("batch", "sequences", "sequences per replica", "Batch"),
          num("t_per_token", "s", "one decode step", "Latency per token"),
          num("tokens_per_s_per_chip", "tokens/s", "throughput per chip", "Throughput per chip"),
          num("cost_per_million", "USD", "USD per million tokens (0: no price)", "Cost per 1M"),
          num("t_kv_load", "s", "KV caches from HBM", "KV loading"),
          num("t_weight_load", "s", "weights from HBM", "Weight loading"),
          num("t_flops", "s", "matmul and attention FLOPs at peak", "FLOPs"),
          num("t_collectives", "s", "the step's collectives", "Collectives"),
          num("hbm_used", "B", "weights and caches per chip", "HBM used"),
          text("bound", "what sets the step", "Bound"),
          text("fits", "yes when it fits in HBM", "Fits"),
          text("front", "yes on the Pareto front", "On the front")};
}

const Schema& schema() {
  static const Schema s{
      "inference-frontier",
      "chapter 7's latency-throughput frontier: one decode step at every batch size on every "
      "slice, per-token latency against tokens per second per chip and cost, the Pareto front "
      "marked, and the best point under a latency target",
      inputs(),
      {num("evaluated", "", "slice x batch points evaluated", "Points evaluated"),
       num("fitting", "", "points whose weights and caches fit in HBM", "Points that fit"),
       num("front_points", "", "points on the Pareto front", "Points on the front"),
       text("pick", "the best point: highest throughput per chip within the target", "Best point"),
       num("pick_latency", "s", "its per-token latency", "Its latency"),
       num("pick_throughput", "tokens/s", "its tokens per second per chip", "Its throughput"),
       num("pick_cost", "USD", "its USD per million tokens", "Its cost per 1M"),
       num("fastest_latency", "s", "the lowest per-token latency of any fitting point",
           "Fastest latency"),
       num("target_miss", "s", "how far the fastest point is above the target (0: met)",
           "Target missed by"),
       text("skipped", "slices left out and why", "Slices left out")},
      {{"points", "every slice x batch point", point_columns()}}};
  return s;
}

Result<std::vector<double>> read_batches(const ResolvedInputs& in) {
  if (!in.has("batches")) return inference_parts::default_batches();
  return inference_parts::read_batches(in, "batches", kMostBatches);
}

// The slice's config: the given tp, or one replica as wide as the slice.
Result<InferenceConfig> config_of(const ResolvedInputs& in, const std::string& shape) {
  if (in.has("tp")) return inference_parts::read_config(in, shape, 0, true);
  return inference_parts::widest_config(in, shape, "shapes");
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip* chip = chip_of(in);
  std::vector<std::string> shapes;
  if (in.has("shapes")) {
    Result<std::vector<std::string>> words = inference_parts::read_words(in, "shapes", kMostShapes);
    if (!words.ok()) return words.error();
    shapes = words.value();
  } else {
    shapes = inference_parts::default_shapes(*chip);
  }
  Result<std::vector<double>> batches = read_batches(in);
  if (!batches.ok()) return batches.error();
  std::vector<FrontierPoint> points;
  std::string skipped;
  for (const std::string& shape : shapes) {
    Result<InferenceConfig> c = config_of(in, shape);
    if (!c.ok()) {
      // A slice named by the reader that cannot exist is an error; one the weights do not fit
      // is a point like any other.
      if (in.has("shapes"))
        return Error{ErrorCode::invalid_argument, "shapes",
                     "shapes: " + shape + ": " + c.error().message};
      skipped += (skipped.empty() ? "" : "; ") + shape + ": " + c.error().message;
      continue;
    }
    InferenceConfig config = c.value();
    for (double b : batches.value()) {
      config.batch = b;
      Result<InferenceStep> s = inference_step(config);
      if (!s.ok()) {
        Error e = s.error();
        if (e.field == "tp" || e.field == "ep") e.message = shape + ": " + e.message;
        return e;
      }
      points.push_back({shape, config.slice.topology.chips, config.slice.tp, config.slice.replicas,
                        b, s.value()});
    }
  }
  inference_parts::mark_front(points);
  const double price = chip->price_per_hour;
  const double target = in.has("target_latency") ? in.number("target_latency") : INFINITY;
  const FrontierPoint* pick = nullptr;
  const FrontierPoint* fastest = nullptr;
  double fitting = 0, front = 0;
  for (const FrontierPoint& p : points) {
    if (!p.step.fits) continue;
    fitting += 1;
    front += p.front ? 1 : 0;
    if (!fastest || p.step.t_per_token < fastest->step.t_per_token) fastest = &p;
    if (p.step.t_per_token <= target &&
        (!pick || p.step.tokens_per_s_per_chip > pick->step.tokens_per_s_per_chip))
      pick = &p;
  }
  auto cost = [&](const FrontierPoint& p) {
    return inference_parts::cost_per_million(price, p.chips, p.step.tokens_per_s);
  };
  out.set("evaluated", double(points.size()));
  out.set("fitting", fitting);
  out.set("front_points", front);
  if (pick) {
    out.set_text("pick", pick->shape + ", batch " + format_number(pick->batch) + ", tp " +
                             format_number(pick->tp));
    out.set("pick_latency", pick->step.t_per_token);
    out.set("pick_throughput", pick->step.tokens_per_s_per_chip);
    if (price > 0)
      out.set("pick_cost", cost(*pick));
    else
      out.set("pick_cost", Value::absent("the catalog has no price for this chip"));
  } else {
    const std::string why =
        !fastest ? std::string(
                       "no point fits in HBM: a larger slice, a smaller batch or "
                       "context, or narrower dtypes")
                 : "no point meets " + display_text(target, "s") + ": the fastest is " +
                       display_text(fastest->step.t_per_token, "s") + " (" + fastest->shape +
                       ", batch " + format_number(fastest->batch) + ")";
    for (const char* name : {"pick", "pick_latency", "pick_throughput", "pick_cost"})
      out.set(name, Value::absent(why));
  }
  if (fastest) {
    out.set("fastest_latency", fastest->step.t_per_token);
    if (std::isfinite(target))
      out.set("target_miss", std::max(0.0, fastest->step.t_per_token - target));
    else
      out.set("target_miss", Value::absent("no latency target given"));
  } else {
    out.set("fastest_latency", Value::absent("no point fits in HBM"));
    out.set("target_miss", Value::absent("no point fits in HBM"));
  }
  out.set_text("skipped", skipped.empty() ? "none" : skipped);
  if (out.explain()) {
    std::vector<Step> st;
    st.push_back({"Decode steps evaluated: every batch size on every slice",
                  latex_number(double(points.size())) + " = " +
                      latex_number(double(points.size() /
                                          std::max<std::size_t>(batches.value().size(), 1))) +
                      " \\text{ slices} \\times " + latex_number(double(batches.value().size())) +
                      " \\text{ batches}",
                  double(points.size()),
                  "",
                  "evaluated",
                  {}});
    if (fastest)
      st.push_back({"The fastest point that fits: " + fastest->shape + ", batch " +
                        format_number(fastest->batch),
                    "T_\\text{token} = " + latex_quantity(fastest->step.t_per_token, "s"),
                    fastest->step.t_per_token,
                    "s",
                    "fastest_latency",
                    {}});
    if (pick) {
      st.push_back({"The pick: the most tokens per second per chip" +
                        std::string(std::isfinite(target) ? " within the target" : "") + ", " +
                        pick->shape + " at batch " + format_number(pick->batch),
                    "\\frac{" + latex_number(pick->batch * pick->replicas) + "}{" +
                        latex_quantity(pick->step.t_per_token, "s") + " \\cdot " +
                        latex_number(pick->chips) +
                        "} = " + latex_number(pick->step.tokens_per_s_per_chip),
                    pick->step.tokens_per_s_per_chip,
                    "tokens/s",
                    "pick_throughput",
                    {}});
    }
    out.steps(std::move(st));
  }
  Table rows = empty_table(schema().tables[0]);
  rows.rows.reserve(points.size());
  for (const FrontierPoint& p : points) {
    const InferenceStep& s = p.step;
    rows.rows.push_back({Value::of(p.shape), Value::of(p.chips), Value::of(p.tp),
                         Value::of(p.batch), Value::of(s.t_per_token),
                         Value::of(s.tokens_per_s_per_chip), Value::of(cost(p)),
                         Value::of(s.t_kv_load), Value::of(s.t_weight_load),
                         Value::of(s.t_flops + s.t_attention_flops), Value::of(s.t_collectives),
                         Value::of(s.hbm_used), Value::of(to_string(s.bound)),
                         Value::of(s.fits ? "yes" : "no"), Value::of(p.front ? "yes" : "no")});
  }
  out.table("points", std::move(rows));
  return std::nullopt;
}

}  // namespace

Calculator inference_frontier_calculator() { return {schema(), compute}; }

}  // namespace scalebook
