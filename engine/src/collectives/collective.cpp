#include "scalebook/collectives/collective.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/hardware/slice.h"

namespace scalebook {
namespace {

using Sizes = std::vector<std::int64_t>;

constexpr double kMaxAxisSize = 1e6;
constexpr std::size_t kMaxAxes = 3;
constexpr const char* kAxisNames[] = {"X", "Y", "Z"};

Schema make_collective_schema() {
  Schema s{"collective",
           "the time of an AllGather, ReduceScatter, AllReduce or AllToAll over axes of chips: "
           "latency and bandwidth terms, nccl-tests bandwidths and the fraction of the chips' "
           "injection bandwidth it reaches",
           {},
           {}};
  InputSpec op{"op", InputKind::choice, "", "the collective", Value::of("all-gather")};
  op.choices = collective_op_names();
  op.label = "Collective";
  for (const std::string& name : op.choices)
    op.choice_labels.emplace_back(book_name(*parse_collective_op(name)));
  InputSpec wrap{"wraparound", InputKind::choice, "",
                 "auto: the catalog's rule (a TPU slice's rule when axes has as many axes as the "
                 "torus, else per axis: a multiple of the cube edge on v4p and v5p, the pod's "
                 "extent on v3, v5e and v6e); yes: every axis is a ring; no: every axis a line",
                 Value::of("auto")};
  wrap.choices = {"auto", "yes", "no"};
  wrap = labelled(wrap, "Wraparound", InputGroup::advanced,
                  {"Catalog's rule", "Every axis a ring", "Every axis a line"});
  InputSpec bidi{"bidirectional", InputKind::choice, "",
                 "yes: rings are used both ways; no: one way (a line always uses both)",
                 Value::of("yes")};
  bidi.choices = {"yes", "no"};
  bidi = labelled(bidi, "Ring direction", InputGroup::advanced, {"Both ways", "One way"});
  s.inputs = {
      op,
      labelled({"bytes", InputKind::number, "B",
                "V: bytes of the whole array (the gathered array, the array reduced, the array "
                "transposed), not one chip's shard",
                Value::of(33554432.0), 0, true, 1e18},
               "Array bytes V"),
      labelled({"axis_size", InputKind::count, "chips",
                "chips along the one axis the collective runs over", Value::of(4.0), 1, false,
                kMaxAxisSize},
               "Axis size"),
      labelled(
          {"axes", InputKind::text, "",
           "several axes at once, sizes joined by x like 4x4 (overrides axis_size)", Value::none()},
          "Axes"),
      wrap,
      bidi,
      labelled({"latency", InputKind::number, "s",
                "per-hop latency; default the chip's ici_hop_latency (0 on a GPU)", Value::none(),
                0, false, 1},
               "Hop latency", InputGroup::advanced),
      chip_input(),
  };
  s.outputs = {
      {"time", "s", "the collective's time: the larger of the two terms", false, "Time"},
      {"bound", "", "which term sets the time: latency or bandwidth", true, "Bound"},
      {"t_bandwidth", "s", "bandwidth term: the bytes over the links", false, "Bandwidth time"},
      {"t_latency", "s", "latency term: hops in sequence times the per-hop latency", false,
       "Latency time"},
      {"hops", "hops", "sequential hops (steps) the latency term counts", false, "Hops"},
      {"bytes_per_chip", "B", "bytes each chip sends (nccl-tests convention)", false,
       "Bytes per chip"},
      {"crossover_bytes", "B", "V at which both terms are equal; none without latency", false,
       "Crossover bytes"},
      {"latency_threshold_bytes", "B",
       "bytes one hop moves in the per-hop latency: a hop carrying less is latency bound", false,
       "Latency-bound threshold"},
      {"link_bandwidth", "B/s", "bandwidth of one link one way (a GPU's NVLink egress)", false,
       "Link bandwidth"},
      {"hop_latency", "s",
       "per-hop latency used: the latency input, else the chip's ici_hop_latency (0 on a GPU)",
       false, "Hop latency"},
      {"chips", "chips", "devices in the collective", false, "Chips"},
      {"wraps", "", "per axis, whether it wraps around (yes or no); none on a GPU", true, "Wraps"},
      {"algbw", "B/s", "algorithm bandwidth V / time (nccl-tests)", false, "Algorithm bandwidth"},
      {"busbw", "B/s",
       "bus bandwidth (nccl-tests): algbw times 2(n-1)/n for AllReduce, (n-1)/n otherwise", false,
       "Bus bandwidth"},
      {"achieved_bandwidth", "B/s", "bytes_per_chip / time: what one chip injects", false,
       "Achieved bandwidth"},
      {"peak_bandwidth", "B/s",
       "what one chip can inject on the axes used: 2 links per axis of 3+ chips or that wraps, 1 "
       "per axis of 2, one way each (a GPU: NVLink, plus its share of node egress across nodes)",
       false, "Peak injection bandwidth"},
      {"efficiency", "", "achieved_bandwidth / peak_bandwidth", false, "Efficiency"},
  };
  return s;
}

// Built once: compute_collective reads its output list on every call.
const Schema& collective_schema() {
  static const Schema schema = make_collective_schema();
  return schema;
}

std::string num(std::int64_t x) { return std::to_string(x); }

std::string join_sizes(const Sizes& sizes, const char* sep) {
  std::string out;
  for (std::int64_t n : sizes) out += (out.empty() ? "" : sep) + num(n);
  return out;
}

double product(const Sizes& sizes) {
  double n = 1;
  for (std::int64_t s : sizes) n *= static_cast<double>(s);
  return n;
}

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

// The axes' sizes: `axes` when given, else the one axis_size.
Result<Sizes> read_sizes(const ResolvedInputs& in) {
  if (!in.has("axes")) return Sizes{static_cast<std::int64_t>(in.number("axis_size"))};
  const std::string& text = in.text("axes");
  Sizes sizes;
  if (!parse_axis_sizes(text, sizes)) {
    return fail(ErrorCode::invalid_argument, "axes",
                "axes must be sizes joined by x, like 4x4, got \"" + text + "\"");
  }
  if (sizes.size() > kMaxAxes) {
    return fail(ErrorCode::invalid_argument, "axes",
                "axes has " + num(static_cast<std::int64_t>(sizes.size())) +
                    " sizes; at most 3 (a torus has 3 axes)");
  }
  for (std::int64_t n : sizes) {
    if (static_cast<double>(n) > kMaxAxisSize) {
      return fail(ErrorCode::out_of_range, "axes",
                  "axes sizes must be <= 1e6, got " + format_number(static_cast<double>(n)));
    }
  }
  return sizes;
}

std::string axis_name(std::size_t i) { return kAxisNames[i]; }

// Everything the two kinds of chip hand to the shared outputs.
struct Model {
  CollectiveCost cost;
  double chips = 1;
  double link_bandwidth = 0;
  double latency = 0;
  double peak = 0;
  std::string peak_latex;
  Value wraps = Value::none();
};

Step step(std::string label, std::string latex, double value, std::string unit, std::string output,
          std::vector<std::string> depends) {
  return {std::move(label), std::move(latex),  value,
          std::move(unit),  std::move(output), std::move(depends)};
}

Step chips_step(const Sizes& sizes, bool from_axes) {
  double n = product(sizes);
  std::string latex = "N = " + join_sizes(sizes, " \\times ");
  if (sizes.size() > 1) latex += " = " + latex_number(n);
  return step(
      from_axes ? "Chips in the collective (axes overrides axis_size)" : "Chips in the collective",
      latex, n, "chips", "chips", {});
}

Step latency_step(double latency, const std::string& source) {
  return step("Per-hop latency (" + source + ")", "T_\\text{min} = " + latex_quantity(latency, "s"),
              latency, "s", "hop_latency", {});
}

// Which axes wrap: the choice, or the catalog's rule with its reason for each axis.
struct Wraps {
  std::vector<bool> wraps;
  std::vector<std::string> reasons;
};

std::string pod_extents(const Sizes& pod) {
  Sizes unique = pod;
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  return "\\{" + join_sizes(unique, ", ") + "\\}";
}

Result<Wraps> decide_wraps(const Chip& chip, const Sizes& sizes, const std::string& mode,
                           bool from_axes) {
  Wraps w;
  if (mode != "auto") {
    bool yes = mode == "yes";
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      w.wraps.push_back(yes);
      w.reasons.push_back(std::string("\\text{wraparound = ") + mode + "}");
    }
    return w;
  }
  Sizes cube;
  Sizes pod;
  bool cube_ok = parse_axis_sizes(chip.cube_topology, cube) && !cube.empty();
  bool pod_ok = parse_axis_sizes(chip.pod_topology, pod);
  if (chip.wraparound.empty() || (!chip.cube_topology.empty() && !cube_ok) || !pod_ok) {
    return fail(
        ErrorCode::unsupported, "wraparound",
        chip.id + "'s catalog states no wraparound rule; give wraparound=yes or wraparound=no");
  }
  if (from_axes && sizes.size() == static_cast<std::size_t>(chip.torus_dims)) {
    Result<std::vector<Wrap>> slice = slice_wraps(chip, sizes);
    if (!slice.ok()) {
      Error e = slice.error();
      e.field = "axes";
      if (e.message.rfind("shape", 0) == 0) e.message = "axes" + e.message.substr(5);
      return e;
    }
    // The slice's rule decides; the reasons restate it with these sizes.
    std::string mods;
    for (std::size_t i = 0; cube_ok && i < sizes.size(); ++i) {
      std::int64_t edge = cube[std::min(i, cube.size() - 1)];
      mods +=
          (i ? ",\\ " : "") + num(sizes[i]) + " \\bmod " + num(edge) + " = " + num(sizes[i] % edge);
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      bool yes = slice.value()[i] == Wrap::yes;
      std::string why =
          cube_ok ? mods + " \\Rightarrow \\text{" + (yes ? "whole cubes" : "not whole cubes") + "}"
                  : "n_" + axis_name(i) + " = " + num(sizes[i]) + (yes ? " = " : " \\ne ") +
                        num(pod[i]) + " = \\text{pod}_" + axis_name(i);
      w.wraps.push_back(yes);
      w.reasons.push_back("\\text{a " + chip.id + " slice: } " + why + " \\Rightarrow \\text{" +
                          (yes ? "wraps" : "no wrap") + "}");
    }
    return w;
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::int64_t n = sizes[i];
    const std::string nx = "n_" + axis_name(i) + " = " + num(n);
    bool yes = false;
    std::string why;
    if (cube_ok) {
      yes = n % cube[0] == 0;
      why = nx + ",\\ " + num(n) + " \\bmod " + num(cube[0]) + " = " + num(n % cube[0]) +
            " \\Rightarrow \\text{" + (yes ? "whole cubes: wraps" : "not whole cubes: no wrap") +
            "}";
    } else {
      yes = std::find(pod.begin(), pod.end(), n) != pod.end();
      why = nx + (yes ? " \\in " : " \\notin ") + pod_extents(pod) +
            " = \\text{the pod's extents}" + " \\Rightarrow \\text{" + (yes ? "wraps" : "no wrap") +
            "}";
    }
    w.wraps.push_back(yes);
    w.reasons.push_back(why);
  }
  return w;
}

Result<Model> tpu_model(const Chip& chip, const ResolvedInputs& in, CollectiveOp op,
                        const Sizes& sizes, std::vector<Step>& steps) {
  bool from_axes = in.has("axes");
  Result<Wraps> decided = decide_wraps(chip, sizes, in.text("wraparound"), from_axes);
  if (!decided.ok()) return decided.error();
  const Wraps& w = decided.value();
  Model m;
  m.chips = product(sizes);
  m.link_bandwidth = chip.ici_link_bandwidth;
  if (m.link_bandwidth <= 0) {
    return fail(
        ErrorCode::unsupported, "ici_link_bandwidth",
        chip.id + " has no ici_link_bandwidth in the catalog; give ici_link_bandwidth to set one");
  }
  m.latency = in.has("latency") ? in.number("latency") : chip.ici_hop_latency;
  std::vector<CollectiveAxis> axes;
  std::string wraps_text, wraps_latex, peak_terms;
  double wrapped = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    axes.push_back({axis_name(i), sizes[i], w.wraps[i]});
    const char* yes_no = w.wraps[i] ? "yes" : "no";
    wraps_text += (i ? "," : "") + std::string(yes_no);
    wraps_latex += (i ? ", " : "") + std::string("\\text{") + yes_no + "}";
    wrapped += w.wraps[i] ? 1 : 0;
    steps.push_back(step(axis_name(i) + " wraps around: " + yes_no + " (1 yes, 0 no)", w.reasons[i],
                         w.wraps[i] ? 1 : 0, "", "wraps", {}));
    int links = sizes[i] == 1 ? 0 : (w.wraps[i] || sizes[i] > 2 ? 2 : 1);
    m.peak += links * m.link_bandwidth;
    peak_terms += (i ? " + " : "") + std::to_string(links);
  }
  m.wraps = Value::of(wraps_text);
  steps.push_back(step("Axes that wrap around (" + wraps_text + ")",
                       "\\text{wraps} = (" + wraps_latex + ")", wrapped, "", "wraps", {"chips"}));
  steps.push_back(step("Link bandwidth, one way (the chip's ici_link_bandwidth)",
                       "W = " + latex_quantity(m.link_bandwidth, "B/s"), m.link_bandwidth, "B/s",
                       "link_bandwidth", {}));
  steps.push_back(
      latency_step(m.latency, in.has("latency") ? "given" : "the chip's ici_hop_latency"));
  LinkModel link{m.link_bandwidth, m.latency, in.text("bidirectional") == "yes"};
  m.cost = collective_cost(op, in.number("bytes"), axes, link);
  m.peak_latex = "(" + peak_terms + ") \\cdot " + latex_quantity(m.link_bandwidth, "B/s");
  return m;
}

