#include "matmul_plan.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace scalebook {
namespace {

bool has(const std::string& s, char c) { return s.find(c) != std::string::npos; }

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string remove(const std::string& s, const std::string& drop) {
  std::string out;
  for (char c : s) {
    if (!has(drop, c)) out += c;
  }
  return out;
}

std::string used_axes(const ShardedArray& a) {
  std::string out;
  for (const ShardedDim& d : a.dims) out += d.axes;
  return out;
}

ShardedDim* find_dim(ShardedArray& a, const std::string& name) {
  for (ShardedDim& d : a.dims) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

const ShardedDim* find_dim(const ShardedArray& a, const std::string& name) {
  for (const ShardedDim& d : a.dims) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

// The axes an AllGather can take off `a` and leave a sharding: on each dimension, some of its
// minor (last) axes. Taking a major one off would leave each device a strided set of blocks
// (gathering X of I_XY leaves not I_Y but every Y-th block), which is no sharding at all.
std::vector<std::string> gatherable(const ShardedArray& a) {
  std::vector<std::string> out = {""};
  for (const ShardedDim& d : a.dims) {
    std::vector<std::string> longer;
    for (const std::string& so_far : out) {
      for (std::size_t keep = 0; keep <= d.axes.size(); ++keep) {
        longer.push_back(so_far + d.axes.substr(keep));
      }
    }
    out = std::move(longer);
  }
  return out;
}

std::string subset(const std::string& axes, unsigned mask) {
  std::string out;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (mask & (1u << i)) out += axes[i];
  }
  return out;
}

ShardedArray without(const ShardedArray& a, const std::string& axes) {
  ShardedArray out = a;
  for (ShardedDim& d : out.dims) d.axes = remove(d.axes, axes);
  return out;
}

// Axes on the dimensions other than `contracting`.
std::string free_axes(const ShardedArray& a, const std::string& contracting) {
  std::string out;
  for (const ShardedDim& d : a.dims) {
    if (d.name != contracting) out += d.axes;
  }
  return out;
}

// A plan under construction, with each array's largest local size so far.
struct Draft {
  MatmulPlan plan;
  double a_peak = 0, b_peak = 0, c_peak = 0;
};

void add_collective(Draft& d, PlanContext& ctx, CollectiveOp op, const std::string& axes,
                    const ShardedArray& before, const ShardedArray& after) {
  PlanCollective c;
  c.op = op;
  c.axes = axes;
  c.before = array_text(before);
  c.after = array_text(after);
  // V is the array unsharded over the collective's axes: the gathered result, or the
  // unreduced block each device starts with.
  c.measured = op == CollectiveOp::all_gather ? after : before;
  c.bytes = ctx.local_bytes(c.measured);
  c.cost = &ctx.cost(op, c.bytes, axes);
  d.plan.ops.push_back(std::string(book_name(op)) + "_" + axes + " " + c.before + " -> " + c.after);
  d.plan.collectives.push_back(std::move(c));
}

void add_slice(Draft& d, const std::string& axes, const ShardedArray& before,
               const ShardedArray& after) {
  d.plan.ops.push_back("Slice_" + axes + " " + array_text(before) + " -> " + array_text(after));
}

// Appends `extra` to dimension `dim` of `a`; false when the plan is not worth keeping: an axis
// the array already uses, or one just gathered off that same dimension (the plan that never
// gathered it is the same, cheaper).
bool slice_onto(ShardedArray& a, const std::string& dim, const std::string& extra,
                const ShardedArray& original, const std::string& gathered) {
  ShardedDim* d = find_dim(a, dim);
  const ShardedDim* before = find_dim(original, dim);
  for (char axis : extra) {
    if (has(used_axes(a), axis)) return false;
    if (has(gathered, axis) && has(before->axes, axis)) return false;
    d->axes += axis;
  }
  return true;
}

// The local matmul's operands from the given inputs and the gathered axes; false if invalid.
bool prepare(const MatmulSpec& spec, const ShardedArray& target, bool requested,
             const std::string& gather_a, const std::string& gather_b, PlanContext& ctx, Draft& d) {
  const std::string& j = spec.contracting;
  ShardedArray a = without(spec.a, gather_a);
  ShardedArray b = without(spec.b, gather_b);
  const ShardedArray a_gathered = a, b_gathered = b;

  // Split one contracting dimension the way the other one is split.
  const std::string ca = find_dim(a, j)->axes, cb = find_dim(b, j)->axes;
  if (ca != cb) {
    if (starts_with(cb, ca)) {
      if (!slice_onto(a, j, cb.substr(ca.size()), spec.a, gather_a)) return false;
    } else if (starts_with(ca, cb)) {
      if (!slice_onto(b, j, ca.substr(cb.size()), spec.b, gather_b)) return false;
    } else {
      return false;
    }
  }
  if (requested) {
    // Partial sums the requested C keeps: split J of both over those axes too.
    for (char axis : target.unreduced) {
      if (has(find_dim(a, j)->axes, axis)) continue;
      if (has(used_axes(a), axis) || has(used_axes(b), axis)) continue;
      find_dim(a, j)->axes += axis;
      find_dim(b, j)->axes += axis;
    }
    // Free dimensions onto the axes C wants there, while they are unused.
    for (const ShardedDim& want : target.dims) {
      ShardedArray& in = find_dim(a, want.name) ? a : b;
      const ShardedArray& original = &in == &a ? spec.a : spec.b;
      const std::string& gathered = &in == &a ? gather_a : gather_b;
      ShardedDim* have = find_dim(in, want.name);
      if (!starts_with(want.axes, have->axes)) continue;
      for (char axis : want.axes.substr(have->axes.size())) {
        if (has(used_axes(a), axis) || has(used_axes(b), axis)) break;
        if (has(gathered, axis) && has(find_dim(original, want.name)->axes, axis)) return false;
        have->axes += axis;
      }
    }
  }
  if (!ctx.divisible(a) || !ctx.divisible(b)) return false;
  for (char axis : free_axes(a, j)) {
    if (has(free_axes(b, j), axis)) return false;
  }
  // Only a valid plan is worth its collectives' text and costs.
  if (!gather_a.empty()) {
    add_collective(d, ctx, CollectiveOp::all_gather, gather_a, spec.a, a_gathered);
  }
  if (!gather_b.empty()) {
    add_collective(d, ctx, CollectiveOp::all_gather, gather_b, spec.b, b_gathered);
  }
  d.a_peak = std::max(ctx.local_bytes(spec.a), ctx.local_bytes(a_gathered));
  d.b_peak = std::max(ctx.local_bytes(spec.b), ctx.local_bytes(b_gathered));
  const std::string sliced_a = remove(used_axes(a), used_axes(a_gathered));
  const std::string sliced_b = remove(used_axes(b), used_axes(b_gathered));
  if (!sliced_a.empty()) add_slice(d, sliced_a, a_gathered, a);
  if (!sliced_b.empty()) add_slice(d, sliced_b, b_gathered, b);
  d.plan.a = std::move(a);
  d.plan.b = std::move(b);
  return true;
}

// One way to finish the reduction: axes ReduceScattered onto each output dimension (by
// index), axes AllReduced.
struct Reduction {
  std::vector<std::string> scatter;
  std::string all_reduce;
};

std::vector<Reduction> reductions(const ShardedArray& r, const ShardedArray& target,
                                  bool requested) {
  const std::string& u = r.unreduced;
  std::vector<Reduction> out;
  if (!requested) {
    out.push_back({std::vector<std::string>(r.dims.size()), u});
    if (u.empty()) return out;
    for (std::size_t i = 0; i < r.dims.size(); ++i) {
      Reduction scatter{std::vector<std::string>(r.dims.size()), ""};
      scatter.scatter[i] = u;
      out.push_back(scatter);
    }
    return out;
  }
  for (char axis : target.unreduced) {
    if (!has(u, axis)) return out;  // C wants partial sums this plan does not leave
  }
  std::string choosable, always;
  for (char axis : u) {
    if (has(target.unreduced, axis)) continue;
    bool on_a_dim = false;
    for (const ShardedDim& d : target.dims) on_a_dim = on_a_dim || has(d.axes, axis);
    (on_a_dim ? choosable : always) += axis;
  }
  for (unsigned mask = 0; mask < (1u << choosable.size()); ++mask) {
    const std::string scattered = subset(choosable, mask);
    Reduction red{std::vector<std::string>(r.dims.size()), always + remove(choosable, scattered)};
    for (std::size_t i = 0; i < r.dims.size(); ++i) {
      for (char axis : target.dims[i].axes) {
        if (has(scattered, axis)) red.scatter[i] += axis;
      }
    }
    out.push_back(std::move(red));
  }
  return out;
}

// Steps 4 and 5 from the local matmul's output; false if invalid.
bool finish(Draft& d, const Reduction& red, const ShardedArray& target, bool requested,
            PlanContext& ctx) {
  ShardedArray c = d.plan.result;
  d.c_peak = ctx.local_bytes(c);
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (red.scatter[i].empty()) continue;
    ShardedArray before = c;
    c.dims[i].axes += red.scatter[i];
    c.unreduced = remove(c.unreduced, red.scatter[i]);
    if (!ctx.divisible(c)) return false;
    add_collective(d, ctx, CollectiveOp::reduce_scatter, red.scatter[i], before, c);
  }
  if (!red.all_reduce.empty()) {
    ShardedArray before = c;
    c.unreduced = remove(c.unreduced, red.all_reduce);
    add_collective(d, ctx, CollectiveOp::all_reduce, red.all_reduce, before, c);
  }
  if (requested) {
    // Keep what each dimension's subscript shares with the wanted one from the front; gather
    // the rest (minor axes, so the blocks stay whole), then slice on what is missing.
    ShardedArray kept = c;
    std::string gathered;
    for (std::size_t i = 0; i < c.dims.size(); ++i) {
      const std::string& have = c.dims[i].axes;
      const std::string& want = target.dims[i].axes;
      std::size_t common = 0;
      while (common < have.size() && common < want.size() && have[common] == want[common]) {
        ++common;
      }
      kept.dims[i].axes = have.substr(0, common);
      gathered += have.substr(common);
    }
    if (!gathered.empty()) add_collective(d, ctx, CollectiveOp::all_gather, gathered, c, kept);
    d.c_peak = std::max(d.c_peak, ctx.local_bytes(kept));
    ShardedArray done = kept;
    std::string sliced;
    for (std::size_t i = 0; i < c.dims.size(); ++i) {
      sliced += target.dims[i].axes.substr(kept.dims[i].axes.size());
      done.dims[i].axes = target.dims[i].axes;
    }
    done.unreduced = target.unreduced;
    if (!sliced.empty()) add_slice(d, sliced, kept, done);
    c = std::move(done);
  }
  d.plan.c = std::move(c);
  return true;
}

void price(Draft& d, PlanContext& ctx) {
  MatmulPlan& p = d.plan;
  double flops = 2;
  for (const ShardedDim& dim : p.a.dims) {
    flops *= static_cast<double>(ctx.sizes().at(dim.name) / axes_size(dim.axes, ctx.mesh()));
  }
  for (const ShardedDim& dim : p.b.dims) {
    if (find_dim(p.a, dim.name)) continue;
    flops *= static_cast<double>(ctx.sizes().at(dim.name) / axes_size(dim.axes, ctx.mesh()));
  }
  p.flops = flops;
  p.t_compute = flops / ctx.peak_flops();
  p.t_comm = 0;
  p.gathered = 0;
  for (const PlanCollective& c : p.collectives) {
    p.t_comm += c.cost->time;
    if (c.op == CollectiveOp::all_gather) p.gathered += c.bytes;
  }
  p.t_total = std::max(p.t_compute, p.t_comm);
  p.t_serial = p.t_compute + p.t_comm;
  p.memory_a = d.a_peak;
  p.memory_b = d.b_peak;
  p.memory_c = d.c_peak;
  p.memory = d.a_peak + d.b_peak + d.c_peak;
}

// Rounded to 9 significant digits, so sums of the same terms in another order compare equal
// and the order stays a strict weak ordering.
double rounded(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, 8 - std::floor(std::log10(std::fabs(x))));
  return std::isfinite(scale) && std::isfinite(x * scale) ? std::round(x * scale) / scale : x;
}

