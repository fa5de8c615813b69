#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "matmul_plan.h"

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

// A plan under construction.
struct Draft {
  const std::vector<std::string>* dims = nullptr;  // PlanShapes::dims
  PlanShape shape;
  std::vector<std::string> ops;
  ShardedArray result;  // the local matmul's output
};

LocalForm form_of(const Draft& d, const ShardedArray& array) {
  LocalForm form;
  for (const ShardedDim& dim : array.dims) {
    const auto at = std::find(d.dims->begin(), d.dims->end(), dim.name) - d.dims->begin();
    form.dims.emplace_back(static_cast<std::size_t>(at), dim.axes);
  }
  return form;
}

void add_collective(Draft& d, CollectiveOp op, const std::string& axes, const ShardedArray& before,
                    const ShardedArray& after) {
  ShapeCollective c;
  c.op = op;
  c.axes = axes;
  c.before = array_text(before);
  c.after = array_text(after);
  // V is the array unsharded over the collective's axes: the gathered result, or the
  // unreduced block each device starts with.
  c.measured = op == CollectiveOp::all_gather ? after : before;
  d.ops.push_back(std::string(book_name(op)) + "_" + axes + " " + c.before + " -> " + c.after);
  d.shape.collectives.push_back(std::move(c));
}

void add_slice(Draft& d, const std::string& axes, const ShardedArray& before,
               const ShardedArray& after) {
  d.ops.push_back("Slice_" + axes + " " + array_text(before) + " -> " + array_text(after));
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
             const std::string& gather_a, const std::string& gather_b, Draft& d) {
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
  for (char axis : free_axes(a, j)) {
    if (has(free_axes(b, j), axis)) return false;
  }
  // Whether a and b divide evenly depends on the sizes: the pricing checks.
  if (!gather_a.empty()) add_collective(d, CollectiveOp::all_gather, gather_a, spec.a, a_gathered);
  if (!gather_b.empty()) add_collective(d, CollectiveOp::all_gather, gather_b, spec.b, b_gathered);
  d.shape.a_forms = {form_of(d, spec.a), form_of(d, a_gathered)};
  d.shape.b_forms = {form_of(d, spec.b), form_of(d, b_gathered)};
  const std::string sliced_a = remove(used_axes(a), used_axes(a_gathered));
  const std::string sliced_b = remove(used_axes(b), used_axes(b_gathered));
  if (!sliced_a.empty()) add_slice(d, sliced_a, a_gathered, a);
  if (!sliced_b.empty()) add_slice(d, sliced_b, b_gathered, b);
  d.shape.a = std::move(a);
  d.shape.b = std::move(b);
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

// Steps 4 and 5 from the local matmul's output.
void finish(Draft& d, const Reduction& red, const ShardedArray& target, bool requested) {
  ShardedArray c = d.result;
  d.shape.c_forms = {form_of(d, c)};
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (red.scatter[i].empty()) continue;
    ShardedArray before = c;
    c.dims[i].axes += red.scatter[i];
    c.unreduced = remove(c.unreduced, red.scatter[i]);
    d.shape.must_divide.push_back(form_of(d, c));
    add_collective(d, CollectiveOp::reduce_scatter, red.scatter[i], before, c);
  }
  if (!red.all_reduce.empty()) {
    ShardedArray before = c;
    c.unreduced = remove(c.unreduced, red.all_reduce);
    add_collective(d, CollectiveOp::all_reduce, red.all_reduce, before, c);
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
    if (!gathered.empty()) add_collective(d, CollectiveOp::all_gather, gathered, c, kept);
    d.shape.c_forms.push_back(form_of(d, kept));
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
  d.shape.c = std::move(c);
}

}  // namespace

PlanShapes plan_shapes(const MatmulSpec& spec, const ShardedArray& derived_c) {
  const bool requested = spec.c.has_value();
  const ShardedArray& target = requested ? *spec.c : derived_c;
  PlanShapes out;
  for (const ShardedArray* array : {&spec.a, &spec.b, &target}) {
    for (const ShardedDim& d : array->dims) {
      if (std::find(out.dims.begin(), out.dims.end(), d.name) == out.dims.end()) {
        out.dims.push_back(d.name);
      }
    }
  }
  std::set<std::string> seen;
  std::map<std::tuple<int, std::string, std::string>, std::size_t> kinds;
  const std::vector<std::string> gathers_b = gatherable(spec.b);
  for (const std::string& gather_a : gatherable(spec.a)) {
    for (const std::string& gather_b : gathers_b) {
      Draft base;
      base.dims = &out.dims;
      if (!prepare(spec, target, requested, gather_a, gather_b, base)) continue;
      ShardedArray& r = base.result;
      r.name = target.name;
      for (const ShardedDim& want : target.dims) {
        const ShardedDim* from = find_dim(base.shape.a, want.name);
        if (!from) from = find_dim(base.shape.b, want.name);
        r.dims.push_back({want.name, from->axes, -1, {}});
      }
      r.unreduced = find_dim(base.shape.a, spec.contracting)->axes;
      base.ops.push_back(array_text(base.shape.a) + " * " + array_text(base.shape.b) + " -> " +
                         array_text(r));
      base.shape.a_form = form_of(base, base.shape.a);
      base.shape.b_form = form_of(base, base.shape.b);
      base.shape.must_divide = {base.shape.a_form, base.shape.b_form};
      for (const Reduction& red : reductions(r, target, requested)) {
        Draft d = base;
        finish(d, red, target, requested);
        for (const std::string& op : d.ops) d.shape.text += (d.shape.text.empty() ? "" : "; ") + op;
        if (!seen.insert(d.shape.text).second) continue;
        d.shape.c_text = array_text(d.shape.c);
        d.shape.c_partition = partition_spec(d.shape.c);
        for (ShapeCollective& c : d.shape.collectives) {
          c.measured_form = form_of(d, c.measured);
          auto key = std::make_tuple(static_cast<int>(c.op), c.axes, array_text(c.measured));
          c.kind = kinds.emplace(key, kinds.size()).first->second;
        }
        out.shapes.push_back(std::move(d.shape));
      }
    }
  }
  out.kinds = kinds.size();
  return out;
}

}  // namespace scalebook