Result<Model> gpu_model(const Chip& chip, const ResolvedInputs& in, CollectiveOp op,
                        const Sizes& sizes, std::vector<Step>& steps) {
  Model m;
  m.chips = product(sizes);
  GpuLinks links{chip.nvlink_bandwidth, chip.nvlink_domain_gpus, chip.node_egress_bandwidth, 0};
  if (links.nvlink_bandwidth <= 0) {
    return fail(
        ErrorCode::unsupported, "nvlink_bandwidth",
        chip.id + " has no nvlink_bandwidth in the catalog; give nvlink_bandwidth to set one");
  }
  const double k = links.node_gpus;
  if (m.chips > k && std::fmod(m.chips, k) != 0) {
    const std::string limits = format_number(k) + " GPUs (one " + chip.id +
                               " node) or a multiple of " + format_number(k) + ", got ";
    if (!in.has("axes")) {
      return fail(ErrorCode::invalid_argument, "axis_size",
                  "axis_size must be at most " + limits + num(sizes[0]));
    }
    return fail(ErrorCode::invalid_argument, "axes",
                "axes must multiply to at most " + limits + join_sizes(sizes, "x") + " = " +
                    format_number(m.chips));
  }
  if (m.chips > k && links.node_bandwidth <= 0) {
    return fail(ErrorCode::unsupported, "node_egress_bandwidth",
                chip.id +
                    " has no node_egress_bandwidth in the catalog; give node_egress_bandwidth to "
                    "set one");
  }
  m.link_bandwidth = links.nvlink_bandwidth;
  m.latency = in.has("latency") ? in.number("latency") : 0;
  links.latency = m.latency;
  // NVSwitch links every pair of GPUs in a node: there is no ring to wrap or to use one way.
  steps.push_back(step("Link bandwidth: one GPU's NVLink egress, one way (nvlink_bandwidth; " +
                           format_number(k) +
                           " GPUs per node, switched, so wraparound and bidirectional do not "
                           "apply)",
                       "W = " + latex_quantity(m.link_bandwidth, "B/s"), m.link_bandwidth, "B/s",
                       "link_bandwidth", {}));
  steps.push_back(
      latency_step(m.latency, in.has("latency") ? "given" : "the catalog gives none for GPUs: 0"));
  m.cost = gpu_collective_cost(op, in.number("bytes"), m.chips, links);
  m.peak = m.link_bandwidth;
  m.peak_latex = latex_quantity(m.link_bandwidth, "B/s");
  if (m.chips > k) {
    m.peak += links.node_bandwidth / k;
    m.peak_latex += " + " + latex_quantity(links.node_bandwidth, "B/s") + " / " + latex_number(k);
  }
  return m;
}

