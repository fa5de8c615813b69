// What the search says about its configurations: their names, why each beats the next, the
// training calculator's inputs that reproduce one, chapter 3's notation and a JAX mesh.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/training/search.h"

namespace scalebook {
namespace {

std::string whole(double x) { return std::to_string(static_cast<long long>(x)); }
std::string si(double x, const char* unit) { return format_value(x, unit, "si"); }

std::string axes_of(const ParallelLayout& l, unsigned mask) {
  std::string out;
  for (std::size_t i = 0; i < l.axes.size(); ++i)
    if (mask & (1u << i)) out += axis_name(l.axes[i]);
  return out;
}

std::string choices(const SearchConfig& c, const ParallelLayout& l) {
  std::string out;
  if (l.degrees[kFsdp] > 1) out += "ZeRO-" + whole(c.zero) + ", ";
  out += std::string("remat ") + to_string(static_cast<RematPolicy>(c.remat));
  if (l.degrees[kPp] > 1) {
    out += ", " + whole(c.microbatches) + " microbatches " +
           (c.schedule == static_cast<int>(StepSchedule::gpipe) ? "GPipe" : "1F1B");
  }
  return out;
}

// What the next one is, in the fewest words: its layout, or else its choices.
std::string next_one(const SearchResult& r, const SearchConfig& a, const SearchConfig& b) {
  const SearchLayout& lb = r.layouts[b.layout];
  if (a.layout != b.layout) return describe(lb);
  return choices(b, lb.layout);
}

std::string why(const SearchResult& r, const SearchConfig& a, const SearchConfig& b) {
  const std::string next = next_one(r, a, b);
  if (b.step_time <= a.step_time) {
    return "as fast as the next, " + next + ", with " + si(b.mem_total - a.mem_total, "B") +
           " less memory per chip";
  }
  const double gap = b.step_time - a.step_time;
  // The step is max(compute, HBM) plus the exposed communication: name the larger change.
  const double busy = std::max(b.t_compute, b.t_hbm) - std::max(a.t_compute, a.t_hbm);
  const double critical = b.t_critical - a.t_critical;
  const double hidden = (b.exposed - b.t_critical) - (a.exposed - a.t_critical);
  std::string reason;
  if (critical >= busy && critical >= hidden) {
    reason = "it spends " + si(b.t_critical, "s") +
             " on critical-path TP, EP and pipeline transfers against " + si(a.t_critical, "s");
  } else if (hidden >= busy) {
    reason = "it leaves " + si(b.exposed - b.t_critical, "s") +
             " of FSDP and DP communication exposed beyond its compute, against " +
             si(a.exposed - a.t_critical, "s");
  } else if (b.t_hbm > b.t_compute) {
    reason = "it streams weights and optimizer state from HBM for " + si(b.t_hbm, "s") +
             ", longer than its compute";
  } else if (a.remat != b.remat) {
    reason = std::string("it recomputes more in the backward pass (remat ") +
             to_string(static_cast<RematPolicy>(b.remat)) + ")";
  } else if (r.layouts[b.layout].layout.degrees[kPp] > 1) {
    reason = "its pipeline bubble stretches its compute to " + si(b.t_compute, "s");
  } else {
    reason = "it computes for " + si(b.t_compute, "s") + " against " + si(a.t_compute, "s");
  }
  if (std::string(b.bound) != "compute") reason += "; it is " + std::string(b.bound) + "-bound";
  return si(gap, "s") + " a step faster than the next, " + next + ": " + reason;
}

// The mesh axes as JAX names them: one per physical axis, after its strategy.
std::vector<std::string> mesh_names(const SearchLayout& l) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < l.layout.axes.size(); ++i) {
    int s = kFsdp;
    for (int k = 0; k < kStrategies; ++k)
      if (l.layout.masks[static_cast<std::size_t>(k)] & (1u << i)) s = k;
    std::string name = kStrategyNames[s];
    int same = 0;
    for (std::size_t j = 0; j < l.layout.axes.size(); ++j)
      if (l.layout.masks[static_cast<std::size_t>(s)] & (1u << j)) ++same;
    const Axis& a = l.layout.axes[i];
    if (same > 1) name += "_" + std::string(1, static_cast<char>(a.name + 32));
    // Both parts of a split axis may serve one strategy's neighbours: name the outer one apart.
    if (a.stride > 1) name += same > 1 ? "_outer" : "";
    names.push_back(name);
  }
  return names;
}

std::string py_axes(const std::vector<std::string>& names) {
  if (names.empty()) return "None";
  if (names.size() == 1) return "\"" + names[0] + "\"";
  std::string out = "(";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", \"" : "\"") + names[i] + "\"";
  return out + ")";
}

}  // namespace

const char* to_string(RematPolicy p) {
  switch (p) {
    case RematPolicy::none:
      return "none";
    case RematPolicy::big_matmuls:
      return "big-matmuls";
    case RematPolicy::ffw_matmuls:
      return "ffw-matmuls";
    case RematPolicy::block:
      return "block";
  }
  return "";
}

