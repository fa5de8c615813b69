#include "scalebook/collectives/collective_cost.h"

#include <algorithm>
#include <string>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"

namespace scalebook {
namespace {

struct OpInfo {
  CollectiveOp op;
  const char* name;
  const char* book;
};

constexpr OpInfo kOps[] = {
    {CollectiveOp::all_gather, "all-gather", "AllGather"},
    {CollectiveOp::reduce_scatter, "reduce-scatter", "ReduceScatter"},
    {CollectiveOp::all_reduce, "all-reduce", "AllReduce"},
    {CollectiveOp::all_to_all, "all-to-all", "AllToAll"},
};

const OpInfo& info(CollectiveOp op) {
  for (const OpInfo& i : kOps) {
    if (i.op == op) return i;
  }
  return kOps[0];
}

std::string n_text(std::int64_t n) { return std::to_string(n); }

// One axis's share of the work: its bandwidth time for the whole array, its hops, and the
// LaTeX that derives them.
struct AxisTerm {
  const Axis* axis;
  double t_bandwidth = 0;
  double hops = 0;
  std::string latex;
  std::string kind;  // "ring used both ways", ...
};

bool one_way_ring(const Axis& a, const LinkModel& link) { return a.wraps && !link.bidirectional; }

std::string axis_kind(const Axis& a, const LinkModel& link) {
  std::string kind = !a.wraps             ? "a line (no wraparound)"
                     : link.bidirectional ? "a ring used both ways"
                                          : "a ring used one way";
  if (a.stride > 1)
    kind += ", its chips " + n_text(a.stride) + " apart (" + n_text(a.stride) +
            " groups share each link)";
  return kind;
}

// "4 \cdot " for an axis whose chips are 4 apart, else nothing.
std::string stride_latex(const Axis& a) {
  return a.stride > 1 ? n_text(a.stride) + " \\cdot " : "";
}

// AllGather and ReduceScatter along one axis (AllReduce doubles it).
AxisTerm gather_term(const Axis& a, double bytes, const LinkModel& link, double factor,
                     bool explain) {
  AxisTerm t{&a};
  const auto n = static_cast<double>(a.size);
  const bool halves = a.wraps && link.bidirectional;
  const auto stride = static_cast<double>(std::max<std::int64_t>(a.stride, 1));
  t.hops = halves ? static_cast<double>(a.size / 2) : n - 1;
  t.t_bandwidth = stride * factor * t.hops * bytes / (n * link.bandwidth);
  t.hops *= factor * stride;
  if (!explain) return t;
  const std::string f = stride_latex(a) + (factor == 2 ? "2 \\cdot " : "");
  const std::string hops_latex =
      halves ? "\\lfloor " + n_text(a.size) + "/2 \\rfloor" : "(" + n_text(a.size) + " - 1)";
  t.latex = "T_{" + axis_name(a) + "} = " + f + hops_latex + " \\cdot \\frac{" +
            latex_quantity(bytes, "B") + "}{" + n_text(a.size) + " \\cdot " +
            latex_quantity(link.bandwidth, "B/s") + "} = " + latex_quantity(t.t_bandwidth, "s");
  t.kind = axis_kind(a, link);
  return t;
}

// AllToAll: the bytes crossing the cut across the middle of this axis, over the links that
// cut severs (one per parallel line, two on a ring), one direction.
AxisTerm all_to_all_term(const Axis& a, double bytes, double chips, const LinkModel& link,
                         bool explain) {
  AxisTerm t{&a};
  const auto n = static_cast<double>(a.size);
  const double lines = chips / n;
  const auto stride = static_cast<double>(std::max<std::int64_t>(a.stride, 1));
  if (explain) t.kind = axis_kind(a, link);
  if (one_way_ring(a, link)) {
    t.hops = stride * (n - 1);
    t.t_bandwidth = stride * (n - 1) * bytes / (2 * n * lines * link.bandwidth);
    if (explain)
      t.latex = "T_{" + axis_name(a) + "} = " + stride_latex(a) + "\\frac{(" + n_text(a.size) +
                " - 1) \\cdot " + latex_quantity(bytes, "B") + "}{2 \\cdot " + n_text(a.size) +
                " \\cdot " + latex_number(lines) + " \\cdot " +
                latex_quantity(link.bandwidth, "B/s") + "} = " + latex_quantity(t.t_bandwidth, "s");
    return t;
  }
  const auto lo = static_cast<double>(a.size / 2);
  const double hi = n - lo;
  const double links = lines * (a.wraps ? 2 : 1);
  t.hops = stride * (a.wraps ? lo : n - 1);
  t.t_bandwidth = stride * lo * hi * bytes / (n * n * links * link.bandwidth);
  if (!explain) return t;
  t.latex = "T_{" + axis_name(a) + "} = " + stride_latex(a) + "\\frac{" + latex_number(lo) +
            " \\cdot " + latex_number(hi) + " / " + n_text(a.size) + "^2 \\cdot " +
            latex_quantity(bytes, "B") + "}{" + latex_number(links) + " \\cdot " +
            latex_quantity(link.bandwidth, "B/s") + "} = " + latex_quantity(t.t_bandwidth, "s");
  return t;
}

// The worked steps of the bandwidth time the caller has computed from `terms`.
SB_EXPLAIN_ONLY void add_bandwidth_steps(CollectiveCost& cost, CollectiveOp op,
                                         const std::vector<AxisTerm>& terms) {
  std::string rates;
  for (const AxisTerm& t : terms) {
    cost.steps.push_back(
        {std::string(book_name(op)) + " along " + axis_name(*t.axis) + ", " + t.kind,
         t.latex,
         t.t_bandwidth,
         "s",
         "",
         {}});
    rates += (rates.empty() ? "" : " + ") + ("\\frac{1}{T_{" + axis_name(*t.axis) + "}}");
  }
  if (op == CollectiveOp::all_to_all) {
    std::string names;
    for (const AxisTerm& t : terms)
      names += (names.empty() ? "" : ", ") + ("T_{" + axis_name(*t.axis) + "}");
    cost.steps.push_back(
        {"Bandwidth time: the slowest cut",
         "T_\\text{bw} = \\max(" + names + ") = " + latex_quantity(cost.t_bandwidth, "s"),
         cost.t_bandwidth,
         "s",
         "t_bandwidth",
         {}});
  } else if (terms.size() > 1) {
    cost.steps.push_back({"Bandwidth time: the axes run at once, so their rates add",
                          "T_\\text{bw} = 1 \\big/ \\left(" + rates +
                              "\\right) = " + latex_quantity(cost.t_bandwidth, "s"),
                          cost.t_bandwidth,
                          "s",
                          "t_bandwidth",
                          {}});
  } else {
    cost.steps.back().output = "t_bandwidth";
  }
}

SB_EXPLAIN_ONLY std::string hops_sum(const std::vector<AxisTerm>& terms) {
  std::string sum;
  for (const AxisTerm& t : terms) sum += (sum.empty() ? "" : " + ") + latex_number(t.hops);
  return sum;
}

// Every chip must take in its share of the array through its own links, and a chip at the
// corner of a mesh without wraparound has only one link on each line axis. Adding the axes'
// rates can promise more than those links carry (a 2x2x2 AllGather without wraparound at
// 1.75x what a corner chip can receive), so the bandwidth time is never below the corner's.
void add_corner_floor(CollectiveCost& cost, CollectiveOp op, double bytes, double chips,
                      const std::vector<Axis>& axes, const LinkModel& link, bool explain) {
  double links = 0;
  std::string links_latex;
  for (const Axis& a : axes) {
    if (a.size <= 1) continue;
    // A strided axis shares its links with the other groups: a stride-th of each is its own.
    double l = (a.wraps && link.bidirectional ? 2.0 : 1.0) /
               static_cast<double>(std::max<std::int64_t>(a.stride, 1));
    links += l;
    if (explain) links_latex += (links_latex.empty() ? "" : " + ") + latex_number(l);
  }
  const double received = collective_bytes_per_chip(op, bytes, chips);
  const double floor = received / (links * link.bandwidth);
  if (!(floor > cost.t_bandwidth)) return;
  cost.t_bandwidth = floor;
  if (!explain) return;
  cost.steps.back().output = "";  // the axes' sum is now a step on the way
  cost.steps.push_back({"Bandwidth time: no faster than a corner chip's " + format_number(links) +
                            " links can take in its share",
                        "T_\\text{bw} = \\frac{" + latex_quantity(received, "B") + "}{(" +
                            links_latex + ") \\cdot " + latex_quantity(link.bandwidth, "B/s") +
                            "} = " + latex_quantity(floor, "s"),
                        floor,
                        "s",
                        "t_bandwidth",
                        {}});
}

}  // namespace

double collective_bytes_per_chip(CollectiveOp op, double bytes, double chips) {
  double share = (chips - 1) / chips;
  if (op == CollectiveOp::all_reduce) return 2 * share * bytes;
  if (op == CollectiveOp::all_to_all) return share * bytes / chips;
  return share * bytes;
}

std::vector<std::string> collective_op_names() {
  std::vector<std::string> names;
  for (const OpInfo& i : kOps) names.emplace_back(i.name);
  return names;
}

std::optional<CollectiveOp> parse_collective_op(std::string_view name) {
  for (const OpInfo& i : kOps) {
    if (name == i.name) return i.op;
  }
  return std::nullopt;
}

const char* to_string(CollectiveOp op) { return info(op).name; }
const char* book_name(CollectiveOp op) { return info(op).book; }

void finish_collective_cost(CollectiveCost& cost, CollectiveOp op, double bytes, double chips,
                            const char* latency_label, const std::string& hops_latex,
                            double hop_latency, bool explain) {
  cost.t_latency = cost.hops * hop_latency;
  cost.latency_bound = cost.t_latency > cost.t_bandwidth;
  cost.time = std::max(cost.t_latency, cost.t_bandwidth);
  cost.bytes_per_chip = collective_bytes_per_chip(op, bytes, chips);
  if (cost.t_latency > 0) cost.crossover_bytes = bytes * cost.t_latency / cost.t_bandwidth;
  if (!explain) return;
  cost.steps.push_back({latency_label,
                        "T_\\text{lat} = " + hops_latex + " \\cdot " +
                            latex_quantity(hop_latency, "s") + " = " +
                            latex_quantity(cost.t_latency, "s"),
                        cost.t_latency,
                        "s",
                        "t_latency",
                        {}});
  cost.steps.push_back(
      {std::string(book_name(op)) + " time: the larger term (" +
           (cost.latency_bound ? "latency" : "bandwidth") + " bound)",
       "T = \\max(T_\\text{lat}, T_\\text{bw}) = " + latex_quantity(cost.time, "s"),
       cost.time,
       "s",
       "time",
       {"t_bandwidth", "t_latency"}});
}

CollectiveCost collective_cost(CollectiveOp op, double bytes, const std::vector<Axis>& axes,
                               const LinkModel& link, bool explain) {
  explain = explain && kExplains;
  CollectiveCost cost;
  double chips = 1;
  for (const Axis& a : axes) chips *= static_cast<double>(std::max<std::int64_t>(a.size, 1));
  if (chips <= 1 || link.bandwidth <= 0) return cost;

  const double factor = op == CollectiveOp::all_reduce ? 2 : 1;
  std::vector<AxisTerm> terms;
  for (const Axis& a : axes) {
    if (a.size <= 1) continue;
    terms.push_back(op == CollectiveOp::all_to_all ? all_to_all_term(a, bytes, chips, link, explain)
                                                   : gather_term(a, bytes, link, factor, explain));
  }
  double inverse = 0;
  for (const AxisTerm& t : terms) {
    cost.hops += t.hops;
    cost.axis_hops.push_back(t.hops);
    inverse += 1 / t.t_bandwidth;
    cost.t_bandwidth = std::max(cost.t_bandwidth, t.t_bandwidth);
  }
  // The slowest cut bounds a transpose; the other ops run on every axis at once.
  if (op != CollectiveOp::all_to_all && terms.size() > 1) cost.t_bandwidth = 1 / inverse;
  if (explain) add_bandwidth_steps(cost, op, terms);
  add_corner_floor(cost, op, bytes, chips, axes, link, explain);
  finish_collective_cost(
      cost, op, bytes, chips, "Latency time: every hop costs at least the per-hop latency",
      explain ? "(" + hops_sum(terms) + ")" : std::string(), link.hop_latency, explain);
  return cost;
}

}  // namespace scalebook