Step hops_step(const std::vector<double>& parts, double hops) {
  std::string sum;
  for (double h : parts) sum += (sum.empty() ? "" : " + ") + latex_number(h);
  if (parts.size() > 1) sum += " = " + latex_number(hops);
  return step("Hops in sequence (each costs at least the per-hop latency)",
              "H = " + (sum.empty() ? latex_number(hops) : sum), hops, "hops", "hops", {"wraps"});
}

// The cost's own steps with what each depends on; on a TPU the hops step goes before the
// latency term.
void add_cost_steps(Model& m, bool tpu, std::vector<Step>& steps) {
  for (Step& s : m.cost.steps) {
    if (s.output.empty()) s.output = "t_bandwidth";  // one axis's or stage's share of it
    if (s.output == "t_bandwidth") s.depends = {"chips", "link_bandwidth"};
    if (tpu && s.output == "t_bandwidth") s.depends.push_back("wraps");
    if (s.output == "hops") s.depends = {"chips"};
    if (s.output == "t_latency") {
      if (tpu) steps.push_back(hops_step(m.cost.axis_hops, m.cost.hops));
      s.depends = {"hops", "hop_latency"};
    }
    steps.push_back(std::move(s));
  }
}

double busbw_factor(CollectiveOp op, double n) {
  return (op == CollectiveOp::all_reduce ? 2 : 1) * (n - 1) / n;
}

