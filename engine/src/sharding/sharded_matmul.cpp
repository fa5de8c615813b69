#include "scalebook/sharding/sharded_matmul.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "matmul_case.h"
#include "matmul_plan.h"
#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "sharded_matmul_steps.h"
#include "sharding_inputs.h"

namespace scalebook {
namespace {

using matmul_case::axes_list;
using matmul_case::Case;
using matmul_case::classify;
using matmul_case::decide_wraps;
using matmul_case::derived_output;
using matmul_case::wrapped_axes;
using matmul_case::Wraps;
using sharded_matmul_steps::add_array_steps;
using sharded_matmul_steps::add_comm_steps;
using sharded_matmul_steps::add_time_steps;
using sharded_matmul_steps::notation_latex;

// Sizes for the default spec, so the calculator computes with no sizes given.
const DimSizes& default_sizes() {
  static const DimSizes sizes = {{"I", 4096}, {"J", 8192}, {"K", 16384}};
  return sizes;
}

constexpr std::size_t kMaxAlternatives = 10;

Schema sharded_matmul_schema() {
  Schema s{"sharded-matmul",
           "one matmul of sharded arrays on a TPU mesh: the book's case, the cheapest plan of "
           "collectives, and its communication and compute time",
           {},
           {}};
  InputSpec wrap{"wraparound", InputKind::choice, "",
                 "whether each mesh axis is a ring: auto applies the chip's slice rule when the "
                 "mesh has one axis per torus axis, and assumes lines otherwise",
                 Value::of("auto")};
  wrap.choices = {"auto", "yes", "no"};
  wrap = labelled(wrap, "Wraparound", InputGroup::advanced,
                  {"Chip's slice rule", "Every axis a ring", "Every axis a line"});
  s.inputs = {
      labelled({"spec", InputKind::text, "",
                "the matmul in the book's notation, A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]; "
                "without -> C[...] the planner picks the output's sharding",
                Value::of("A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]")},
               "Sharded matmul"),
      labelled({"mesh", InputKind::text, "",
                "mesh axes and their sizes: X=4, Y=4 or {X: 4, Y: 4}, or a slice shape 4x4 (axes "
                "X, Y)",
                Value::of("X=4, Y=4")},
               "Mesh"),
      dtype_input("dtype", "Dtype", "number format of A, B and C", Value::of("bf16")),
      chip_input(),
      wrap,
      chip_override_inputs(false)[0],
  };
  s.outputs = {
      {"case", "", "the book's case: 1, 2, 3, 4, or a combination like 2+4", true, "Case"},
      {"case_description", "", "what the case means for these arrays", true, "Case description"},
      {"plan", "", "the cheapest plan in the book's notation, one operation after another", true,
       "Plan"},
      {"first_collective", "",
       "the plan's first collective: all-gather, reduce-scatter, all-reduce, or none", true,
       "First collective"},
      {"output_sharding", "", "C as the plan leaves it", true, "Output sharding"},
      {"local_a", "", "shape of A on each device, as given", true, "Local A"},
      {"local_b", "", "shape of B on each device, as given", true, "Local B"},
      {"local_c", "", "shape of C on each device, as the plan leaves it", true, "Local C"},
      {"bytes_a", "B", "bytes of A on each device, as given", false, "Bytes of A per device"},
      {"bytes_b", "B", "bytes of B on each device, as given", false, "Bytes of B per device"},
      {"bytes_c", "B", "bytes of C on each device, as the plan leaves it", false,
       "Bytes of C per device"},
      {"memory_per_device", "B", "peak bytes per device: A, B and C each at their largest", false,
       "Memory per device"},
      {"flops_per_device", "FLOP", "FLOPs of the local matmul on each device", false,
       "FLOPs per device"},
      {"t_compute", "s", "time of the local matmul at the chip's peak", false, "Compute time"},
      {"t_comm", "s", "time of the plan's collectives, one after another", false,
       "Communication time"},
      {"t_total", "s", "max(t_compute, t_comm): collectives overlap compute", false, "Total time"},
      {"t_serial", "s", "t_compute + t_comm: no overlap", false, "Serial time"},
      {"overlap", "", "yes when the collectives fit under the compute", true, "Overlap"},
      {"devices", "devices", "devices in the mesh", false, "Devices"},
      {"wraparound_axes", "", "mesh axes with wraparound links (rings), or none", true,
       "Wraparound axes"},
      {"partition_spec_a", "", "JAX PartitionSpec of A as given", true, "PartitionSpec of A"},
      {"partition_spec_b", "", "JAX PartitionSpec of B as given", true, "PartitionSpec of B"},
      {"partition_spec_c", "", "JAX PartitionSpec of C as the plan leaves it", true,
       "PartitionSpec of C"},
  };
  s.tables = {
      {"collectives",
       "the plan's collectives in order; empty when it needs none",
       {{"op", "", "all-gather, reduce-scatter or all-reduce", true, "Collective"},
        {"axes", "", "the mesh axes it runs over", true, "Axes"},
        {"array", "", "the array it acts on", true, "Array"},
        {"bytes", "B", "V: the array unsharded over those axes, per device", false, "Bytes"},
        {"time", "s", "its time on the ICI", false, "Time"}}},
      {"alternatives",
       "the next cheapest valid plans (at most 10), by t_total",
       {{"plan", "", "the plan in the book's notation", true, "Plan"},
        {"collectives", "", "its collectives", true, "Collectives"},
        {"t_comm", "s", "time of its collectives", false, "Communication time"},
        {"t_total", "s", "max(t_compute, t_comm)", false, "Total time"}}},
  };
  s.dimensions =
      "the size of each dimension by name, like I=4096 J=8192 K=16384 (the default spec's I, "
      "J and K default to those)";
  return s;
}

std::string hbm_text(double bytes) { return format_value(bytes, "B", "si"); }

Error too_big(const std::string& what, double bytes, const Chip& chip) {
  return Error{ErrorCode::out_of_range, "spec",
               what + " needs " + hbm_text(bytes) + " per device but " + chip.name + " has " +
                   hbm_text(chip.hbm_capacity) + " of HBM"};
}

std::string summary(const PlanShape& p) {
  std::string out;
  for (const ShapeCollective& c : p.collectives) {
    const std::string array = c.before.substr(0, c.before.find('['));
    out += (out.empty() ? "" : "; ") + std::string(book_name(c.op)) + "_" + c.axes + " " + array;
  }
  return out.empty() ? "none" : out;
}

Table collectives_table(const PlanShape& plan, PlanContext& ctx) {
  Table t{{"op", "axes", "array", "bytes", "time"}, {}};
  for (const ShapeCollective& c : plan.collectives) {
    t.rows.push_back({Value::of(to_string(c.op)), Value::of(axes_list(c.axes)), Value::of(c.before),
                      Value::of(ctx.bytes(c)), Value::of(ctx.cost(c).time)});
  }
  return t;
}

Table alternatives_table(const std::vector<PlanPrice>& plans, const PlanShapes& shapes) {
  Table t{{"plan", "collectives", "t_comm", "t_total"}, {}};
  for (std::size_t i = 1; i < plans.size() && t.rows.size() < kMaxAlternatives; ++i) {
    const PlanShape& s = shapes.shapes[plans[i].shape];
    t.rows.push_back({Value::of(s.text), Value::of(summary(s)), Value::of(plans[i].t_comm),
                      Value::of(plans[i].t_total)});
  }
  return t;
}

// The spec without the parse's character positions, which only place errors: the planner
// copies its arrays many times, and a copy without them allocates less.
MatmulSpec without_positions(const MatmulSpec& m) {
  auto bare = [](const ShardedArray& a) {
    ShardedArray out;
    out.name = a.name;
    out.unreduced = a.unreduced;
    for (const ShardedDim& d : a.dims) out.dims.push_back({d.name, d.axes, -1, {}});
    return out;
  };
  MatmulSpec out{bare(m.a), bare(m.b), std::nullopt, m.contracting};
  if (m.c) out.c = bare(*m.c);
  return out;
}

// What the spec's text alone decides, kept by a prepared calculation across evaluations.
struct SpecFacts {
  MatmulSpec spec;
  MatmulSpec planned;  // spec without_positions, for the planner
  Case c;
  ShardedArray derived;  // the output the planner names when the spec requests none
  std::string partition_a, partition_b;
  PlanShapes shapes;  // every plan's shape, to price for each evaluation's sizes
};

Result<SpecFacts> read_spec(const std::string& text) {
  Result<MatmulSpec> parsed = parse_matmul(text, "spec");
  if (!parsed.ok()) return parsed.error();
  SpecFacts f{std::move(parsed.value()), {}, {}, {}, {}, {}, {}};
  f.planned = without_positions(f.spec);
  f.c = classify(f.spec);
  f.derived = derived_output(f.spec);
  f.partition_a = partition_spec(f.spec.a);
  f.partition_b = partition_spec(f.spec.b);
  f.shapes = plan_shapes(f.planned, f.derived);
  return f;
}

SB_EXPLAIN_ONLY void add_steps(ResultBuilder& out, const SpecFacts& f, const PlanPrice& plan,
                               PlanContext& ctx, const Mesh& mesh, const DimSizes& sizes, double b,
                               const Wraps& wraps, const std::string& ring_axes,
                               const std::string& first, double peak_flops) {
  const PlanShape& shape = f.shapes.shapes[plan.shape];
  out.step(devices_step(mesh));
  out.step({"Case " + f.c.number + ": " + f.c.description,
            "\\text{case " + f.c.number + "}",
            0,
            "",
            "case",
            {}});
  out.step({"Wraparound: " + (ring_axes.empty() ? std::string("no axis is a ring")
                                                : axes_list(ring_axes) + " wrap around"),
            wraps.latex,
            static_cast<double>(ring_axes.size()),
            "",
            "wraparound_axes",
            {}});
  add_array_steps(out, "a", f.spec.a, sizes, mesh, b, "");
  add_array_steps(out, "b", f.spec.b, sizes, mesh, b, "");
  add_array_steps(out, "c", shape.c, sizes, mesh, b, ", as the plan leaves it");
  out.step({"The cheapest plan",
            notation_latex(shape.text),
            static_cast<double>(shape.collectives.size()),
            "",
            "plan",
            {"case"}});
  out.step({"The plan's first collective: " + first,
            "\\text{" + first + "}",
            static_cast<double>(shape.collectives.size()),
            "",
            "first_collective",
            {"plan"}});
  add_comm_steps(out, shape, plan, ctx, sizes, mesh, b);
  add_time_steps(out, shape, plan, sizes, mesh, peak_flops);
}

std::optional<Error> compute_sharded_matmul(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip* chip = chip_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  if (chip->torus_dims < 1 || chip->ici_link_bandwidth <= 0) {
    return Error{ErrorCode::unsupported, "chip",
                 chip->id +
                     " has no ICI torus in the catalog; sharded-matmul models TPU meshes "
                     "only, for now"};
  }
  Result<const Mesh*> parsed_mesh =
      in.parsed<Mesh>("mesh", [](const std::string& text) { return parse_mesh(text, "mesh"); });
  if (!parsed_mesh.ok()) return parsed_mesh.error();
  Result<const SpecFacts*> parsed = in.parsed<SpecFacts>("spec", read_spec);
  if (!parsed.ok()) return parsed.error();
  const Mesh& mesh = *parsed_mesh.value();
  const SpecFacts& facts = *parsed.value();
  const MatmulSpec& spec = facts.spec;
  std::vector<const ShardedArray*> arrays = {&spec.a, &spec.b};
  if (spec.c) arrays.push_back(&*spec.c);
  for (const ShardedArray* a : arrays) {
    if (auto bad = check_axes(*a, mesh, "spec")) return *bad;
  }
  const auto devices = static_cast<double>(mesh.devices());
  if (chip->pod_chips > 0 && devices > chip->pod_chips) {
    return Error{ErrorCode::out_of_range, "mesh",
                 "mesh " + mesh_text(mesh) + " has " + format_number(devices) +
                     " devices, more than the " + format_number(chip->pod_chips) + " chips of a " +
                     chip->name + " pod"};
  }
  Result<DimSizes> found = dimension_sizes(arrays, in, default_sizes());
  if (!found.ok()) return found.error();
  const DimSizes& sizes = found.value();
  for (const ShardedArray* a : arrays) {
    if (auto bad = check_divisible(*a, sizes, mesh)) return *bad;
  }
  const Dtype dtype = *parse_dtype(in.text("dtype"));
  Result<ChipNumbers> hw = resolve_chip(in, dtype);
  if (!hw.ok()) return hw.error();
  const double b = bytes_per_element(dtype);
  // The chip, the mesh and the mode are text inputs, fixed for the life of `in`: decided once.
  Result<const Wraps*> decided = in.parsed<Wraps>("wraparound", [&](const std::string& mode) {
    return Result<Wraps>(decide_wraps(*chip, mesh, mode, true));
  });
  const Wraps& wraps = *decided.value();
  PlanContext ctx(facts.shapes, mesh, sizes, b, hw.value().peak_flops,
                  LinkModel{chip->ici_link_bandwidth, chip->ici_hop_latency, true}, wraps.wraps,
                  out.explain());
  const double hbm = chip->hbm_capacity;
  if (hbm > 0) {
    for (const ShardedArray* a : arrays) {
      if (ctx.local_bytes(*a) > hbm) return too_big(a->name, ctx.local_bytes(*a), *chip);
    }
  }
  // The cheapest plan that fits; a table of alternatives needs them all in order.
  std::vector<PlanPrice> fitting;
  std::optional<PlanPrice> best;
  double smallest = 0;
  for (std::size_t i = 0; i < facts.shapes.shapes.size(); ++i) {
    const std::optional<PlanPrice> p = ctx.price(i);
    if (!p) continue;
    smallest = smallest == 0 ? p->memory : std::min(smallest, p->memory);
    if (hbm > 0 && p->memory > hbm) continue;
    if (out.tables()) {
      fitting.push_back(*p);
    } else if (!best || ctx.cheaper(*p, *best)) {
      best = p;
    }
  }
  if (out.tables()) {
    std::sort(fitting.begin(), fitting.end(),
              [&ctx](const PlanPrice& x, const PlanPrice& y) { return ctx.cheaper(x, y); });
    if (!fitting.empty()) best = fitting.front();
  }
  if (smallest == 0) {
    const ShardedArray& target = spec.c ? *spec.c : facts.derived;
    return Error{ErrorCode::invalid_argument, "spec",
                 "spec has no plan: every way to compute " + array_text(target) +
                     " splits a dimension unevenly"};
  }
  if (!best) return too_big("the leanest plan", smallest, *chip);
  const PlanPrice& plan = *best;
  const PlanShape& shape = facts.shapes.shapes[plan.shape];
  const std::string ring_axes = wrapped_axes(mesh, wraps.wraps);
  // What the cheaper strategy communicates, as a word a multiple-choice question can offer.
  const char* first = shape.collectives.empty() ? "none" : to_string(shape.collectives.front().op);
  if (out.explain()) {
    add_steps(out, facts, plan, ctx, mesh, sizes, b, wraps, ring_axes, first,
              hw.value().peak_flops);
  }

  const LocalShape la(spec.a, sizes, mesh), lb(spec.b, sizes, mesh), lc(shape.c, sizes, mesh);
  out.set_text("case", facts.c.number);
  out.set_text("case_description", facts.c.description);
  out.set_text("plan", shape.text);
  out.set_text("first_collective", first);
  out.set_text("output_sharding", shape.c_text);
  out.set_text("local_a", la.text());
  out.set_text("local_b", lb.text());
  out.set_text("local_c", lc.text());
  out.set("bytes_a", la.elements() * b);
  out.set("bytes_b", lb.elements() * b);
  out.set("bytes_c", lc.elements() * b);
  out.set("memory_per_device", plan.memory);
  out.set("flops_per_device", plan.flops);
  out.set("t_compute", plan.t_compute);
  out.set("t_comm", plan.t_comm);
  out.set("t_total", plan.t_total);
  out.set("t_serial", plan.t_serial);
  out.set_text("overlap", plan.t_comm <= plan.t_compute ? "yes" : "no");
  out.set("devices", devices);
  out.set_text("wraparound_axes", axes_list(ring_axes));
  out.set_text("partition_spec_a", facts.partition_a);
  out.set_text("partition_spec_b", facts.partition_b);
  out.set_text("partition_spec_c", shape.c_partition);
  if (out.tables()) {
    out.table("collectives", collectives_table(shape, ctx));
    out.table("alternatives", alternatives_table(fitting, facts.shapes));
  }
  return std::nullopt;
}

}  // namespace

Calculator sharded_matmul_calculator() { return {sharded_matmul_schema(), compute_sharded_matmul}; }

}  // namespace scalebook
