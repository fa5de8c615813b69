// The `training-search` calculator: the training calculator's model, batch, chip and memory
// inputs, plus the chips or slice to search; the best configuration, the top k, the best of
// each family and the Pareto front as tables, and the best one as inputs, notation and JAX.
#include <cmath>
#include <string>
#include <vector>

#include "../step/parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/training/search.h"

namespace scalebook {
namespace {

// The training calculator's inputs the search shares, as it declares them.
const char* const kShared[] = {
    "model",           "B",           "T",     "chip",         "grad_accum",
    "optimizer",       "offload",     "dtype", "dtype_params", "dtype_grads",
    "dtype_optimizer", "uneven_batch"};

bool shared(const InputSpec& spec) {
  for (const char* name : kShared)
    if (spec.name == name) return true;
  // Every model field and chip override too.
  return spec.group == InputGroup::override;
}

InputSpec count(const char* name, const char* unit, const char* description, Value fallback,
                double min, double max, const char* label) {
  return labelled({name, InputKind::count, unit, description, std::move(fallback), min, false, max},
                  label);
}

std::vector<InputSpec> inputs() {
  std::vector<InputSpec> list;
  for (const InputSpec& spec : training_parts::training_schema().inputs)
    if (shared(spec)) list.push_back(spec);
  list.push_back(count("chips", "chips",
                       "chips in all, as one slice or equal slices over DCN, of every shape the "
                       "pod allows (none: one slice of shape)",
                       Value::of(8192.0), 1, 1e6, "Chips"));
  list.push_back(
      labelled({"shape", InputKind::text, "",
                "one slice's shape, sizes joined by x (none: search the shapes)", Value::none()},
               "Slice shape"));
  list.push_back(count("slices", "slices", "slices over DCN (none: search them)", Value::none(), 1,
                       1e5, "Slices over DCN"));
  list.push_back(labelled({"headroom", InputKind::number, "",
                           "fraction of HBM to leave free (fragmentation, buffers, the compiler)",
                           Value::of(0.1), 0, false, 0.9},
                          "HBM headroom", InputGroup::advanced));
  list.push_back(count("top", "configurations", "how many of the best to list", Value::of(10.0), 1,
                       100, "Configurations shown"));
  InputSpec split{"split_sequences", InputKind::choice, "",
                  "let batch shards cut sequences into equal parts (sequence sharding)",
                  Value::of("yes")};
  split.choices = {"no", "yes"};
  list.push_back(labelled(std::move(split), "Split sequences", InputGroup::advanced));
  return list;
}

constexpr auto num = number_output;
constexpr auto text = text_output;

std::vector<OutputSpec> config_columns(bool with_why) {
  std::vector<OutputSpec> c = {
      text("layout", "strategies, degrees and axes", "Layout"),
      text("choices", "ZeRO stage, remat policy, pipeline microbatches and schedule", "Choices"),
      num("step_time", "s", "one training step", "Step time"),
      text("bound",
           "what bounds it (compute, ici, dcn, hbm or pcie), and the share of the step spent "
           "waiting on communication",
           "Bound"),
      num("mfu_ceiling", "", "model FLOPs over peak, everything overlapped", "MFU ceiling"),
      num("mem_total", "B", "memory per chip", "Memory per chip"),
      text("inputs", "the training calculator's inputs that reproduce it", "Inputs")};
  if (with_why) c.push_back(text("why", "why it beats the next one down", "Why"));
  return c;
}

const Schema& schema() {
  static const Schema s{
      "training-search",
      "chapter 6's configuration search: every slice, shape and assignment of its axes to DP, "
      "FSDP, TP, pipeline and EP, with ZeRO stage, remat and pipeline schedule, evaluated by "
      "the training calculator and ranked by step time",
      inputs(),
      {num("evaluated", "configurations", "configurations evaluated", "Evaluated"),
       num("feasible", "configurations", "of them, fitting in HBM", "Feasible"),
       num("layouts", "layouts", "slice, shape and axis assignments the divisibility rules allow",
           "Layouts"),
       text("best", "the fastest layout", "Best layout"),
       text("best_choices", "its ZeRO stage, remat and pipeline choices", "Best choices"),
       num("step_time", "s", "its step time", "Step time"),
       text("bound", "what bounds it", "Bound"),
       num("mfu_ceiling", "", "its MFU ceiling", "MFU ceiling"),
       num("mem_total", "B", "its memory per chip", "Memory per chip"),
       num("tokens_per_chip", "tokens", "B over all chips", "Tokens per chip"),
       num("chips_used", "chips", "chips the best layout uses", "Chips used"),
       num("chips_idle", "chips", "chips given that it leaves idle", "Chips idle"),
       text("chips_note", "how many of the chips it uses, and why not all", "Chips"),
       text("why", "why it beats the next", "Why it wins"),
       text("inputs", "the training calculator's inputs that reproduce it", "Training inputs"),
       text("notation", "chapter 3's notation for its weights and activations", "Notation"),
       text("jax", "a JAX mesh with its PartitionSpecs, to start from", "JAX")},
      {{"top", "the fastest configurations, best first", config_columns(true)},
       {"families", "the fastest of each family: pure FSDP, FSDP + TP, with PP, with EP",
        [] {
          std::vector<OutputSpec> c = config_columns(false);
          c.insert(c.begin(), text("family", "the strategy family", "Family"));
          return c;
        }()},
       {"pareto", "memory per chip against step time: no other is both faster and smaller",
        config_columns(false)}},
      "",
      true};  // long-running: a page runs it in its worker, with progress
  return s;
}

Value text_value(std::string s) {
  Value v;
  v.kind = Value::Kind::text;
  v.text = std::move(s);
  return v;
}

std::vector<Value> row(const SearchRequest& q, const SearchResult& r, const SearchConfig& c) {
  return {text_value(describe(r.layouts[c.layout])),
          text_value(describe_choices(r, c)),
          Value::of(c.step_time),
          text_value(bound_short(c.bound, c.exposed, c.step_time)),
          Value::of(c.mfu_ceiling),
          Value::of(c.mem_total),
          text_value(training_inputs(q, r, c))};
}

std::string whole(double x) { return std::to_string(static_cast<long long>(std::round(x))); }

std::string comma(double x) { return format_value(x, "", "int"); }

// "8,192 of 8,960 chips: a batch of 1,024 sequences splits over 8,192 but over no layout of
// all 8,960", or "all 8,192 chips".
std::string chips_note(const SearchRequest& q, const SearchResult& r, double used) {
  if (q.chips <= 0 || used >= q.chips) return "all " + comma(used) + " chips";
  std::string out = comma(used) + " of " + comma(q.chips) + " chips: ";
  const SearchCount* all = nullptr;
  for (const SearchCount& c : r.counts)
    if (c.chips == q.chips) all = &c;
  const std::string sequences = comma(q.base.B / q.base.T);
  if (!all)
    return out + "no slice of " + q.chip->id + ", alone or as equal slices over DCN, makes all " +
           comma(q.chips);
  if (all->evaluated == 0)
    return out + "a batch of " + sequences + " sequences splits over " + comma(used) +
           " but over no layout of all " + comma(q.chips);
  if (all->feasible == 0) return out + "no layout of all " + comma(q.chips) + " fits in HBM";
  return out + "it is faster than the best layout of all " + comma(q.chips) + " (" +
         format_value(all->best, "s", "si") + ")";
}

// The worked steps: how much was searched, what fits, and the best one's step time.
std::vector<Step> steps(const SearchRequest& q, const SearchResult& r) {
  const SearchConfig& b = r.top[0];
  const SearchLayout& l = r.layouts[b.layout];
  const double chips = l.layout.chips * l.slices;
  const double cap = q.base.hbm_capacity * (1 - q.headroom);
  auto n = [](double x) { return latex_number(x); };
  auto u = [](double x, const char* unit) { return latex_quantity(x, unit); };
  std::vector<Step> out;
  out.push_back(
      {"Configurations evaluated: every slicing, shape and assignment of axes, times "
       "ZeRO stages, remat policies and pipeline choices",
       "\\text{layouts} = " + n(r.layouts_tried) + ",\\quad \\text{evaluated} = " + n(r.evaluated),
       r.evaluated,
       "configurations",
       "evaluated",
       {}});
  out.push_back({"Those whose memory per chip fits in the HBM less the headroom",
                 "M_\\text{chip} \\le (1 - " + n(q.headroom) + ") \\cdot " +
                     u(q.base.hbm_capacity, "B") + " = " + u(cap, "B"),
                 r.feasible,
                 "configurations",
                 "feasible",
                 {"evaluated"}});
  out.push_back(
      {"Chips the best layout uses (" + chips_note(q, r, chips) + ")",
       "N = " + n(chips) + ",\\quad \\text{idle} = " + n(q.chips > chips ? q.chips - chips : 0),
       chips,
       "chips",
       "chips_used",
       {}});
  out.push_back({"Tokens per chip of the best layout",
                 "B / N = " + n(q.base.B) + " / " + n(chips) + " = " + n(q.base.B / chips),
                 q.base.B / chips,
                 "tokens",
                 "tokens_per_chip",
                 {}});
  out.push_back(
      {"Its step time: compute or HBM streaming, whichever is longer, plus the "
       "communication that does not hide under it",
       "T = \\max(T_\\text{compute}, T_\\text{HBM}) + T_\\text{exposed} = \\max(" +
           u(b.t_compute, "s") + ", " + u(b.t_hbm, "s") + ") + " + u(b.exposed, "s") + " = " +
           u(b.step_time, "s"),
       b.step_time,
       "s",
       "step_time",
       {"tokens_per_chip"}});
  out.push_back({"Its memory per chip",
                 "M_\\text{chip} = " + u(b.mem_total, "B"),
                 b.mem_total,
                 "B",
                 "mem_total",
                 {"feasible"}});
  out.push_back({"Its MFU ceiling, everything overlapped",
                 "\\text{MFU}_\\text{max} = " + n(b.mfu_ceiling),
                 b.mfu_ceiling,
                 "",
                 "mfu_ceiling",
                 {"step_time"}});
  return out;
}

// A chip count near the one given that divides the batch's tokens, when the given one does not:
// the batch shards are products of the chips' factors, so those must divide the batch.
std::string suggestion(const SearchRequest& q) {
  if (q.chips <= 0 || std::fmod(q.base.B, q.chips) == 0) return "";
  for (double n = q.chips - 1; n >= 1; --n)
    if (std::fmod(q.base.B, n) == 0)
      return "; " + whole(q.chips) + " chips do not divide the batch, " + whole(n) + " would";
  return "";
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  Result<const Chip*> torus =
      training_parts::layout_chip_of(in, "training-search lays out a TPU slice or GPUs");
  if (!torus.ok()) return torus.error();
  const Chip* chip = torus.value();
  const Model* model = training_parts::training_model_of(in);
  Result<TrainingConfig> base = training_parts::read_choices(in, *chip);
  if (!base.ok()) return base.error();
  SearchRequest q;
  q.base = base.value();
  q.base.shape = model->id == training_parts::kBookMlp
                     ? book_mlp_shape(model->D, model->F, model->L)
                     : shape_of_model(*model);
  q.base.peak_flops = in.has("peak_flops") ? in.number("peak_flops")
                                           : peak_flops(*chip, *parse_dtype(in.text("dtype")));
  q.base.hbm_bandwidth = in.has("hbm_bandwidth") ? in.number("hbm_bandwidth") : chip->hbm_bandwidth;
  q.base.B = in.number("B");
  q.base.T = in.number("T");
  q.base.grad_accum = in.number("grad_accum");
  q.chip = chip;
  q.chips = in.has("chips") ? in.number("chips") : 0;
  if (in.has("shape")) q.shape = in.text("shape");
  q.slices = in.has("slices") ? in.number("slices") : 0;
  q.headroom = in.number("headroom");
  q.top = static_cast<int>(in.number("top"));
  if (!q.base.uneven_batch && std::fmod(q.base.B, q.base.T) != 0)
    return Error{ErrorCode::invalid_argument, "B",
                 "B = " + whole(q.base.B) +
                     " tokens must be whole sequences of T = " + whole(q.base.T) + " tokens"};
  q.progress = [&out](double fraction) { out.progress(fraction); };
  Result<SearchResult> found = search_training(q);
  if (!found.ok()) return found.error();
  const SearchResult& r = found.value();
  const std::string where = q.shape.empty() ? "chips" : "shape";
  if (r.layouts_tried == 0) {
    return Error{ErrorCode::invalid_argument, where,
                 "no assignment of these slices' axes gives degrees " + model->name +
                     " allows (tp dividing its heads and F, pp its layers, ep its experts)"};
  }
  if (r.evaluated == 0) {
    return Error{ErrorCode::invalid_argument, "B",
                 "B = " + whole(q.base.B) + " tokens is " + whole(q.base.B / q.base.T) +
                     " sequences, which no layout of these chips splits into whole sequences" +
                     (q.base.split_sequences ? " or equal parts of one" : "") + " per batch shard" +
                     suggestion(q)};
  }
  if (r.top.empty()) {
    return Error{ErrorCode::out_of_range, where,
                 model->name + " fits in none of the " + format_number(r.evaluated) +
                     " configurations searched (HBM " +
                     format_value(q.base.hbm_capacity, "B", "si") + " per chip, " +
                     format_number(q.headroom * 100) + "% kept free); it needs at least " +
                     whole(r.fewest_chips) +
                     " chips to hold its weights, gradients and optimizer state fully sharded "
                     "and one saved input per layer"};
  }
  const SearchConfig& best = r.top[0];
  out.set("evaluated", r.evaluated);
  out.set("feasible", r.feasible);
  out.set("layouts", r.layouts_tried);
  out.set_text("best", describe(r.layouts[best.layout]));
  out.set_text("best_choices", describe_choices(r, best));
  out.set("step_time", best.step_time);
  out.set_text("bound", best.bound);
  out.set("mfu_ceiling", best.mfu_ceiling);
  out.set("mem_total", best.mem_total);
  const double used = r.layouts[best.layout].layout.chips * r.layouts[best.layout].slices;
  out.set("tokens_per_chip", q.base.B / used);
  out.set("chips_used", used);
  out.set("chips_idle", q.chips > used ? q.chips - used : 0);
  out.set_text("chips_note", chips_note(q, r, used));
  out.set_text("why", r.reasons[0]);
  out.set_text("inputs", training_inputs(q, r, best));
  out.set_text("notation", notation(r.layouts[best.layout]));
  out.set_text("jax", jax_export(q, r, best));
  if (out.explain()) out.steps(steps(q, r));
  const Schema& s = schema();
  Table top = empty_table(s.tables[0]);
  for (std::size_t i = 0; i < r.top.size(); ++i) {
    top.rows.push_back(row(q, r, r.top[i]));
    top.rows.back().push_back(text_value(r.reasons[i]));
  }
  out.table("top", std::move(top));
  Table families = empty_table(s.tables[1]);
  for (const SearchConfig& c : r.families) {
    families.rows.push_back(row(q, r, c));
    families.rows.back().insert(families.rows.back().begin(),
                                text_value(to_string(family_of(r.layouts[c.layout].layout))));
  }
  out.table("families", std::move(families));
  Table pareto = empty_table(s.tables[2]);
  for (const SearchConfig& c : r.pareto) pareto.rows.push_back(row(q, r, c));
  out.table("pareto", std::move(pareto));
  return std::nullopt;
}

}  // namespace

Calculator training_search_calculator() { return {schema(), compute}; }

}  // namespace scalebook