Calculation finish(const Model& m, CollectiveOp op, double bytes, std::vector<Step> steps) {
  std::map<std::string, Value> out;
  const CollectiveCost& c = m.cost;
  const double n = m.chips;
  out["chips"] = Value::of(n);
  out["wraps"] = m.wraps;
  out["link_bandwidth"] = Value::of(m.link_bandwidth);
  out["time"] = Value::of(c.time);
  double threshold = m.link_bandwidth * m.latency;
  out["latency_threshold_bytes"] = Value::of(threshold);
  out["hop_latency"] = Value::of(m.latency);
  if (n <= 1) {
    steps.push_back(step("One chip: nothing to send", "T = 0", 0, "s", "time", {"chips"}));
  } else {
    const std::string regime = c.latency_bound ? "latency" : "bandwidth";
    out["bound"] = Value::of(regime);
    double ratio = c.t_latency / c.t_bandwidth;
    steps.push_back(step("Bound: " + regime,
                         "T_\\text{lat} / T_\\text{bw} = " + latex_number(ratio) +
                             (c.latency_bound ? " > 1" : " \\le 1") + " \\Rightarrow \\text{" +
                             regime + " bound}",
                         ratio, "", "bound", {"t_bandwidth", "t_latency"}));
    out["t_bandwidth"] = Value::of(c.t_bandwidth);
    out["t_latency"] = Value::of(c.t_latency);
    out["hops"] = Value::of(c.hops);
    out["bytes_per_chip"] = Value::of(c.bytes_per_chip);
    std::string share =
        op == CollectiveOp::all_to_all
            ? "\\frac{N - 1}{N^2}"
            : (op == CollectiveOp::all_reduce ? "2 \\cdot \\frac{N - 1}{N}" : "\\frac{N - 1}{N}");
    steps.push_back(
        step("Bytes each chip sends (nccl-tests)",
             "B_\\text{chip} = " + share + " V = " + latex_quantity(c.bytes_per_chip, "B"),
             c.bytes_per_chip, "B", "bytes_per_chip", {"chips"}));
    if (c.t_latency > 0) {
      out["crossover_bytes"] = Value::of(c.crossover_bytes);
      steps.push_back(step(
          "Array size where both terms tie (T_bw grows with V, T_lat does not)",
          "V^* = V \\cdot T_\\text{lat} / T_\\text{bw} = " + latex_quantity(c.crossover_bytes, "B"),
          c.crossover_bytes, "B", "crossover_bytes", {"t_bandwidth", "t_latency"}));
    }
    double algbw = bytes / c.time;
    double busbw = algbw * busbw_factor(op, n);
    double achieved = c.bytes_per_chip / c.time;
    out["algbw"] = Value::of(algbw);
    out["busbw"] = Value::of(busbw);
    out["achieved_bandwidth"] = Value::of(achieved);
    out["peak_bandwidth"] = Value::of(m.peak);
    out["efficiency"] = Value::of(achieved / m.peak);
    steps.push_back(step("Algorithm bandwidth (nccl-tests algbw)",
                         "\\frac{" + latex_quantity(bytes, "B") + "}{" +
                             latex_quantity(c.time, "s") + "} = " + latex_quantity(algbw, "B/s"),
                         algbw, "B/s", "algbw", {"time"}));
    steps.push_back(step("Bus bandwidth (nccl-tests busbw)",
                         latex_quantity(algbw, "B/s") + " \\cdot " +
                             (op == CollectiveOp::all_reduce ? "2 \\cdot " : "") + "\\frac{" +
                             latex_number(n - 1) + "}{" + latex_number(n) +
                             "} = " + latex_quantity(busbw, "B/s"),
                         busbw, "B/s", "busbw", {"algbw", "chips"}));
    steps.push_back(step("Bandwidth one chip achieves",
                         "\\frac{" + latex_quantity(c.bytes_per_chip, "B") + "}{" +
                             latex_quantity(c.time, "s") + "} = " + latex_quantity(achieved, "B/s"),
                         achieved, "B/s", "achieved_bandwidth", {"bytes_per_chip", "time"}));
    steps.push_back(step("Peak injection bandwidth of one chip on these axes",
                         m.peak_latex + " = " + latex_quantity(m.peak, "B/s"), m.peak, "B/s",
                         "peak_bandwidth", {"link_bandwidth"}));
    steps.push_back(
        step("Efficiency",
             "\\frac{" + latex_quantity(achieved, "B/s") + "}{" + latex_quantity(m.peak, "B/s") +
                 "} = " + latex_number(achieved / m.peak),
             achieved / m.peak, "", "efficiency", {"achieved_bandwidth", "peak_bandwidth"}));
  }
  steps.push_back(step("Bytes one hop moves in the per-hop latency (less is latency bound)",
                       latex_quantity(m.link_bandwidth, "B/s") + " \\cdot " +
                           latex_quantity(m.latency, "s") + " = " + latex_quantity(threshold, "B"),
                       threshold, "B", "latency_threshold_bytes",
                       {"link_bandwidth", "hop_latency"}));
  Calculation calc;
  for (const OutputSpec& spec : collective_schema().outputs) {
    auto it = out.find(spec.name);
    calc.outputs.emplace_back(spec.name, it == out.end() ? Value::none() : it->second);
  }
  calc.steps = std::move(steps);
  return calc;
}