std::string describe(const SearchLayout& l) {
  std::string out;
  for (int s = 0; s < kStrategies; ++s) {
    const double d = l.layout.degrees[static_cast<std::size_t>(s)];
    if (d <= 1) continue;
    out += (out.empty() ? "" : " x ") + std::string(kStrategyNames[s]) + " " + whole(d) + " (" +
           axes_of(l.layout, l.layout.masks[static_cast<std::size_t>(s)]) + ")";
  }
  if (out.empty()) out = "one chip";
  out += " on " + l.layout.shape;
  const std::string split = split_text(l.layout);
  if (!split.empty()) out += " split " + split;
  if (l.slices > 1) out += " x dp " + whole(l.slices) + " (DCN)";
  return out;
}

std::string describe_choices(const SearchResult& r, const SearchConfig& c) {
  return choices(c, r.layouts[c.layout].layout);
}

std::vector<std::string> search_reasons(const SearchRequest&, const SearchResult& r) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < r.top.size(); ++i) {
    if (i + 1 < r.top.size()) {
      out.push_back(why(r, r.top[i], r.top[i + 1]));
    } else {
      out.push_back(r.top.size() == 1 ? "the only configuration that fits" : "the last one shown");
    }
  }
  return out;
}

std::string training_inputs(const SearchRequest& request, const SearchResult& result,
                            const SearchConfig& c) {
  const SearchLayout& l = result.layouts[c.layout];
  std::string out = "shape=" + l.layout.shape;
  const std::string split = split_text(l.layout);
  if (!split.empty()) out += " split=" + split;
  if (l.slices > 1) out += " slices=" + whole(l.slices);
  for (int s = 0; s < kStrategies; ++s) {
    const unsigned mask = l.layout.masks[static_cast<std::size_t>(s)];
    const std::string axes = mask ? axes_of(l.layout, mask) : "none";
    // X' would open a quote in a shell: the words are for pasting after `scalebook calc training`.
    const bool primed = axes.find('\'') != std::string::npos;
    out += " " + std::string(kStrategyNames[s]) + "_axes=" + (primed ? "\"" + axes + "\"" : axes);
  }
  out += " zero=" + whole(c.zero) + " remat=" + to_string(static_cast<RematPolicy>(c.remat));
  if (l.layout.degrees[kPp] > 1) {
    out += " microbatches=" + whole(c.microbatches) +
           " schedule=" + (c.schedule == static_cast<int>(StepSchedule::gpipe) ? "gpipe" : "1f1b");
  }
  if (request.base.split_sequences) out += " split_sequences=yes";
  if (request.base.uneven_batch) out += " uneven_batch=yes";
  return out;
}

std::string notation(const SearchLayout& l) {
  const ParallelLayout& t = l.layout;
  const std::string batch = axes_of(t, t.masks[kDp] | t.masks[kFsdp] | t.masks[kEp]);
  const std::string fsdp = axes_of(t, t.masks[kFsdp]);
  const std::string tp = axes_of(t, t.masks[kTp]);
  auto dim = [](const char* d, const std::string& axes) {
    return axes.empty() ? std::string(d) : std::string(d) + "_{" + axes + "}";
  };
  const std::string layers = t.degrees[kPp] > 1 ? dim("L", axes_of(t, t.masks[kPp])) + ", " : "";
  const std::string experts = t.degrees[kEp] > 1 ? dim("E", axes_of(t, t.masks[kEp])) + ", " : "";
  std::string out = "In[" + dim("B", batch) + ", D] * W_in[" + layers + experts + dim("D", fsdp) +
                    ", " + dim("F", tp) + "] -> Tmp[" + dim("B", batch) + ", " + dim("F", tp) +
                    "]; Tmp * W_out[" + layers + experts + dim("F", tp) + ", " + dim("D", fsdp) +
                    "] -> Out[" + dim("B", batch) + ", D]";
  if (l.slices > 1) out += "; B also split over the " + whole(l.slices) + " slices (DCN)";
  return out;
}

