// The `training-plan` calculator: the training calculator's model, batch, chip and dtypes,
// plus the chips, pods and the questions' axis counts; each question's numbers and yes/no,
// the mesh, and a worked step for every number.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "../step/parts.h"
#include "parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/training/plan.h"

namespace scalebook {
namespace {

InputSpec count(const char* name, const char* unit, const char* description, Value fallback,
                double min, double max, const char* label, InputGroup group = InputGroup::main) {
  return labelled({name, InputKind::count, unit, description, std::move(fallback), min, false, max},
                  label, group);
}

std::vector<InputSpec> inputs() {
  std::vector<InputSpec> own = {
      count("chips", "chips", "chips in all, every pod together", Value::of(8960.0), 1, 1e7,
            "Chips"),
      count("slices", "pods", "pods (ICI slices) joined by DCN, data parallel across them",
            Value::of(1.0), 1, 1e5, "Pods over DCN"),
      count("M_fsdp", "axes",
            "axes question 2's FSDP spans (default: every axis of the chip's torus, 3 on v5p)",
            Value::none(), 1, 3, "FSDP axes M_X (question 2)", InputGroup::advanced),
      count("M_X", "axes", "axes question 3's FSDP spans (default: all but one of the torus's)",
            Value::none(), 1, 3, "FSDP axes M_X (question 3)", InputGroup::advanced),
      count("M_Y", "axes", "axes question 3's TP spans (default: one)", Value::none(), 1, 3,
            "TP axes M_Y (question 3)", InputGroup::advanced),
  };
  // The book's LLaMA 3 batch: 1024 sequences of 4096 tokens.
  return training_parts::shared_training_inputs(
      {"model", "B", "T", "chip", "dtype", "dtype_params"}, {{"B", Value::of(4194304.0)}},
      std::move(own));
}

constexpr auto num = number_output;
constexpr auto text = text_output;

std::vector<OutputSpec> outputs() {
  std::vector<OutputSpec> list = {
      num("sequences", "sequences", "B / T: the most chips whole-sequence FSDP can use",
          "Sequences"),
      text("whole_sequences", "question 1: are there as many sequences as chips (yes/no)",
           "Whole sequences for every chip"),
      num("tokens_per_chip", "tokens", "B / N, every chip", "Tokens per chip"),
      num("alpha", "FLOP/B", "C / W_ici: the chip's ICI intensity", "ICI intensity alpha"),
      num("critical_batch", "tokens", "alpha / M_X: FSDP's tokens per chip", "FSDP threshold"),
      text("fsdp_ok", "question 2: FSDP with sequence sharding compute-bound (yes/no)",
           "FSDP compute-bound"),
      num("mixed_batch", "tokens", "alpha^2 / (M_X M_Y F): mixed FSDP + TP's tokens per chip",
          "Mixed threshold"),
      num("mixed_ratio", "", "sqrt((B / N) / mixed threshold): compute over communication",
          "Mixed margin"),
      text("mixed_ok", "question 3: mixed FSDP + TP compute-bound (yes/no)", "Mixed compute-bound"),
      num("x_opt", "chips", "sqrt(B / F * M_X / M_Y * N): the best FSDP degree in a pod",
          "Optimal FSDP degree"),
      num("y_opt", "chips", "N / X_opt: the TP degree that goes with it", "Optimal TP degree"),
      num("max_tp", "chips", "M_Y F / alpha: the largest TP degree that stays compute-bound",
          "TP limit"),
      num("tokens_per_slice", "tokens", "B / pods", "Tokens per pod"),
      num("dcn_batch", "tokens", "C / W_dcn: the tokens per pod DP over DCN needs",
          "DCN threshold"),
      text("dcn_ok", "DP over DCN compute-bound (yes/no; yes for one pod)", "DCN compute-bound"),
      num("chips_used", "chips", "the mesh's chips: the largest power of two in each pod",
          "Chips used"),
      num("fsdp_degree", "chips",
          "X_opt rounded to a power of two (every chip used when FSDP "
          "alone is compute-bound)",
          "FSDP degree"),
      num("tp_degree", "chips", "the chips used in a pod over the FSDP degree", "TP degree"),
      num("data_degree", "chips", "FSDP's split over whole sequences", "Data degree"),
      num("sequence_degree", "chips", "FSDP's split of each sequence", "Sequence degree"),
      text("tp_ok", "the TP degree within its limit (yes/no)", "TP within its limit"),
      text("mesh", "the recommended mesh", "Mesh")};
  for (OutputSpec& o : plan_parts::pods_outputs()) list.push_back(std::move(o));
  return list;
}

const Schema& schema() {
  static const Schema s{
      "training-plan",
      "the sharding decision: can whole-sequence FSDP use every chip, is FSDP with sequence "
      "sharding compute-bound, is mixed FSDP + TP, the mesh that follows, and how many pods of "
      "this size the batch keeps compute-bound",
      inputs(),
      outputs(),
      {plan_parts::pods_table()}};
  return s;
}

const char* yes(bool b) { return b ? "yes" : "no"; }

}  // namespace

void plan_parts::add_mesh(const PlanRequest& q, const TrainingPlan& p, training_parts::Line& out) {
  if (q.slices > 1) {
    out.add_whole(q.slices);
    out.add("-way DP over DCN x ");
  }
  out.add_whole(p.fsdp);
  out.add("-way FSDP (");
  out.add_whole(p.data);
  out.add(" data x ");
  out.add_whole(p.sequence);
  out.add(" sequence)");
  if (p.tp > 1) {
    out.add(" x ");
    out.add_whole(p.tp);
    out.add("-way TP");
  }
  out.add(" on ");
  out.add_whole(p.chips_used);
  if (p.chips_used < q.chips) {
    out.add(" of ");
    out.add_whole(q.chips);
  }
  out.add(" chips");
}

namespace {

std::vector<Step> steps(const PlanRequest& q, const TrainingPlan& p) {
  auto n = [](double x) { return latex_number(x); };
  std::vector<Step> st;
  auto add = [&](std::string label, std::string latex, double value, const char* unit,
                 const char* output, std::initializer_list<const char*> depends = {}) {
    st.emplace_back(std::move(label), std::move(latex), value, unit, output, depends);
  };
  add("Question 1: sequences in the batch, the most chips FSDP over whole sequences can use",
      "\\frac{B}{T} = \\frac{" + n(q.B) + "}{" + n(q.T) + "} = " + n(p.sequences) +
          (p.whole_sequences ? " \\ge " : " < ") + n(q.chips) + "\\text{ chips}",
      p.sequences, "sequences", "sequences");
  add("Question 2: tokens per chip",
      "\\frac{B}{N} = \\frac{" + n(q.B) + "}{" + n(q.chips) + "} = " + n(p.tokens_per_chip),
      p.tokens_per_chip, "tokens", "tokens_per_chip");
  add("The chip's ICI intensity (both directions of one axis)",
      "\\alpha = \\frac{C}{W_\\text{ici}} = \\frac{" + latex_quantity(q.peak_flops, "FLOP/s") +
          "}{2 \\cdot " + latex_quantity(q.ici_link, "B/s") + "} = " + n(p.alpha),
      p.alpha, "FLOP/B", "alpha");
  add("FSDP's threshold over M_X = " + format_number(q.m_fsdp) + " axes",
      "\\frac{\\alpha}{M_X} = \\frac{" + n(p.alpha) + "}{" + n(q.m_fsdp) +
          "} = " + n(p.critical_batch) + (p.fsdp_ok ? " \\le " : " > ") + n(p.tokens_per_chip),
      p.critical_batch, "tokens", "critical_batch", {"alpha", "tokens_per_chip"});
  add("Question 3: mixed FSDP + TP's threshold",
      "\\frac{\\alpha^2}{M_X M_Y F} = \\frac{" + n(p.alpha) + "^2}{" + n(q.m_x) + " \\cdot " +
          n(q.m_y) + " \\cdot " + n(q.shape.F) + "} = " + n(p.mixed_batch) +
          (p.mixed_ok ? " \\le " : " > ") + n(p.tokens_per_chip),
      p.mixed_batch, "tokens", "mixed_batch", {"alpha", "tokens_per_chip"});
  add("Compute over communication for mixed FSDP + TP",
      "\\sqrt{\\frac{" + n(p.tokens_per_chip) + "}{" + n(p.mixed_batch) +
          "}} = " + n(p.mixed_ratio),
      p.mixed_ratio, "", "mixed_ratio", {"mixed_batch"});
  const double b = q.B / q.slices;
  add("The FSDP degree that balances FSDP's and TP's communication in a pod",
      "X_\\text{opt} = \\sqrt{\\frac{B}{F} \\frac{M_X}{M_Y} N} = \\sqrt{\\frac{" + n(b) + "}{" +
          n(q.shape.F) + "} \\cdot \\frac{" + n(q.m_x) + "}{" + n(q.m_y) + "} \\cdot " +
          n(p.chips_slice) + "} = " + n(p.x_opt),
      p.x_opt, "chips", "x_opt");
  add("The TP degree that goes with it",
      "Y_\\text{opt} = \\frac{N}{X_\\text{opt}} = \\frac{" + n(p.chips_slice) + "}{" + n(p.x_opt) +
          "} = " + n(p.y_opt),
      p.y_opt, "chips", "y_opt", {"x_opt"});
  add("The largest TP degree that stays compute-bound",
      "Y_\\text{max} = \\frac{M_Y F}{\\alpha} = \\frac{" + n(q.m_y) + " \\cdot " + n(q.shape.F) +
          "}{" + n(p.alpha) + "} = " + n(p.max_tp),
      p.max_tp, "chips", "max_tp", {"alpha"});
  add("Tokens per pod",
      "\\frac{B}{\\text{pods}} = \\frac{" + n(q.B) + "}{" + n(q.slices) +
          "} = " + n(p.tokens_per_slice),
      p.tokens_per_slice, "tokens", "tokens_per_slice");
  if (p.dcn_batch > 0)
    add("DP over DCN's threshold per pod",
        "\\frac{C}{W_\\text{dcn}} = \\frac{" + latex_quantity(q.peak_flops, "FLOP/s") + "}{" +
            latex_quantity(q.dcn_bandwidth, "B/s") + "} = " + n(p.dcn_batch),
        p.dcn_batch, "tokens", "dcn_batch", {"tokens_per_slice"});
  add("Chips the mesh uses: the largest power of two in a pod, times the pods",
      "2^{\\lfloor \\log_2 " + n(p.chips_slice) + " \\rfloor} \\cdot " + n(q.slices) + " = " +
          n(p.chips_used),
      p.chips_used, "chips", "chips_used");
  add(p.fsdp_ok ? "FSDP alone is compute-bound: it takes every chip used in a pod"
                : "X_opt rounded to the nearest power of two",
      p.fsdp_ok ? "X = " + n(p.fsdp)
                : "X = 2^{\\operatorname{round}(\\log_2 " + n(p.x_opt) + ")} = " + n(p.fsdp),
      p.fsdp, "chips", "fsdp_degree", {"x_opt", "chips_used"});
  add("TP takes the rest of the pod",
      "Y = \\frac{" + n(p.chips_used / q.slices) + "}{" + n(p.fsdp) + "} = " + n(p.tp) +
          (p.tp_ok ? " \\le " : " > ") + n(p.max_tp),
      p.tp, "chips", "tp_degree", {"fsdp_degree", "max_tp"});
  add("Whole sequences per FSDP shard as far as a pod's sequences go",
      "\\text{data} = " + n(p.data), p.data, "chips", "data_degree", {"fsdp_degree"});
  add("Each sequence cut into parts for the rest",
      "\\text{sequence} = \\frac{" + n(p.fsdp) + "}{" + n(p.data) + "} = " + n(p.sequence),
      p.sequence, "chips", "sequence_degree", {"data_degree"});
  return st;
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  Result<const Chip*> found = training_parts::torus_chip_of(in, "training-plan lays out a TPU pod");
  if (!found.ok()) return found.error();
  const Chip* chip = found.value();
  const Model* model = training_parts::training_model_of(in);
  const Dtype compute_dtype = *parse_dtype(in.text("dtype"));
  PlanRequest q;
  q.peak_flops = in.has("peak_flops") ? in.number("peak_flops") : peak_flops(*chip, compute_dtype);
  if (q.peak_flops <= 0)
    return Error{ErrorCode::unsupported, "dtype",
                 chip->id + " has no " + to_string(compute_dtype) +
                     " peak in the catalog; give peak_flops to set one"};
  q.shape = model->id == training_parts::kBookMlp ? book_mlp_shape(model->D, model->F, model->L)
                                                  : shape_of_model(*model);
  q.B = in.number("B");
  q.T = in.number("T");
  q.chips = in.number("chips");
  q.slices = in.number("slices");
  q.axes = chip->torus_dims;
  q.m_fsdp = in.has("M_fsdp") ? in.number("M_fsdp") : q.axes;
  q.m_y = in.has("M_Y") ? in.number("M_Y") : 1;
  q.m_x = in.has("M_X") ? in.number("M_X") : std::fmax(q.axes - q.m_y, 1);
  q.a = bytes_per_element(compute_dtype);
  q.w = bytes_per_element(*parse_dtype(in.text("dtype_params")));
  q.ici_link = chip->ici_link_bandwidth;
  q.dcn_bandwidth = chip->dcn_bandwidth;
  if (std::optional<Error> bad = check_plan(q)) return bad;
  const TrainingPlan p = plan_training(q);
  if (std::fmod(q.T, p.sequence) != 0)
    return Error{ErrorCode::invalid_argument, "T",
                 "T = " + format_number(q.T) + " tokens does not cut into the " +
                     format_number(p.sequence) + " parts a sequence needs for " +
                     format_number(p.fsdp) + "-way FSDP over " + format_number(p.data) +
                     " whole sequences a pod; give a T divisible by " + format_number(p.sequence)};
  out.set("sequences", p.sequences);
  out.set_text("whole_sequences", yes(p.whole_sequences));
  out.set("tokens_per_chip", p.tokens_per_chip);
  out.set("alpha", p.alpha);
  out.set("critical_batch", p.critical_batch);
  out.set_text("fsdp_ok", yes(p.fsdp_ok));
  out.set("mixed_batch", p.mixed_batch);
  out.set("mixed_ratio", p.mixed_ratio);
  out.set_text("mixed_ok", yes(p.mixed_ok));
  out.set("x_opt", p.x_opt);
  out.set("y_opt", p.y_opt);
  out.set("max_tp", p.max_tp);
  out.set("tokens_per_slice", p.tokens_per_slice);
  if (p.dcn_batch > 0)
    out.set("dcn_batch", p.dcn_batch);
  else
    out.none("dcn_batch", "no DCN: the chip has no dcn_bandwidth in the catalog");
  out.set_text("dcn_ok", yes(p.dcn_ok));
  out.set("chips_used", p.chips_used);
  out.set("fsdp_degree", p.fsdp);
  out.set("tp_degree", p.tp);
  out.set("data_degree", p.data);
  out.set("sequence_degree", p.sequence);
  out.set_text("tp_ok", yes(p.tp_ok));
  training_parts::Line mesh;
  plan_parts::add_mesh(q, p, mesh);
  out.set_text("mesh", mesh.view());
  if (out.explain()) out.steps(steps(q, p));
  plan_parts::report_pods(q, plan_pods(q, out.tables()), out);
  return std::nullopt;
}

}  // namespace

Calculator training_plan_calculator() { return {schema(), compute}; }

}  // namespace scalebook