Result<Calculation> compute_collective(const ResolvedInputs& in) {
  const Chip* chip = chip_of(in);
  if (!chip) return fail(ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\"");
  Result<Sizes> sizes = read_sizes(in);
  if (!sizes.ok()) return sizes.error();
  const CollectiveOp op = *parse_collective_op(in.text("op"));
  bool tpu = chip->torus_dims > 0;
  if (!tpu && chip->nvlink_domain_gpus <= 0) {
    return fail(ErrorCode::unsupported, "chip",
                chip->id + " has neither an ICI torus nor an NVLink domain in the catalog");
  }
  double chips = 1;
  for (std::int64_t n : sizes.value()) chips *= static_cast<double>(n);
  // A slice shape (one size per torus axis) is checked against the pod's shape later.
  bool slice_shape = static_cast<double>(sizes.value().size()) == chip->torus_dims;
  if (tpu && !slice_shape && chip->pod_chips > 0 && chips > chip->pod_chips) {
    const std::string field = in.has("axes") ? "axes" : "axis_size";
    return fail(ErrorCode::out_of_range, field,
                field + " asks for " + format_number(chips) + " chips, more than the " +
                    format_number(chip->pod_chips) + " of a " + chip->name + " pod");
  }
  std::vector<Step> steps{chips_step(sizes.value(), in.has("axes"))};
  Result<Model> model = tpu ? tpu_model(*chip, in, op, sizes.value(), steps)
                            : gpu_model(*chip, in, op, sizes.value(), steps);
  if (!model.ok()) return model.error();
  add_cost_steps(model.value(), tpu, steps);
  return finish(model.value(), op, in.number("bytes"), std::move(steps));
}

}  // namespace

