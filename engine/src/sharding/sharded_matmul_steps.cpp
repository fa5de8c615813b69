#include "sharded_matmul_steps.h"

#include <cstdint>
#include <string>
#include <vector>

#include "matmul_case.h"
#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook::sharded_matmul_steps {

using matmul_case::find_dim;

SB_EXPLAIN_ONLY std::string notation_latex(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_' && i + 1 < text.size() && text[i + 1] >= 'A' && text[i + 1] <= 'Z') {
      std::size_t end = i + 1;
      while (end < text.size() && text[end] >= 'A' && text[end] <= 'Z') ++end;
      out += "_{" + text.substr(i + 1, end - i - 1) + "}";
      i = end - 1;
    } else if (c == '_') {
      out += "\\_";
    } else if (c == '{' || c == '}') {
      out += std::string("\\") + c;
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '>') {
      out += " \\to ";
      ++i;
    } else if (c == '*') {
      out += " \\cdot ";
    } else if (c == ';') {
      out += ";\\quad ";
    } else {
      out += c;
    }
  }
  for (const char* op : {"AllGather", "ReduceScatter", "AllReduce", "Slice"}) {
    const std::string name(op);
    for (std::size_t at = out.find(name); at != std::string::npos;
         at = out.find(name, at + name.size() + 9)) {
      out.replace(at, name.size(), "\\textbf{" + name + "}");
    }
  }
  return out;
}

SB_EXPLAIN_ONLY void add_array_steps(ResultBuilder& out, const std::string& key,
                                     const ShardedArray& array, const DimSizes& sizes,
                                     const Mesh& mesh, double b, const std::string& when) {
  const std::vector<std::int64_t> local = local_shape(array, sizes, mesh);
  const double n = elements(local);
  out.step({array_text(array) + " on each device" + when,
            local_shape_latex(array, sizes, mesh),
            n,
            "",
            "local_" + key,
            {}});
  std::string product;
  for (std::int64_t s : local) {
    product += (product.empty() ? "" : " \\times ") + latex_number(static_cast<double>(s));
  }
  out.step({"Bytes of " + array.name + " per device",
            product + " \\times " + latex_quantity(b, "B") + " = " + latex_quantity(n * b, "B"),
            n * b,
            "B",
            "bytes_" + key,
            {"local_" + key}});
}

SB_EXPLAIN_ONLY void add_comm_steps(ResultBuilder& out, const PlanShape& shape,
                                    const PlanPrice& plan, PlanContext& ctx, const DimSizes& sizes,
                                    const Mesh& mesh, double b) {
  std::string terms;
  for (const ShapeCollective& c : shape.collectives) {
    const double bytes = ctx.bytes(c);
    const CollectiveCost& cost = ctx.cost(c);
    const std::string name =
        std::string(book_name(c.op)) + "_" + c.axes + " " + c.before + " -> " + c.after;
    std::string product;
    for (std::int64_t s : local_shape(c.measured, sizes, mesh)) {
      product += (product.empty() ? "" : " \\times ") + latex_number(static_cast<double>(s));
    }
    out.step({name + ": V, the bytes of " + array_text(c.measured) + " on one device",
              "V = " + product + " \\times " + latex_quantity(b, "B") + " = " +
                  latex_quantity(bytes, "B"),
              bytes,
              "B",
              "t_comm",
              {}});
    for (Step s : cost.steps) {
      s.label = name + ": " + s.label;
      s.output = "t_comm";
      s.depends.clear();
      out.step(std::move(s));
    }
    terms += (terms.empty() ? "" : " + ") + latex_quantity(cost.time, "s");
  }
  out.step({shape.collectives.empty() ? "No collectives: no communication"
                                      : "Communication time: the collectives in turn",
            "T_\\text{comm} = " + (terms.empty() ? "0" : terms) + " = " +
                latex_quantity(plan.t_comm, "s"),
            plan.t_comm,
            "s",
            "t_comm",
            {}});
}

SB_EXPLAIN_ONLY void add_time_steps(ResultBuilder& out, const PlanShape& shape,
                                    const PlanPrice& plan, const DimSizes& sizes, const Mesh& mesh,
                                    double peak) {
  std::string factors;
  std::vector<const ShardedDim*> dims;
  for (const ShardedDim& d : shape.a.dims) dims.push_back(&d);
  for (const ShardedDim& d : shape.b.dims) {
    if (!find_dim(shape.a, d.name)) dims.push_back(&d);
  }
  for (const ShardedDim* d : dims) {
    const auto local = static_cast<double>(sizes.at(d->name) / axes_size(d->axes, mesh));
    factors += " \\cdot " + latex_number(local);
  }
  out.step(
      {"FLOPs per device: the local matmul " + array_text(shape.a) + " * " + array_text(shape.b),
       "2" + factors + " = " + latex_quantity(plan.flops, "FLOP"),
       plan.flops,
       "FLOP",
       "flops_per_device",
       {}});
  out.step(time_step("Compute time at the chip's peak", "math", plan.flops, "FLOP", peak, "FLOP/s",
                     "t_compute", {"flops_per_device"}));
  out.step({"Total time: the collectives overlap the compute",
            "T = \\max(T_\\text{math}, T_\\text{comm}) = " + latex_quantity(plan.t_total, "s"),
            plan.t_total,
            "s",
            "t_total",
            {"t_compute", "t_comm"}});
  out.step(
      {"Serial time: no overlap",
       "T_\\text{serial} = T_\\text{math} + T_\\text{comm} = " + latex_quantity(plan.t_serial, "s"),
       plan.t_serial,
       "s",
       "t_serial",
       {"t_compute", "t_comm"}});
  const bool hidden = plan.t_comm <= plan.t_compute;
  out.step({std::string("Overlap: ") + (hidden ? "yes" : "no") + ", the collectives " +
                (hidden ? "fit" : "do not fit") + " under the compute (1 yes, 0 no)",
            latex_quantity(plan.t_comm, "s") + (hidden ? " \\le " : " > ") +
                latex_quantity(plan.t_compute, "s"),
            hidden ? 1.0 : 0.0,
            "",
            "overlap",
            {"t_compute", "t_comm"}});
  out.step({"Peak memory per device: A, B and C each at their largest",
            latex_quantity(plan.memory_a, "B") + " + " + latex_quantity(plan.memory_b, "B") +
                " + " + latex_quantity(plan.memory_c, "B") + " = " +
                latex_quantity(plan.memory, "B"),
            plan.memory,
            "B",
            "memory_per_device",
            {}});
}

}  // namespace scalebook::sharded_matmul_steps
