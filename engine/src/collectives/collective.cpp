#include "scalebook/collectives/collective.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "collective_chips.h"
#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/hardware/cluster.h"
#include "scalebook/hardware/slice.h"

namespace scalebook {
namespace {

using collective_chips::fail;
using collective_chips::join_sizes;
using collective_chips::Model;
using collective_chips::num;
using collective_chips::product;
using collective_chips::Sizes;
using collective_chips::step;

constexpr double kMaxAxisSize = 1e6;
constexpr std::size_t kMaxAxes = 3;

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
  InputSpec cluster{"cluster", InputKind::choice, "",
                    "GPUs: the cluster they are in (auto: a full-bisection fat tree of SUs of 32 "
                    "nodes, as many as the collective needs)",
                    Value::of("auto")};
  cluster.choices = {"auto"};
  for (const ClusterPreset& p : cluster_presets()) cluster.choices.push_back(p.id);
  cluster = labelled(cluster, "Cluster", InputGroup::advanced);
  InputSpec in_network{"in_network", InputKind::choice, "",
                       "GPUs: reduce AllReduces in the switches (NVLS in a node, SHARP beyond): "
                       "each stage moves the bytes once each way, bytes / W",
                       Value::of("no")};
  in_network.choices = {"no", "yes"};
  in_network = labelled(in_network, "In-network reduction", InputGroup::advanced,
                        {"No", "Yes (NVLS / SHARP)"});
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
      cluster,
      in_network,
      labelled({"stride", InputKind::count, "GPUs",
                "GPUs: how far apart the group's neighbours are, the size of an inner axis "
                "sharding the array another way (the book's Y); 1: a run of neighbours",
                Value::of(1.0), 1, false, 1e6},
               "Stride (GPUs)", InputGroup::advanced),
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

SB_EXPLAIN_ONLY Step chips_step(const Sizes& sizes, bool from_axes) {
  double n = product(sizes);
  std::string latex = "N = " + join_sizes(sizes, " \\times ");
  if (sizes.size() > 1) latex += " = " + latex_number(n);
  return step(
      from_axes ? "Chips in the collective (axes overrides axis_size)" : "Chips in the collective",
      latex, n, "chips", "chips", {});
}

SB_EXPLAIN_ONLY Step hops_step(const std::vector<double>& parts, double hops) {
  std::string sum;
  for (double h : parts) sum += (sum.empty() ? "" : " + ") + latex_number(h);
  if (parts.size() > 1) sum += " = " + latex_number(hops);
  return step("Hops in sequence (each costs at least the per-hop latency)",
              "H = " + (sum.empty() ? latex_number(hops) : sum), hops, "hops", "hops", {"wraps"});
}

// The cost's own steps with what each depends on; on a TPU the hops step goes before the
// latency term.
SB_EXPLAIN_ONLY void add_cost_steps(Model& m, bool tpu, std::vector<Step>& steps) {
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

// The nccl-tests figures and the efficiency, from the time.
struct Rates {
  double algbw = 0, busbw = 0, achieved = 0, efficiency = 0;
};

Rates rates_of(const Model& m, CollectiveOp op, double bytes) {
  Rates r;
  r.algbw = bytes / m.cost.time;
  r.busbw = r.algbw * busbw_factor(op, m.chips);
  r.achieved = m.cost.bytes_per_chip / m.cost.time;
  r.efficiency = r.achieved / m.peak;
  return r;
}

void set_outputs(const Model& m, CollectiveOp op, double bytes, ResultBuilder& out) {
  const CollectiveCost& c = m.cost;
  const double n = m.chips;
  out.set("chips", Value::of(n));
  out.set("wraps", m.wraps);
  out.set("link_bandwidth", Value::of(m.link_bandwidth));
  out.set("time", Value::of(c.time));
  out.set("latency_threshold_bytes", Value::of(m.link_bandwidth * m.latency));
  out.set("hop_latency", Value::of(m.latency));
  if (n <= 1) {
    for (const char* none :
         {"bound", "t_bandwidth", "t_latency", "hops", "bytes_per_chip", "crossover_bytes", "algbw",
          "busbw", "achieved_bandwidth", "peak_bandwidth", "efficiency"}) {
      out.none(none, "one chip: there is nothing to communicate");
    }
    return;
  }
  out.set("bound", Value::of(c.latency_bound ? "latency" : "bandwidth"));
  out.set("t_bandwidth", Value::of(c.t_bandwidth));
  out.set("t_latency", Value::of(c.t_latency));
  out.set("hops", Value::of(c.hops));
  out.set("bytes_per_chip", Value::of(c.bytes_per_chip));
  if (c.t_latency > 0) {
    out.set("crossover_bytes", Value::of(c.crossover_bytes));
  } else {
    out.none("crossover_bytes", "no latency (hop latency 0): bandwidth-bound at every size");
  }
  Rates r = rates_of(m, op, bytes);
  out.set("algbw", Value::of(r.algbw));
  out.set("busbw", Value::of(r.busbw));
  out.set("achieved_bandwidth", Value::of(r.achieved));
  out.set("peak_bandwidth", Value::of(m.peak));
  out.set("efficiency", Value::of(r.efficiency));
}

// The worked steps of set_outputs' numbers, after the model's own.
SB_EXPLAIN_ONLY void add_result_steps(const Model& m, CollectiveOp op, double bytes,
                                      std::vector<Step>& steps) {
  const CollectiveCost& c = m.cost;
  const double n = m.chips;
  double threshold = m.link_bandwidth * m.latency;
  if (n <= 1) {
    steps.push_back(step("One chip: nothing to send", "T = 0", 0, "s", "time", {"chips"}));
  } else {
    const std::string regime = c.latency_bound ? "latency" : "bandwidth";
    double ratio = c.t_latency / c.t_bandwidth;
    steps.push_back(step("Bound: " + regime,
                         "T_\\text{lat} / T_\\text{bw} = " + latex_number(ratio) +
                             (c.latency_bound ? " > 1" : " \\le 1") + " \\Rightarrow \\text{" +
                             regime + " bound}",
                         ratio, "", "bound", {"t_bandwidth", "t_latency"}));
    std::string share =
        op == CollectiveOp::all_to_all
            ? "\\frac{N - 1}{N^2}"
            : (op == CollectiveOp::all_reduce ? "2 \\cdot \\frac{N - 1}{N}" : "\\frac{N - 1}{N}");
    steps.push_back(
        step("Bytes each chip sends (nccl-tests)",
             "B_\\text{chip} = " + share + " V = " + latex_quantity(c.bytes_per_chip, "B"),
             c.bytes_per_chip, "B", "bytes_per_chip", {"chips"}));
    if (c.t_latency > 0) {
      steps.push_back(step(
          "Array size where both terms tie (T_bw grows with V, T_lat does not)",
          "V^* = V \\cdot T_\\text{lat} / T_\\text{bw} = " + latex_quantity(c.crossover_bytes, "B"),
          c.crossover_bytes, "B", "crossover_bytes", {"t_bandwidth", "t_latency"}));
    }
    const Rates r = rates_of(m, op, bytes);
    const double algbw = r.algbw, busbw = r.busbw, achieved = r.achieved;
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
    steps.push_back(step("Efficiency",
                         "\\frac{" + latex_quantity(achieved, "B/s") + "}{" +
                             latex_quantity(m.peak, "B/s") + "} = " + latex_number(r.efficiency),
                         r.efficiency, "", "efficiency", {"achieved_bandwidth", "peak_bandwidth"}));
  }
  steps.push_back(step("Bytes one hop moves in the per-hop latency (less is latency bound)",
                       latex_quantity(m.link_bandwidth, "B/s") + " \\cdot " +
                           latex_quantity(m.latency, "s") + " = " + latex_quantity(threshold, "B"),
                       threshold, "B", "latency_threshold_bytes",
                       {"link_bandwidth", "hop_latency"}));
}

std::optional<Error> compute_collective(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip* chip = chip_of(in);
  if (!chip) return fail(ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\"");
  Result<Sizes> sizes = read_sizes(in);
  if (!sizes.ok()) return sizes.error();
  collective_chips::Request q;
  q.op = *parse_collective_op(in.text("op"));
  q.bytes = in.number("bytes");
  q.sizes = std::move(sizes.value());
  q.from_axes = in.has("axes");
  q.wraparound = in.text("wraparound");
  q.bidirectional = in.text("bidirectional") == "yes";
  if (in.has("latency")) q.latency = in.number("latency");
  bool tpu = chip->torus_dims > 0;
  if (in.text("cluster") != "auto") q.cluster = in.text("cluster");
  q.in_network = in.text("in_network") == "yes";
  q.stride = in.number("stride");
  if (tpu && !q.cluster.empty())
    return fail(ErrorCode::invalid_argument, "cluster",
                "cluster is for GPUs; " + chip->id + " is a TPU: give its slice as axes");
  if (tpu && q.in_network)
    return fail(
        ErrorCode::invalid_argument, "in_network",
        "in_network is for GPUs' NVSwitches and InfiniBand switches; " + chip->id + " is a TPU");
  if (tpu && q.stride > 1)
    return fail(ErrorCode::invalid_argument, "stride",
                "stride is for GPUs; on " + chip->id + " give the slice's axes instead");
  if (!tpu && chip->nvlink_domain_gpus <= 0) {
    return fail(ErrorCode::unsupported, "chip",
                chip->id + " has neither an ICI torus nor an NVLink domain in the catalog");
  }
  double chips = 1;
  for (std::int64_t n : q.sizes) chips *= static_cast<double>(n);
  // A slice shape (one size per torus axis) is checked against the pod's shape later.
  bool slice_shape = static_cast<double>(q.sizes.size()) == chip->torus_dims;
  if (tpu && !slice_shape && chip->pod_chips > 0 && chips > chip->pod_chips) {
    const std::string field = q.from_axes ? "axes" : "axis_size";
    return fail(ErrorCode::out_of_range, field,
                field + " asks for " + format_number(chips) + " chips, more than the " +
                    format_number(chip->pod_chips) + " of a " + chip->name + " pod");
  }
  q.explain = out.explain();
  std::vector<Step> steps;
  if (q.explain) steps.push_back(chips_step(q.sizes, q.from_axes));
  Result<Model> model = tpu ? collective_chips::tpu_model(*chip, q, steps)
                            : collective_chips::gpu_model(*chip, q, steps);
  if (!model.ok()) return model.error();
  set_outputs(model.value(), q.op, q.bytes, out);
  if (!q.explain) return std::nullopt;
  add_cost_steps(model.value(), tpu, steps);
  add_result_steps(model.value(), q.op, q.bytes, steps);
  out.steps(std::move(steps));
  return std::nullopt;
}

}  // namespace

Calculator collective_calculator() { return {collective_schema(), compute_collective}; }

}  // namespace scalebook
