#include "matmul_case.h"

#include <string>
#include <utility>
#include <vector>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/slice.h"

namespace scalebook::matmul_case {
namespace {

std::string free_axes(const ShardedArray& a, const std::string& contracting) {
  std::string out;
  for (const ShardedDim& d : a.dims) {
    if (d.name != contracting) out += d.axes;
  }
  return out;
}

}  // namespace

std::string axes_list(const std::string& axes) {
  std::string out;
  for (char a : axes) out += (out.empty() ? "" : ", ") + std::string(1, a);
  return out.empty() ? "none" : out;
}

const ShardedDim* find_dim(const ShardedArray& a, const std::string& name) {
  for (const ShardedDim& d : a.dims) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

Case classify(const MatmulSpec& m) {
  const std::string& j = m.contracting;
  const std::string ca = find_dim(m.a, j)->axes, cb = find_dim(m.b, j)->axes;
  std::vector<std::string> numbers, parts;
  if (!ca.empty() && ca == cb) {
    numbers.emplace_back("3");
    parts.push_back("both " + m.a.name + " and " + m.b.name + " split the contracting dimension " +
                    j + " over " + axes_list(ca) +
                    ": the local matmul leaves partial sums to AllReduce or ReduceScatter");
  } else if (!ca.empty() || !cb.empty()) {
    numbers.emplace_back("2");
    if (!ca.empty() && !cb.empty()) {
      parts.push_back(m.a.name + " and " + m.b.name + " split the contracting dimension " + j +
                      " differently (" + j + "_" + ca + " and " + j + "_" + cb +
                      "): gather until they match");
    } else {
      const ShardedArray& split = ca.empty() ? m.b : m.a;
      const ShardedArray& other = ca.empty() ? m.a : m.b;
      parts.push_back("only " + split.name + " splits the contracting dimension " + j + " (over " +
                      axes_list(ca.empty() ? cb : ca) + "): AllGather it first, or split " +
                      other.name + " the same way and reduce the partial sums after");
    }
  }
  std::string shared;
  for (char axis : free_axes(m.a, j)) {
    if (free_axes(m.b, j).find(axis) != std::string::npos) shared += axis;
  }
  if (!shared.empty()) {
    numbers.emplace_back("4");
    parts.push_back("mesh axis " + axes_list(shared) + " splits a free dimension of both " +
                    m.a.name + " and " + m.b.name + ": AllGather one of them first");
  }
  if (numbers.empty()) {
    return {"1", "neither input splits the contracting dimension " + j +
                     " and no mesh axis splits a free dimension of both: each device multiplies "
                     "its own blocks, with no communication"};
  }
  std::string number, description;
  for (const std::string& n : numbers) number += (number.empty() ? "" : "+") + n;
  for (const std::string& p : parts) description += (description.empty() ? "" : "; ") + p;
  return {number, description};
}

Wraps decide_wraps(const Chip& chip, const Mesh& mesh, const std::string& mode, bool explain) {
  Wraps w;
  // Hands back `w` with its reason, which only the explained path's step reads.
  auto because = [&](auto latex) -> Wraps {
    if (explain && kExplains) w.latex = latex();
    return std::move(w);
  };
  if (mode != "auto") {
    w.wraps.assign(mesh.axes.size(), mode == "yes");
    return because([&] {
      return std::string(mode == "yes" ? "\\text{given: every axis wraps around}"
                                       : "\\text{given: no axis wraps around}");
    });
  }
  w.wraps.assign(mesh.axes.size(), false);
  auto shape = [&] {
    std::string s;
    for (const Axis& a : mesh.axes) s += (s.empty() ? "" : "x") + std::to_string(a.size);
    return s;
  };
  // Compared as doubles: torus_dims may be any overridden number.
  if (static_cast<double>(mesh.axes.size()) != chip.torus_dims) {
    return because([&] {
      return "\\text{auto: the mesh has " + std::to_string(mesh.axes.size()) + " axes but the " +
             chip.name + " torus has " + format_number(chip.torus_dims) +
             ", so assume no wraparound (a line along each axis)}";
    });
  }
  std::vector<std::int64_t> sizes;
  for (const Axis& a : mesh.axes) sizes.push_back(a.size);
  Result<std::vector<Wrap>> rule = slice_wraps(chip, sizes);
  if (!rule.ok()) {
    return because([&] {
      return "\\text{auto: " + shape() + " is no slice of the " + chip.name + " pod (" +
             chip.pod_topology + "), so assume no wraparound}";
    });
  }
  bool unknown = false;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    w.wraps[k] = rule.value()[k] == Wrap::yes;
    unknown = unknown || rule.value()[k] == Wrap::unknown;
  }
  if (unknown) {
    return because([&] {
      return "\\text{auto: the catalog states no wraparound rule for " + chip.name +
             ", so assume none}";
    });
  }
  return because([&] {
    return "\\text{auto: a " + shape() + " slice of " + chip.name + " (pod " + chip.pod_topology +
           ") by the slice rule}";
  });
}

std::string wrapped_axes(const Mesh& mesh, const std::vector<bool>& wraps) {
  std::string axes;
  for (std::size_t k = 0; k < mesh.axes.size(); ++k) {
    if (wraps[k]) axes += mesh.axes[k].name;
  }
  return axes;
}

ShardedArray derived_output(const MatmulSpec& m) {
  ShardedArray c;
  c.name = m.a.name != "C" && m.b.name != "C" ? "C" : "Out";
  for (const ShardedArray* in : {&m.a, &m.b}) {
    for (const ShardedDim& d : in->dims) {
      if (d.name != m.contracting) c.dims.push_back({d.name, "", -1, {}});
    }
  }
  return c;
}

}  // namespace scalebook::matmul_case