std::string jax_export(const SearchRequest& request, const SearchResult& result,
                       const SearchConfig& c) {
  const SearchLayout& l = result.layouts[c.layout];
  const ParallelLayout& t = l.layout;
  const std::vector<std::string> names = mesh_names(l);
  std::vector<std::string> batch, fsdp, tp, pp, ep;
  if (l.slices > 1) batch.push_back("dcn");
  for (std::size_t i = 0; i < t.axes.size(); ++i) {
    const unsigned bit = 1u << i;
    if (t.masks[kDp] & bit || t.masks[kFsdp] & bit || t.masks[kEp] & bit) batch.push_back(names[i]);
    if (t.masks[kFsdp] & bit) fsdp.push_back(names[i]);
    if (t.masks[kTp] & bit) tp.push_back(names[i]);
    if (t.masks[kPp] & bit) pp.push_back(names[i]);
    if (t.masks[kEp] & bit) ep.push_back(names[i]);
  }
  // With more batch shards than sequences, the last batch axes split the sequence instead.
  std::vector<std::string> seq;
  double sequences = request.base.B / request.base.T, shards = l.slices;
  for (std::size_t i = 0; i < t.axes.size(); ++i)
    if ((t.masks[kDp] | t.masks[kFsdp] | t.masks[kEp]) & (1u << i))
      shards *= static_cast<double>(t.axes[i].size);
  while (shards > sequences && !batch.empty()) {
    double size = 1;
    const std::string last = batch.back();
    if (last == "dcn") {
      size = l.slices;
    } else {
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == last) size = static_cast<double>(t.axes[i].size);
    }
    seq.insert(seq.begin(), last);
    batch.pop_back();
    shards /= size;
  }
  // The slice's device mesh, then the logical one: a split axis's groups (X') before its
  // neighbours (X), so that row-major order keeps the neighbours adjacent.
  std::vector<std::size_t> order;                              // the logical axes, in mesh order
  std::vector<std::string> shape_of, logical_of, named, ones;  // Python tuple items
  if (l.slices > 1) {
    shape_of.push_back("1");
    ones.push_back(whole(l.slices));
    logical_of.push_back(whole(l.slices));
    named.push_back("\"dcn\"");
  }
  for (std::size_t i = 0; i < t.axes.size(); ++i) {
    const bool split = i + 1 < t.axes.size() && t.axes[i + 1].stride > 1;
    const double size = static_cast<double>(t.axes[i].size);
    if (split) order.push_back(i + 1);
    order.push_back(i);
    shape_of.push_back(whole(split ? size * static_cast<double>(t.axes[i + 1].size) : size));
    ones.push_back("1");
    if (split) ++i;
  }
  for (std::size_t i : order) {
    logical_of.push_back(whole(static_cast<double>(t.axes[i].size)));
    named.push_back("\"" + names[i] + "\"");
  }
  auto tuple = [](const std::vector<std::string>& items) {
    std::string out = "(";
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
    return out + ")";
  };
  const std::string shape = tuple(shape_of), dcn = tuple(ones), logical = tuple(logical_of);
  const std::string axis_names = tuple(named);
  const bool reshaped = logical_of.size() != shape_of.size();
  const bool zero3 = c.zero == 3 && t.degrees[kFsdp] > 1;
  const std::string w_fsdp = zero3 ? py_axes(fsdp) : "None";
  const std::string lead = (t.degrees[kPp] > 1 ? py_axes(pp) + ", " : "");
  const std::string lead_e = lead + (t.degrees[kEp] > 1 ? py_axes(ep) + ", " : "");
  std::string o;
  o += "# " + describe(l) + ", " + choices(c, t) + "\n";
  o += "# Found by scalebook training-search; a starting point, not a tuned program.\n";
  o += "import jax\n";
  o += "from jax.experimental import mesh_utils\n";
  o += "from jax.sharding import Mesh, NamedSharding, PartitionSpec as P\n\n";
  o += "# One mesh axis per axis of the " + t.shape + " slice, named by the strategy it serves";
  o += reshaped ? ";\n# a split axis is two: its groups, then the neighbouring chips in each.\n"
                : ".\n";
  const std::string tail = reshaped ? ".reshape" + logical + "\n" : "\n";
  if (l.slices > 1) {
    o += "devices = mesh_utils.create_hybrid_device_mesh(" + shape + ", " + dcn + ")" + tail;
  } else {
    o += "devices = mesh_utils.create_device_mesh(" + shape + ")" + tail;
  }
  o += "mesh = Mesh(devices, " + axis_names + ")\n\n";
  o += "# Activations [batch, sequence, d_model]: the batch over the data axes.\n";
  o += "activations = P(" + py_axes(batch) + ", " + py_axes(seq) + ", None)\n";
  o += "# Weights" + std::string(t.degrees[kPp] > 1 ? ", stacked by layer [layers, ...]" : "") +
       std::string(t.degrees[kEp] > 1 ? ", experts [experts, ...]" : "") +
       (zero3 ? "; ZeRO-3 shards d_model over fsdp" : "; whole on each fsdp chip (ZeRO-1/2)") +
       ".\n";
  o += "w_in = P(" + lead_e + w_fsdp + ", " + py_axes(tp) + ")   # [d_model, d_ff]\n";
  o += "w_out = P(" + lead_e + py_axes(tp) + ", " + w_fsdp + ")  # [d_ff, d_model]\n";
  o += "w_q = P(" + lead + w_fsdp + ", " + py_axes(tp) + ", None)  # [d_model, heads, head_dim]\n";
  o += "w_o = P(" + lead + py_axes(tp) + ", None, " + w_fsdp + ")  # [heads, head_dim, d_model]\n";
  o += "# Optimizer state: always sharded over fsdp (ZeRO-1 and up).\n";
  o += "opt_in = P(" + lead_e + py_axes(fsdp) + ", " + py_axes(tp) + ")\n\n";
  o += "shard = lambda spec: NamedSharding(mesh, spec)\n";
  return o;
}

}  // namespace scalebook
