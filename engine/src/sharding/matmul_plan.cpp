#include "matmul_plan.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <tuple>
#include <utility>

namespace scalebook {
namespace {

double rounded(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, 8 - std::floor(std::log10(std::fabs(x))));
  return std::isfinite(scale) && std::isfinite(x * scale) ? std::round(x * scale) / scale : x;
}

}  // namespace

PlanContext::PlanContext(const PlanShapes& shapes, const Mesh& mesh, const DimSizes& sizes,
                         double bytes_per_element, double peak_flops, LinkModel link,
                         const std::vector<bool>& wraps, bool explain)
    : shapes_(shapes),
      mesh_(mesh),
      named_sizes_(sizes),
      bytes_per_element_(bytes_per_element),
      peak_flops_(peak_flops),
      link_(link),
      wraps_(wraps),
      explain_(explain),
      costs_(shapes.kinds) {
  for (std::size_t i = 0; i < shapes.dims.size() && i < sizes_.size(); ++i) {
    sizes_[i] = sizes.at(shapes.dims[i]);
  }
}

double PlanContext::local_bytes(const ShardedArray& array) const {
  double n = bytes_per_element_;
  for (const ShardedDim& d : array.dims) {
    n *= static_cast<double>(named_sizes_.at(d.name)) /
         static_cast<double>(axes_size(d.axes, mesh_));
  }
  return n;
}

double PlanContext::local_bytes(const LocalForm& form) const {
  double n = bytes_per_element_;
  for (const auto& [dim, axes] : form.dims) {
    n *= static_cast<double>(sizes_[dim]) / static_cast<double>(axes_size(axes, mesh_));
  }
  return n;
}

bool PlanContext::divisible(const LocalForm& form) const {
  for (const auto& [dim, axes] : form.dims) {
    if (sizes_[dim] % axes_size(axes, mesh_) != 0) return false;
  }
  return true;
}

double PlanContext::peak(const std::vector<LocalForm>& forms) const {
  double most = 0;
  for (const LocalForm& form : forms) most = std::max(most, local_bytes(form));
  return most;
}

double PlanContext::bytes(const ShapeCollective& c) const { return local_bytes(c.measured_form); }

const CollectiveCost& PlanContext::cost(const ShapeCollective& c) {
  std::optional<CollectiveCost>& memo = costs_[c.kind];
  if (memo) return *memo;
  std::vector<Axis> list;
  for (char axis : c.axes) {
    for (std::size_t k = 0; k < mesh_.axes.size(); ++k) {
      if (mesh_.axes[k].name == axis) {
        list.push_back(mesh_.axes[k]);
        list.back().wraps = wraps_[k];
      }
    }
  }
  memo = collective_cost(c.op, bytes(c), list, link_, explain_);
  return *memo;
}

std::optional<PlanPrice> PlanContext::price(std::size_t index) {
  const PlanShape& s = shapes_.shapes[index];
  for (const LocalForm& form : s.must_divide) {
    if (!divisible(form)) return std::nullopt;
  }
  PlanPrice p;
  p.shape = index;
  double flops = 2;
  for (const auto& [dim, axes] : s.a_form.dims) {
    flops *= static_cast<double>(sizes_[dim] / axes_size(axes, mesh_));
  }
  for (const auto& [dim, axes] : s.b_form.dims) {
    bool shared = false;
    for (const auto& a : s.a_form.dims) shared = shared || a.first == dim;
    if (!shared) flops *= static_cast<double>(sizes_[dim] / axes_size(axes, mesh_));
  }
  p.flops = flops;
  p.t_compute = flops / peak_flops_;
  for (const ShapeCollective& c : s.collectives) {
    p.t_comm += cost(c).time;
    if (c.op == CollectiveOp::all_gather) p.gathered += bytes(c);
  }
  p.t_total = std::max(p.t_compute, p.t_comm);
  p.t_serial = p.t_compute + p.t_comm;
  p.memory_a = peak(s.a_forms);
  p.memory_b = peak(s.b_forms);
  p.memory_c = peak(s.c_forms);
  p.memory = p.memory_a + p.memory_b + p.memory_c;
  p.key_total = rounded(p.t_total);
  p.key_gathered = rounded(p.gathered);
  p.key_comm = rounded(p.t_comm);
  p.key_compute = rounded(p.t_compute);
  return p;
}

bool PlanContext::cheaper(const PlanPrice& x, const PlanPrice& y) const {
  const PlanShape& a = shapes_.shapes[x.shape];
  const PlanShape& b = shapes_.shapes[y.shape];
  return std::forward_as_tuple(x.key_total, a.collectives.size(), x.key_gathered, x.key_comm,
                               x.key_compute, a.text) <
         std::forward_as_tuple(y.key_total, b.collectives.size(), y.key_gathered, y.key_comm,
                               y.key_compute, b.text);
}

std::vector<PlanPrice> ranked_plans(PlanContext& ctx, std::size_t count) {
  std::vector<PlanPrice> plans;
  plans.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (std::optional<PlanPrice> p = ctx.price(i)) plans.push_back(*p);
  }
  std::sort(plans.begin(), plans.end(),
            [&ctx](const PlanPrice& x, const PlanPrice& y) { return ctx.cheaper(x, y); });
  return plans;
}

}  // namespace scalebook
