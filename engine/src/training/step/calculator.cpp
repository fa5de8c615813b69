// The training domain's calculators, and the `training` adapter: it reads the inputs into a
// TrainingConfig and a ParallelLayout (the layout, the layer and the collective costs kept
// once per prepared calculation), evaluates the step, and sets the outputs, the collectives
// table and, when asked, the worked steps.
#include <string>
#include <string_view>

#include "parts.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/training/budget.h"
#include "scalebook/training/training.h"

namespace scalebook {
namespace {

using training_parts::kBookMlp;

constexpr const char* kAxesNames[] = {"dp_axes", "fsdp_axes", "tp_axes", "pp_axes", "ep_axes"};

// What a prepared calculation keeps across evaluations: everything that depends only on the
// text inputs and the presets.
struct Kept {
  ParallelLayout layout;
  TrainingConfig base;      // every field but the number inputs' (read_numbers)
  double catalog_peak = 0;  // FLOP/s of the compute dtype, before the peak_flops override
  mutable CostMemo memo;
};

using training_parts::read_choices;

Result<Kept> keep(const ResolvedInputs& in, const Chip& chip, const Model& model) {
  std::array<const std::string*, kStrategies> axes{};
  for (int s = 0; s < kStrategies; ++s)
    if (in.has(kAxesNames[s])) axes[static_cast<std::size_t>(s)] = &in.text(kAxesNames[s]);
  Result<ParallelLayout> layout =
      parse_layout(chip, in.text("shape"), axes, in.has("split") ? &in.text("split") : nullptr);
  if (!layout.ok()) return layout.error();
  Result<TrainingConfig> base = read_choices(in, chip);
  if (!base.ok()) return base.error();
  Kept k;
  k.layout = std::move(layout.value());
  k.base = base.value();
  k.base.shape =
      model.id == kBookMlp ? book_mlp_shape(model.D, model.F, model.L) : shape_of_model(model);
  k.catalog_peak = peak_flops(chip, *parse_dtype(in.text("dtype")));
  return k;
}

using training_parts::Line;

void layout_line(const ParallelLayout& layout, double slices, Line& line) {
  bool any = false;
  for (int s = 0; s < kStrategies; ++s) {
    if (layout.degrees[static_cast<std::size_t>(s)] <= 1) continue;
    line.add(any ? " x " : "");
    line.add(kStrategyNames[s]);
    line.add(" ");
    line.add_whole(layout.degrees[static_cast<std::size_t>(s)]);
    line.add(" (");
    for (std::size_t i = 0; i < layout.axes.size(); ++i)
      if (layout.masks[static_cast<std::size_t>(s)] & (1u << i)) {
        line.add(std::string_view(&layout.axes[i].name, 1));
        if (layout.axes[i].stride > 1) line.add("'");
      }
    line.add(")");
    any = true;
  }
  if (!any) line.add("one chip");
  if (slices > 1) {
    line.add(" x dp ");
    line.add_whole(slices);
    line.add(" (DCN)");
  }
}

Value text_value(std::string_view s) {
  Value v;
  v.kind = Value::Kind::text;
  v.text.assign(s);
  return v;
}

Table collectives_table(const ParallelLayout& layout, const TrainingStep& s) {
  Table t;
  const std::vector<OutputSpec>& columns = training_parts::training_schema().tables[0].columns;
  t.columns.reserve(columns.size());
  for (const OutputSpec& c : columns) t.columns.push_back(c.name);
  t.rows.resize(static_cast<std::size_t>(s.n_rows));
  for (int i = 0; i < s.n_rows; ++i) {
    const CollectiveRow& r = s.rows[static_cast<std::size_t>(i)];
    // Up to 6 axes (3 split), each a letter and maybe a prime.
    char axes[12] = {'D', 'C', 'N'};
    std::size_t n = 3;
    if (!(r.mask & kDcnMask)) {
      n = 0;
      for (std::size_t a = 0; a < layout.axes.size(); ++a) {
        if (!(r.mask & (1u << a))) continue;
        axes[n++] = layout.axes[a].name;
        if (layout.axes[a].stride > 1) axes[n++] = '\'';
      }
    }
    std::vector<Value>& row = t.rows[static_cast<std::size_t>(i)];
    row.reserve(10);
    row.push_back(text_value(to_string(r.phase)));
    row.push_back(text_value(to_string(r.op)));
    row.push_back(text_value(to_string(r.strategy)));
    row.push_back(text_value(r.tensor));
    row.push_back(text_value(std::string_view(axes, n)));
    row.push_back(Value::of(r.bytes));
    row.push_back(Value::of(r.count));
    row.push_back(Value::of(r.time));
    row.push_back(Value::of(r.total()));
    row.push_back(text_value(r.critical ? "yes" : "no"));
  }
  return t;
}

// The number inputs, read on every evaluation (a sweep may vary any of them). peak_flops and
// hbm_bandwidth override the chip's, as resolve_chip reads them.
void read_numbers(const ResolvedInputs& in, const Kept& k, const Chip& chip, TrainingConfig& c) {
  c.peak_flops = in.has("peak_flops") ? in.number("peak_flops") : k.catalog_peak;
  c.hbm_bandwidth = in.has("hbm_bandwidth") ? in.number("hbm_bandwidth") : chip.hbm_bandwidth;
  c.B = in.number("B");
  c.T = in.number("T");
  c.slices = in.number("slices");
  c.microbatches = in.number("microbatches");
  c.grad_accum = in.number("grad_accum");
  c.checkpoints.reset();
  if (in.has("checkpoints")) c.checkpoints = in.number("checkpoints");
}

void set_outputs(const TrainingConfig& c, const ParallelLayout& layout, const TrainingStep& s,
                 ResultBuilder& out) {
  Line line;
  layout_line(layout, c.slices, line);
  out.set_text("layout", line.view());
  const auto& d = layout.degrees;
  out.set("chips", layout.chips);
  out.set("chips_total", s.chips_total);
  out.set("dp_degree", d[0]);
  out.set("fsdp_degree", d[1]);
  out.set("tp_degree", d[2]);
  out.set("pp_degree", d[3]);
  out.set("ep_degree", d[4]);
  out.set("M_X", s.M_X);
  out.set("M_Y", s.M_Y);
  out.set("sequences", s.sequences);
  out.set("tokens_per_shard", s.tokens_per_shard);
  out.set("tokens_per_chip", s.tokens_per_chip);
  out.set("tokens_per_slice", c.B / c.slices);
  out.set("micro_tokens", s.micro_tokens);
  out.set("params", c.shape.params);
  out.set("flops_layer", s.flops_layer);
  out.set("t_compute_layer", s.t_compute_layer);
  out.set("flops_step", s.flops_step);
  out.set("flops_model", s.flops_model);
  out.set("flops_6p", s.flops_6p);
  out.set("bubble", s.bubble);
  out.set("t_compute", s.t_compute);
  out.set("t_critical", s.t_critical);
  out.set("t_overlap_ici", s.t_overlap_ici);
  out.set("t_ici", s.t_ici);
  out.set("t_dcn", s.t_dcn);
  out.set("t_pcie", s.t_pcie);
  out.set("t_hbm", s.t_hbm);
  out.set("exposed_comm", s.exposed);
  out.set("step_time", s.step_time);
  out.set("step_time_overlapped", s.step_overlapped);
  out.set("step_time_serial", s.step_serial);
  out.set_text("bound", s.bound);
  out.set("exposed_fraction", s.step_time > 0 ? s.exposed / s.step_time : 0);
  out.set_text("bound_detail", bound_detail(s));
  out.set("t_backward", s.t_backward);
  out.set("mfu", s.mfu);
  out.set("mfu_ceiling", s.mfu_ceiling);
  out.set("mem_params", s.mem_params);
  out.set("mem_grads", s.mem_grads);
  out.set("mem_optimizer", s.mem_optimizer);
  out.set("mem_activations", s.mem_activations);
  out.set("mem_total", s.mem_total);
  out.set("mem_host", s.mem_host);
  out.set("hbm_capacity", c.hbm_capacity);
  out.set("mem_over", s.mem_over);
  out.set("mem_fraction", s.mem_total / c.hbm_capacity);
  out.set_text("fits", s.fits ? "yes" : "no");
  out.set("W_ici", s.W_ici);
  out.set("alpha", s.alpha);
  out.set("critical_batch", s.critical_batch);
  out.set("max_tp", s.max_tp);
  out.set("x_opt", s.x_opt);
  out.set("y_opt", s.y_opt);
  out.set("mixed_batch", s.mixed_batch);
  if (s.dcn_batch > 0)
    out.set("dcn_batch", s.dcn_batch);
  else
    out.none("dcn_batch", "no DCN: the chip has no dcn_bandwidth in the catalog");
  out.set("peak_flops", c.peak_flops);
}

// The pods-and-days estimate: how many chips the batch can feed before DP/FSDP communication
// binds, and, given the run's tokens, its steps and days (at this layout's step time, or at an
// assumed MFU: model FLOPs per token x tokens over chips x C x MFU).
void set_run_outputs(const ResolvedInputs& in, const TrainingConfig& c, const TrainingStep& s,
                     ResultBuilder& out) {
  out.set("chips_usable", c.B / s.critical_batch);
  if (!in.has("tokens")) {
    out.none("train_steps", "no run length: give tokens");
    out.none("run_days", "no run length: give tokens");
    return;
  }
  const double tokens = in.number("tokens");
  const double steps = tokens / c.B;
  out.set("train_steps", steps);
  const double seconds = in.has("mfu_target")
                             ? tokens * (s.flops_model / c.B) /
                                   (s.chips_total * c.peak_flops * in.number("mfu_target"))
                             : steps * s.step_time;
  out.set("run_days", seconds / 86400);
}

std::optional<Error> compute_training(const ResolvedInputs& in, ResultBuilder& out) {
  Result<const Chip*> found =
      training_parts::layout_chip_of(in, "training lays out a TPU slice or GPUs");
  if (!found.ok()) return found.error();
  const Chip* chip = found.value();
  const Model* model = training_parts::training_model_of(in);
  Result<const Kept*> kept =
      in.parsed<Kept>("shape", [&](const std::string&) { return keep(in, *chip, *model); });
  if (!kept.ok()) return kept.error();
  const Kept& k = *kept.value();
  std::array<double, kStrategies> given{};
  for (int s = 0; s < kStrategies; ++s)
    if (in.has(kStrategyNames[s]))
      given[static_cast<std::size_t>(s)] = in.number(kStrategyNames[s]);
  // A degree given without its axes places itself (place_degrees): on a copy, since the kept
  // layout serves every degree a sweep or a form gives next. The memo's costs depend on the
  // axes alone, which the copy shares.
  bool placing = false;
  for (int st = 0; st < kStrategies; ++st)
    placing = placing ||
              (st != kFsdp && given[st] > 1 && k.layout.masks[st] == 0 && !k.layout.axes_given[st]);
  ParallelLayout placed;
  if (placing) {
    placed = k.layout;
    if (std::optional<Error> bad = place_degrees(placed, given)) return bad;
  }
  const ParallelLayout& layout = placing ? placed : k.layout;
  if (std::optional<Error> bad = check_degrees(layout, given)) return bad;
  TrainingConfig c = k.base;
  read_numbers(in, k, *chip, c);
  TrainingStep s;
  // On GPUs a degree may split an axis as it places itself: the kept memo knows other axes.
  CostMemo split_memo;
  CostMemo& memo = layout.axes.size() == k.layout.axes.size() ? k.memo : split_memo;
  if (std::optional<Error> bad = evaluate_training(c, layout, memo, s)) return bad;
  set_outputs(c, layout, s, out);
  set_run_outputs(in, c, s, out);
  training_parts::set_layer_outputs(c, layout, out);
  if (out.tables()) {
    out.table("collectives", collectives_table(layout, s));
    out.table("strategies", training_parts::strategies_table(c, layout, s));
    out.table("arrays", training_parts::layer_arrays_table(c, layout));
    out.table("algorithm", training_parts::layer_algorithm_table(c, layout, s));
  }
  if (out.explain()) out.steps(training_parts::training_steps({&c, &layout, &s, model->name}));
  return std::nullopt;
}

}  // namespace

Calculator training_calculator() { return {training_parts::training_schema(), compute_training}; }

namespace training_parts {
namespace {

RematPolicy remat_of(const std::string& name) {
  if (name == "none") return RematPolicy::none;
  if (name == "big-matmuls") return RematPolicy::big_matmuls;
  if (name == "block") return RematPolicy::block;
  return RematPolicy::ffw_matmuls;
}

double states_of(const std::string& optimizer) {
  if (optimizer == "adam") return 2;
  return optimizer == "momentum" ? 1 : 0;
}

}  // namespace

Result<const Chip*> torus_chip_of(const ResolvedInputs& in, std::string_view what) {
  const Chip* chip = chip_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  if (chip->ici_link_bandwidth <= 0 || chip->torus_dims <= 0) {
    return Error{ErrorCode::unsupported, "chip",
                 std::string(what) + " over ICI, and " + chip->id +
                     " has no ICI torus in the catalog; pick a TPU"};
  }
  return chip;
}

Result<const Chip*> layout_chip_of(const ResolvedInputs& in, std::string_view what) {
  const Chip* chip = chip_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  const bool torus = chip->ici_link_bandwidth > 0 && chip->torus_dims > 0;
  if (!torus && (chip->nvlink_domain_gpus <= 0 || chip->nvlink_bandwidth <= 0)) {
    return Error{ErrorCode::unsupported, "chip",
                 std::string(what) + ", and " + chip->id +
                     " has neither an ICI torus nor an NVLink domain in the catalog"};
  }
  return chip;
}

// The choices, texts and the chip's numbers: fixed for a prepared calculation.
Result<TrainingConfig> read_choices(const ResolvedInputs& in, const Chip& chip) {
  TrainingConfig c;
  const Dtype compute = *parse_dtype(in.text("dtype"));
  if (!in.has("peak_flops") && peak_flops(chip, compute) <= 0) {
    return Error{ErrorCode::unsupported, "dtype",
                 chip.id + " has no " + to_string(compute) +
                     " peak in the catalog; give peak_flops to set one"};
  }
  c.hbm_capacity = chip.hbm_capacity;
  // A GPU's links are its NVLink egress into the node (chapter 12); the layout's fabric levels
  // give what a group of them gets beyond the node.
  const bool gpu = chip.torus_dims <= 0;
  c.ici_link = gpu ? chip.nvlink_bandwidth : chip.ici_link_bandwidth;
  c.ici_latency = gpu ? 0 : chip.ici_hop_latency;
  c.gpu = gpu;
  c.dcn_bandwidth = chip.dcn_bandwidth;
  c.pcie_bandwidth = chip.pcie_bandwidth;
  // The search's schema has none of zero, schedule and remat: it tries every one.
  if (in.declares("zero")) c.zero = in.text("zero")[0] - '0';
  if (in.declares("schedule"))
    c.schedule = in.text("schedule") == "gpipe" ? StepSchedule::gpipe : StepSchedule::one_f_one_b;
  c.a = bytes_per_element(compute);
  c.w = bytes_per_element(*parse_dtype(in.text("dtype_params")));
  c.g = in.has("dtype_grads") ? bytes_per_element(*parse_dtype(in.text("dtype_grads"))) : c.w;
  c.o = bytes_per_element(*parse_dtype(in.text("dtype_optimizer")));
  c.optimizer_states = states_of(in.text("optimizer"));
  if (in.declares("remat")) c.remat = remat_of(in.text("remat"));
  c.offload = in.text("offload") == "yes";
  c.split_sequences = in.text("split_sequences") == "yes";
  c.uneven_batch = in.text("uneven_batch") == "yes";
  return c;
}

}  // namespace training_parts

}  // namespace scalebook
