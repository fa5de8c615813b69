// The `training-split` calculator: the training calculator's model, batch, chip and dtypes,
// plus the slice and the axes each strategy spans; every power-of-two FSDP x TP split's
// communication against its arithmetic, X_opt, the thresholds, and the chapter's two figures
// as tables (split.h).
#include <cmath>
#include <string>
#include <vector>

#include "../step/parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/slice.h"
#include "scalebook/training/split.h"

namespace scalebook {
namespace {

InputSpec count(const char* name, const char* description, const char* label) {
  return labelled({name, InputKind::count, "axes", description, Value::none(), 1, false, 3}, label);
}

std::vector<InputSpec> inputs() {
  InputSpec shape =
      labelled({"shape", InputKind::text, "", "the ICI slice, sizes joined by x; N is its chips",
                Value::of("4x4x4")},
               "Slice shape");
  shape.help = "A slice the chip's pod can have, one size per torus axis (4x4x4 on v5p).";
  InputSpec splits = labelled({"splits", InputKind::text, "",
                               "FSDP x TP splits to draw against the batch, like 512x8 1024x4 "
                               "(default: pure FSDP, pure TP and the powers of two beside X_opt)",
                               Value::none()},
                              "Named splits", InputGroup::advanced);
  splits.help = "Each X x Y with X Y the slice's chips, separated by spaces or commas; at most 8.";
  std::vector<InputSpec> own = {
      shape,
      count("M_X", "axes FSDP spans in a mixed split (default: all the slice's axes but one)",
            "FSDP axes M_X"),
      count("M_Y", "axes TP spans in a mixed split (default: one)", "TP axes M_Y"),
      splits,
  };
  // The chapter's 4x4x4 example (48,000 tokens) on its layer (D = 8192, F = 4D).
  return training_parts::shared_training_inputs(
      {"model", "B", "chip", "dtype", "dtype_params"},
      {{"B", Value::of(48000.0)}, {"model", Value::of(training_parts::kBookMlp)}}, std::move(own));
}

constexpr auto num = number_output;
constexpr auto text = text_output;

std::vector<OutputSpec> split_columns() {
  return {num("X", "chips", "FSDP degree", "FSDP X"),
          num("Y", "chips", "TP degree, N / X", "TP Y"),
          num("M_X", "axes", "axes FSDP spans (0: no FSDP)", "FSDP axes M_X"),
          num("M_Y", "axes", "axes TP spans (0: no TP)", "TP axes M_Y"),
          num("t_fsdp", "s", "FSDP's weight AllGathers, one layer forward", "FSDP comms"),
          num("t_tp", "s", "TP's activation AllGather and ReduceScatter", "TP comms"),
          num("t_comms", "s", "the longer of the two, which run on their own axes", "Comms"),
          num("t_math", "s", "the layer's two matmuls on each chip", "Math"),
          num("ratio", "", "T_math / T_comms: above 1 is compute-bound", "Math / comms"),
          text("bound", "compute or ici", "Bound"),
          text("best", "yes for the split with the highest ratio", "Best")};
}

std::vector<OutputSpec> curve_columns() {
  return {
      num("per_chip", "tokens", "batch per chip B / N", "Tokens per chip"),
      num("fsdp", "", "T_math / T_comms of FSDP alone on every axis", "FSDP"),
      num("tp", "", "T_math / T_comms of TP alone on every axis", "TP"),
      num("mixed", "", "T_math / T_comms of FSDP x TP at X_opt (none where X_opt is outside 1..N)",
          "Mixed")};
}

std::vector<OutputSpec> time_columns() {
  return {text("split", "X x Y", "Split"),
          num("X", "chips", "FSDP degree", "FSDP X"),
          num("Y", "chips", "TP degree", "TP Y"),
          num("B", "tokens", "global batch", "Batch"),
          num("t_comms", "s", "the split's communication, one layer forward", "Comms"),
          num("t_math", "s", "the layer's matmuls on each chip", "Math")};
}

const Schema& schema() {
  static const Schema s{
      "training-split",
      "chapter 5's FSDP x TP optimizer: for the book's two-matmul layer, communication against "
      "arithmetic over every power-of-two split of the slice into X-way FSDP and Y-way TP, the "
      "balance point X_opt, and the thresholds, against the batch too",
      inputs(),
      {num("chips", "chips", "N, the slice's chips", "Chips N"),
       num("axes", "axes", "the slice's axes longer than 1", "Axes"),
       num("M_X", "axes", "axes FSDP spans in a mixed split", "FSDP axes M_X"),
       num("M_Y", "axes", "axes TP spans in a mixed split", "TP axes M_Y"),
       num("W_ici", "B/s", "one axis both ways, 2 x ici_link_bandwidth", "ICI bandwidth W_ici"),
       num("alpha", "FLOP/B", "C / W_ici", "ICI intensity alpha"),
       num("per_chip", "tokens", "B / N", "Tokens per chip"),
       num("t_math", "s", "one layer's forward matmuls on each chip", "Math per layer"),
       num("x_opt", "chips", "sqrt(B / F * M_X / M_Y * N), the real-valued balance",
           "Optimal FSDP degree"),
       num("y_opt", "chips", "N / X_opt", "Optimal TP degree"),
       num("best_x", "chips", "the power-of-two split with the highest ratio: its FSDP degree",
           "Best FSDP X"),
       num("best_y", "chips", "its TP degree", "Best TP Y"),
       num("best_t_comms", "s", "its communication per layer forward", "Best split's comms"),
       num("best_ratio", "", "its T_math / T_comms", "Best split's math / comms"),
       text("bound", "compute when the best split's ratio reaches 1, else ici", "Bound"),
       num("fsdp_ratio", "", "T_math / T_comms of FSDP alone on every axis", "FSDP alone"),
       num("tp_ratio", "", "T_math / T_comms of TP alone on every axis", "TP alone"),
       num("mixed_ratio", "", "T_math / T_comms of the mix at X_opt", "Mixed at X_opt"),
       num("fsdp_batch", "tokens", "alpha / axes: FSDP alone's tokens per chip", "FSDP threshold"),
       num("mixed_batch", "tokens", "alpha^2 / (M_X M_Y F): the mix's tokens per chip",
           "Mixed threshold"),
       num("mixed_global", "tokens", "N x the mixed threshold: below it every split is ICI-bound",
           "Mixed threshold, whole batch"),
       num("max_tp", "chips", "M_Y F / alpha: the largest compute-bound TP degree", "TP limit")},
      {{"splits", "every power-of-two split of the slice", split_columns()},
       {"curves", "math over comms against the batch per chip", curve_columns()},
       {"times", "communication of the named splits against the batch", time_columns()}}};
  return s;
}

std::string split_name(double x, double y) { return format_number(x) + " x " + format_number(y); }

// "512x8 1024x4" as FSDP degrees, each checked against the slice's chips.
Result<std::vector<double>> read_splits(const std::string& given, double chips) {
  std::vector<double> xs;
  std::string word;
  auto flush = [&]() -> std::optional<Error> {
    if (word.empty()) return std::nullopt;
    std::vector<std::int64_t> sizes;
    if (!parse_axis_sizes(word, sizes) || sizes.size() != 2)
      return Error{ErrorCode::invalid_argument, "splits",
                   "splits: \"" + word + "\" is not X x Y, like 512x8"};
    const double x = double(sizes[0]), y = double(sizes[1]);
    if (x * y != chips)
      return Error{ErrorCode::invalid_argument, "splits",
                   "splits: " + word + " is " + format_number(x * y) + " chips, the slice has " +
                       format_number(chips)};
    xs.push_back(x);
    word.clear();
    return std::nullopt;
  };
  for (char ch : given) {
    if (ch == ' ' || ch == ',') {
      if (std::optional<Error> bad = flush()) return *bad;
    } else {
      word += ch;
    }
  }
  if (std::optional<Error> bad = flush()) return *bad;
  return xs;
}

std::vector<Step> steps(const SplitRequest& q, const SplitAnalysis& s) {
  auto n = [](double x) { return latex_number(x); };
  const SplitRow& b = s.rows[s.best];
  std::vector<Step> st;
  auto add = [&](std::string label, std::string latex, double value, const char* unit,
                 const char* output, std::initializer_list<const char*> depends = {}) {
    st.emplace_back(std::move(label), std::move(latex), value, unit, output, depends);
  };
  add("One axis's ICI bandwidth, both ways",
      "W_\\text{ici} = 2 \\cdot " + latex_quantity(q.ici_link, "B/s") + " = " +
          latex_quantity(s.w_ici, "B/s"),
      s.w_ici, "B/s", "W_ici");
  add("The chip's ICI intensity",
      "\\alpha = \\frac{C}{W_\\text{ici}} = \\frac{" + latex_quantity(q.peak_flops, "FLOP/s") +
          "}{" + latex_quantity(s.w_ici, "B/s") + "} = " + n(s.alpha),
      s.alpha, "FLOP/B", "alpha", {"W_ici"});
  add("Tokens per chip",
      "\\frac{B}{N} = \\frac{" + n(q.B) + "}{" + n(q.chips) + "} = " + n(s.per_chip), s.per_chip,
      "tokens", "per_chip");
  add("One layer's forward matmuls on each chip",
      "T_\\text{math} = \\frac{2 \\cdot 2 B D F}{N C} = \\frac{4 \\cdot " + n(q.B) + " \\cdot " +
          n(q.D) + " \\cdot " + n(q.F) + "}{" + n(q.chips) + " \\cdot " +
          latex_quantity(q.peak_flops, "FLOP/s") + "} = " + latex_quantity(b.t_math, "s"),
      b.t_math, "s", "t_math");
  add("The FSDP degree where FSDP's and TP's communication are equal",
      "X_\\text{opt} = \\sqrt{\\frac{B}{F} \\frac{M_X}{M_Y} N} = \\sqrt{\\frac{" + n(q.B) + "}{" +
          n(q.F) + "} \\cdot \\frac{" + n(q.m_x) + "}{" + n(q.m_y) + "} \\cdot " + n(q.chips) +
          "} = " + n(s.x_opt),
      s.x_opt, "chips", "x_opt");
  add("The TP degree that goes with it",
      "Y_\\text{opt} = \\frac{N}{X_\\text{opt}} = \\frac{" + n(q.chips) + "}{" + n(s.x_opt) +
          "} = " + n(s.y_opt),
      s.y_opt, "chips", "y_opt", {"x_opt"});
  add("The best power-of-two split's communication: the longer of FSDP's and TP's",
      "\\max\\left(\\frac{2 w D F}{Y W_\\text{ici} M_X}, \\frac{2 a B D}{X W_\\text{ici} "
      "M_Y}\\right) "
      "= \\max(" +
          latex_quantity(b.t_fsdp, "s") + ", " + latex_quantity(b.t_tp, "s") + ") = " +
          latex_quantity(b.t_comms, "s") + "\\text{ at } X = " + n(b.x) + ", Y = " + n(b.y),
      b.t_comms, "s", "best_t_comms", {"W_ici"});
  add("Its math over its communication",
      "\\frac{T_\\text{math}}{T_\\text{comms}} = \\frac{" + latex_quantity(b.t_math, "s") + "}{" +
          latex_quantity(b.t_comms, "s") + "} = " + n(b.ratio),
      b.ratio, "", "best_ratio", {"t_math", "best_t_comms"});
  add("FSDP alone, over all " + format_number(q.axes) + " axes, needs per chip",
      "\\frac{\\alpha}{M} = \\frac{" + n(s.alpha) + "}{" + n(q.axes) + "} = " + n(s.fsdp_batch),
      s.fsdp_batch, "tokens", "fsdp_batch", {"alpha"});
  add("The mix needs per chip",
      "\\frac{\\alpha^2}{M_X M_Y F} = \\frac{" + n(s.alpha) + "^2}{" + n(q.m_x) + " \\cdot " +
          n(q.m_y) + " \\cdot " + n(q.F) + "} = " + n(s.mixed_batch),
      s.mixed_batch, "tokens", "mixed_batch", {"alpha"});
  add("So the whole batch must exceed",
      "N \\frac{\\alpha^2}{M_X M_Y F} = " + n(q.chips) + " \\cdot " + n(s.mixed_batch) + " = " +
          n(s.mixed_global),
      s.mixed_global, "tokens", "mixed_global", {"mixed_batch"});
  add("The largest TP degree that stays compute-bound",
      "\\frac{M_Y F}{\\alpha} = \\frac{" + n(q.m_y) + " \\cdot " + n(q.F) + "}{" + n(s.alpha) +
          "} = " + n(s.max_tp),
      s.max_tp, "chips", "max_tp", {"alpha"});
  return st;
}

Value ratio_value(double r) {
  return std::isfinite(r) ? Value::of(r) : Value::absent("no communication: no ratio to take");
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  Result<const Chip*> found =
      training_parts::torus_chip_of(in, "training-split splits a TPU slice");
  if (!found.ok()) return found.error();
  const Chip* chip = found.value();
  std::vector<std::int64_t> sizes;
  if (!parse_axis_sizes(in.text("shape"), sizes))
    return Error{ErrorCode::invalid_argument, "shape",
                 "shape must be sizes joined by x, like 4x4x4, got \"" + in.text("shape") + "\""};
  Result<std::vector<Wrap>> wraps = slice_wraps(*chip, sizes);
  if (!wraps.ok()) return wraps.error();
  const Model* model = training_parts::training_model_of(in);
  const Dtype compute_dtype = *parse_dtype(in.text("dtype"));
  SplitRequest q;
  q.peak_flops = in.has("peak_flops") ? in.number("peak_flops") : peak_flops(*chip, compute_dtype);
  if (q.peak_flops <= 0)
    return Error{ErrorCode::unsupported, "dtype",
                 chip->id + " has no " + to_string(compute_dtype) +
                     " peak in the catalog; give peak_flops to set one"};
  q.B = in.number("B");
  q.D = model->D;
  q.F = model->F;
  q.chips = 1;
  q.axes = 0;
  for (std::int64_t size : sizes) {
    q.chips *= double(size);
    if (size > 1) q.axes += 1;
  }
  q.m_y = in.has("M_Y") ? in.number("M_Y") : 1;
  q.m_x = in.has("M_X") ? in.number("M_X") : std::fmax(q.axes - q.m_y, 1);
  q.a = bytes_per_element(compute_dtype);
  q.w = bytes_per_element(*parse_dtype(in.text("dtype_params")));
  q.ici_link = chip->ici_link_bandwidth;
  if (in.has("splits")) {
    Result<std::vector<double>> named = read_splits(in.text("splits"), q.chips);
    if (!named.ok()) return named.error();
    q.named = named.value();
  }
  if (std::optional<Error> bad = check_split(q)) return bad;
  const SplitAnalysis s = analyse_split(q);
  const SplitRow& best = s.rows[s.best];
  out.set("chips", q.chips);
  out.set("axes", q.axes);
  out.set("M_X", q.m_x);
  out.set("M_Y", q.m_y);
  out.set("W_ici", s.w_ici);
  out.set("alpha", s.alpha);
  out.set("per_chip", s.per_chip);
  out.set("t_math", best.t_math);
  out.set("x_opt", s.x_opt);
  out.set("y_opt", s.y_opt);
  out.set("best_x", best.x);
  out.set("best_y", best.y);
  out.set("best_t_comms", best.t_comms);
  out.set("best_ratio", ratio_value(best.ratio));
  out.set_text("bound", best.ratio >= 1 ? "compute" : "ici");
  out.set("fsdp_ratio", ratio_value(split_row(q, q.chips, q.B).ratio));
  out.set("tp_ratio", ratio_value(split_row(q, 1, q.B).ratio));
  out.set("mixed_ratio",
          ratio_value(split_row(q, std::fmin(std::fmax(s.x_opt, 1), q.chips), q.B).ratio));
  out.set("fsdp_batch", s.fsdp_batch);
  out.set("mixed_batch", s.mixed_batch);
  out.set("mixed_global", s.mixed_global);
  out.set("max_tp", s.max_tp);
  if (out.explain()) out.steps(steps(q, s));
  const Schema& sc = schema();
  Table rows = empty_table(sc.tables[0]);
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    const SplitRow& r = s.rows[i];
    rows.rows.push_back(
        {Value::of(r.x), Value::of(r.y), Value::of(r.m_x), Value::of(r.m_y), Value::of(r.t_fsdp),
         Value::of(r.t_tp), Value::of(r.t_comms), Value::of(r.t_math), ratio_value(r.ratio),
         Value::of(r.ratio >= 1 ? "compute" : "ici"), Value::of(i == s.best ? "yes" : "no")});
  }
  out.table("splits", std::move(rows));
  Table curves = empty_table(sc.tables[1]);
  for (const SplitCurve& c : s.curves)
    curves.rows.push_back(
        {Value::of(c.per_chip), ratio_value(c.fsdp), ratio_value(c.tp), ratio_value(c.mixed)});
  out.table("curves", std::move(curves));
  Table times = empty_table(sc.tables[2]);
  for (const SplitTime& t : s.times)
    times.rows.push_back({Value::of(split_name(t.x, t.y)), Value::of(t.x), Value::of(t.y),
                          Value::of(t.B), Value::of(t.t_comms), Value::of(t.t_math)});
  out.table("times", std::move(times));
  return std::nullopt;
}

}  // namespace

Calculator training_split_calculator() { return {schema(), compute}; }

}  // namespace scalebook