Calculator collective_calculator() { return {collective_schema(), compute_collective}; }

CollectiveCost gpu_collective_cost(CollectiveOp op, double bytes, double gpus,
                                   const GpuLinks& links) {
  CollectiveCost cost;
  if (gpus <= 1 || links.nvlink_bandwidth <= 0) return cost;
  const double k = links.node_gpus > 0 ? std::min(gpus, links.node_gpus) : gpus;
  const double nodes = gpus / k;
  const bool a2a = op == CollectiveOp::all_to_all;
  const double factor = op == CollectiveOp::all_reduce ? 2 : 1;
  const std::string name = book_name(op);
  const std::string f = factor == 2 ? "2 \\cdot " : "";
  const std::string v = latex_quantity(bytes, "B");
  // Inside a node: a ring of k (k - 1 sends), or one round of direct sends for an AllToAll.
  double node_time = a2a ? (k - 1) * bytes / (gpus * gpus * links.nvlink_bandwidth)
                         : factor * (k - 1) * bytes / (k * links.nvlink_bandwidth);
  std::string node_latex =
      a2a ? "\\frac{(" + latex_number(k) + " - 1) \\cdot " + v + "}{" + latex_number(gpus) +
                "^2 \\cdot " + latex_quantity(links.nvlink_bandwidth, "B/s") + "}"
          : f + "\\frac{(" + latex_number(k) + " - 1) \\cdot " + v + "}{" + latex_number(k) +
                " \\cdot " + latex_quantity(links.nvlink_bandwidth, "B/s") + "}";
  cost.steps.push_back({name + " inside a node over NVLink (" + latex_number(k) + " GPUs" +
                            (a2a ? ", direct sends)" : ", a ring)"),
                        "T_\\text{node} = " + node_latex + " = " + latex_quantity(node_time, "s"),
                        node_time,
                        "s",
                        "",
                        {}});
  cost.axis_hops.push_back(a2a ? 1 : factor * (k - 1));
  cost.t_bandwidth = node_time;
  if (nodes > 1) {
    double net_time = a2a ? (nodes - 1) * bytes / (nodes * nodes * links.node_bandwidth)
                          : factor * (nodes - 1) * bytes / (nodes * links.node_bandwidth);
    std::string m = latex_number(nodes);
    std::string net_latex = (a2a ? "" : f) + "\\frac{(" + m + " - 1) \\cdot " + v + "}{" + m +
                            (a2a ? "^2" : "") + " \\cdot " +
                            latex_quantity(links.node_bandwidth, "B/s") + "}";
    cost.steps.push_back({name + " between " + m + " nodes over node egress",
                          "T_\\text{net} = " + net_latex + " = " + latex_quantity(net_time, "s"),
                          net_time,
                          "s",
                          "",
                          {}});
    cost.axis_hops.push_back(a2a ? 1 : factor * (nodes - 1));
    cost.t_bandwidth = std::max(node_time, net_time);
    cost.steps.push_back({"Bandwidth time: the stages pipeline, so the slower one sets it",
                          "T_\\text{bw} = \\max(T_\\text{node}, T_\\text{net}) = " +
                              latex_quantity(cost.t_bandwidth, "s"),
                          cost.t_bandwidth,
                          "s",
                          "t_bandwidth",
                          {}});
  } else {
    cost.steps.back().output = "t_bandwidth";
  }
  std::string sum;
  for (double h : cost.axis_hops) {
    cost.hops += h;
    sum += (sum.empty() ? "" : " + ") + latex_number(h);
  }
  if (cost.axis_hops.size() > 1) sum += " = " + latex_number(cost.hops);
  cost.steps.push_back({std::string("Steps in sequence (") +
                            (a2a ? "one round of direct sends per stage" : "ring sends") + ")",
                        "H = " + sum,
                        cost.hops,
                        "hops",
                        "hops",
                        {}});
  finish_collective_cost(cost, op, bytes, gpus,
                         "Latency time: every step costs at least the latency",
                         latex_number(cost.hops), links.latency);
  return cost;
}

}  // namespace scalebook