using SortKey = std::tuple<double, std::size_t, double, double, double, std::string>;

SortKey sort_key(const MatmulPlan& p, std::string text) {
  return {rounded(p.t_total), p.collectives.size(), rounded(p.gathered),
          rounded(p.t_comm),  rounded(p.t_compute), std::move(text)};
}

}  // namespace

std::string MatmulPlan::text() const {
  std::string out;
  for (const std::string& op : ops) out += (out.empty() ? "" : "; ") + op;
  return out;
}

double PlanContext::local_bytes(const ShardedArray& array) const {
  double n = bytes_per_element_;
  for (const ShardedDim& d : array.dims) {
    n *= static_cast<double>(sizes_.at(d.name)) / static_cast<double>(axes_size(d.axes, mesh_));
  }
  return n;
}

bool PlanContext::divisible(const ShardedArray& array) const {
  for (const ShardedDim& d : array.dims) {
    if (sizes_.at(d.name) % axes_size(d.axes, mesh_) != 0) return false;
  }
  return true;
}

const CollectiveCost& PlanContext::cost(CollectiveOp op, double bytes, const std::string& axes) {
  auto key = std::make_tuple(static_cast<int>(op), bytes, axes);
  auto it = memo_.find(key);
  if (it != memo_.end()) return it->second;
  std::vector<CollectiveAxis> list;
  for (char axis : axes) {
    for (std::size_t k = 0; k < mesh_.axes.size(); ++k) {
      if (mesh_.axes[k].name == axis) {
        list.push_back({std::string(1, axis), mesh_.axes[k].size, wraps_[k]});
      }
    }
  }
  return memo_.emplace(key, collective_cost(op, bytes, list, link_, explain_)).first->second;
}

std::vector<MatmulPlan> plan_matmul(const MatmulSpec& spec, const ShardedArray& derived_c,
                                    PlanContext& ctx) {
  const bool requested = spec.c.has_value();
  const ShardedArray& target = requested ? *spec.c : derived_c;
  std::vector<std::pair<SortKey, MatmulPlan>> keyed;
  std::set<std::string> seen;
  const std::vector<std::string> gathers_b = gatherable(spec.b);
  for (const std::string& gather_a : gatherable(spec.a)) {
    for (const std::string& gather_b : gathers_b) {
      Draft base;
      if (!prepare(spec, target, requested, gather_a, gather_b, ctx, base)) continue;
      ShardedArray& r = base.plan.result;
      r.name = target.name;
      for (const ShardedDim& want : target.dims) {
        const ShardedDim* from = find_dim(base.plan.a, want.name);
        if (!from) from = find_dim(base.plan.b, want.name);
        r.dims.push_back({want.name, from->axes, -1, {}});
      }
      r.unreduced = find_dim(base.plan.a, spec.contracting)->axes;
      base.plan.ops.push_back(array_text(base.plan.a) + " * " + array_text(base.plan.b) + " -> " +
                              array_text(r));
      for (const Reduction& red : reductions(r, target, requested)) {
        Draft d = base;
        if (!finish(d, red, target, requested, ctx)) continue;
        price(d, ctx);
        std::string text = d.plan.text();
        if (!seen.insert(text).second) continue;
        keyed.emplace_back(sort_key(d.plan, std::move(text)), std::move(d.plan));
      }
    }
  }
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<MatmulPlan> plans;
  plans.reserve(keyed.size());
  for (auto& [key, plan] : keyed) plans.push_back(std::move(plan));
  return plans;
}

}  // namespace scalebook
