#include "scalebook/sharding/sharded_matmul.h"

#include <algorithm>
#include <string>
#include <vector>

#include "matmul_plan.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/hardware/slice.h"
#include "sharding_inputs.h"

namespace scalebook {
namespace {

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

std::string free_axes(const ShardedArray& a, const std::string& contracting) {
  std::string out;
  for (const ShardedDim& d : a.dims) {
    if (d.name != contracting) out += d.axes;
  }
  return out;
}

struct Case {
  std::string number;
  std::string description;
};

// The book's four cases, read off the inputs as given.
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

// LaTeX for text written in the book's plain notation: subscripts, braces, arrows.
std::string notation_latex(const std::string& text) {
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

struct Wraps {
  std::vector<bool> wraps;
  std::string latex;
};

Wraps decide_wraps(const Chip& chip, const Mesh& mesh, const std::string& mode) {
  Wraps w;
  if (mode != "auto") {
    w.wraps.assign(mesh.axes.size(), mode == "yes");
    w.latex = mode == "yes" ? "\\text{given: every axis wraps around}"
                            : "\\text{given: no axis wraps around}";
    return w;
  }
  w.wraps.assign(mesh.axes.size(), false);
  const std::string shape = [&] {
    std::string s;
    for (const MeshAxis& a : mesh.axes) s += (s.empty() ? "" : "x") + std::to_string(a.size);
    return s;
  }();
  // Compared as doubles: torus_dims may be any overridden number.
  if (static_cast<double>(mesh.axes.size()) != chip.torus_dims) {
    w.latex = "\\text{auto: the mesh has " + std::to_string(mesh.axes.size()) + " axes but the " +
              chip.name + " torus has " + format_number(chip.torus_dims) +
              ", so assume no wraparound (a line along each axis)}";
    return w;
  }
  std::vector<std::int64_t> sizes;
  for (const MeshAxis& a : mesh.axes) sizes.push_back(a.size);
  Result<std::vector<Wrap>> rule = slice_wraps(chip, sizes);
  if (!rule.ok()) {
    w.latex = "\\text{auto: " + shape + " is no slice of the " + chip.name + " pod (" +
              chip.pod_topology + "), so assume no wraparound}";
    return w;
  }
  bool unknown = false;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    w.wraps[k] = rule.value()[k] == Wrap::yes;
    unknown = unknown || rule.value()[k] == Wrap::unknown;
  }
  if (unknown) {
    w.latex =
        "\\text{auto: the catalog states no wraparound rule for " + chip.name + ", so assume none}";
    return w;
  }
  w.latex = "\\text{auto: a " + shape + " slice of " + chip.name + " (pod " + chip.pod_topology +
            ") by the slice rule}";
  return w;
}

std::string wrapped_axes(const Mesh& mesh, const std::vector<bool>& wraps) {
  std::string axes;
  for (std::size_t k = 0; k < mesh.axes.size(); ++k) {
    if (wraps[k]) axes += mesh.axes[k].name;
  }
  return axes;
}

std::string hbm_text(double bytes) { return format_value(bytes, "B", "si"); }

Error too_big(const std::string& what, double bytes, const Chip& chip) {
  return Error{ErrorCode::out_of_range, "spec",
               what + " needs " + hbm_text(bytes) + " per device but " + chip.name + " has " +
                   hbm_text(chip.hbm_capacity) + " of HBM"};
}

std::string summary(const MatmulPlan& p) {
  std::string out;
  for (const PlanCollective& c : p.collectives) {
    const std::string array = c.before.substr(0, c.before.find('['));
    out += (out.empty() ? "" : "; ") + std::string(book_name(c.op)) + "_" + c.axes + " " + array;
  }
  return out.empty() ? "none" : out;
}

void add_array_steps(Calculation& out, const std::string& key, const ShardedArray& array,
                     const DimSizes& sizes, const Mesh& mesh, double b, const std::string& when) {
  const std::vector<std::int64_t> local = local_shape(array, sizes, mesh);
  const double n = elements(local);
  out.steps.push_back({array_text(array) + " on each device" + when,
                       local_shape_latex(array, sizes, mesh),
                       n,
                       "",
                       "local_" + key,
                       {}});
  std::string product;
  for (std::int64_t s : local) {
    product += (product.empty() ? "" : " \\times ") + latex_number(static_cast<double>(s));
  }
  out.steps.push_back(
      {"Bytes of " + array.name + " per device",
       product + " \\times " + latex_quantity(b, "B") + " = " + latex_quantity(n * b, "B"),
       n * b,
       "B",
       "bytes_" + key,
       {"local_" + key}});
}

void add_comm_steps(Calculation& out, const MatmulPlan& plan, const DimSizes& sizes,
                    const Mesh& mesh, double b) {
  std::string terms;
  for (const PlanCollective& c : plan.collectives) {
    const std::string name =
        std::string(book_name(c.op)) + "_" + c.axes + " " + c.before + " -> " + c.after;
    std::string product;
    for (std::int64_t s : local_shape(c.measured, sizes, mesh)) {
      product += (product.empty() ? "" : " \\times ") + latex_number(static_cast<double>(s));
    }
    out.steps.push_back({name + ": V, the bytes of " + array_text(c.measured) + " on one device",
                         "V = " + product + " \\times " + latex_quantity(b, "B") + " = " +
                             latex_quantity(c.bytes, "B"),
                         c.bytes,
                         "B",
                         "t_comm",
                         {}});
    for (Step s : c.cost->steps) {
      s.label = name + ": " + s.label;
      s.output = "t_comm";
      s.depends.clear();
      out.steps.push_back(std::move(s));
    }
    terms += (terms.empty() ? "" : " + ") + latex_quantity(c.cost->time, "s");
  }
  out.steps.push_back({plan.collectives.empty() ? "No collectives: no communication"
                                                : "Communication time: the collectives in turn",
                       "T_\\text{comm} = " + (terms.empty() ? "0" : terms) + " = " +
                           latex_quantity(plan.t_comm, "s"),
                       plan.t_comm,
                       "s",
                       "t_comm",
                       {}});
}

void add_time_steps(Calculation& out, const MatmulPlan& plan, const DimSizes& sizes,
                    const Mesh& mesh, double peak) {
  std::string factors;
  std::vector<const ShardedDim*> dims;
  for (const ShardedDim& d : plan.a.dims) dims.push_back(&d);
  for (const ShardedDim& d : plan.b.dims) {
    if (!find_dim(plan.a, d.name)) dims.push_back(&d);
  }
  for (const ShardedDim* d : dims) {
    const auto local = static_cast<double>(sizes.at(d->name) / axes_size(d->axes, mesh));
    factors += " \\cdot " + latex_number(local);
  }
  out.steps.push_back(
      {"FLOPs per device: the local matmul " + array_text(plan.a) + " * " + array_text(plan.b),
       "2" + factors + " = " + latex_quantity(plan.flops, "FLOP"),
       plan.flops,
       "FLOP",
       "flops_per_device",
       {}});
  out.steps.push_back(time_step("Compute time at the chip's peak", "math", plan.flops, "FLOP", peak,
                                "FLOP/s", "t_compute", {"flops_per_device"}));
  out.steps.push_back(
      {"Total time: the collectives overlap the compute",
       "T = \\max(T_\\text{math}, T_\\text{comm}) = " + latex_quantity(plan.t_total, "s"),
       plan.t_total,
       "s",
       "t_total",
       {"t_compute", "t_comm"}});
  out.steps.push_back(
      {"Serial time: no overlap",
       "T_\\text{serial} = T_\\text{math} + T_\\text{comm} = " + latex_quantity(plan.t_serial, "s"),
       plan.t_serial,
       "s",
       "t_serial",
       {"t_compute", "t_comm"}});
  const bool hidden = plan.t_comm <= plan.t_compute;
  out.steps.push_back({std::string("Overlap: ") + (hidden ? "yes" : "no") + ", the collectives " +
                           (hidden ? "fit" : "do not fit") + " under the compute (1 yes, 0 no)",
                       latex_quantity(plan.t_comm, "s") + (hidden ? " \\le " : " > ") +
                           latex_quantity(plan.t_compute, "s"),
                       hidden ? 1.0 : 0.0,
                       "",
                       "overlap",
                       {"t_compute", "t_comm"}});
  out.steps.push_back(
      {"Peak memory per device: A, B and C each at their largest",
       latex_quantity(plan.memory_a, "B") + " + " + latex_quantity(plan.memory_b, "B") + " + " +
           latex_quantity(plan.memory_c, "B") + " = " + latex_quantity(plan.memory, "B"),
       plan.memory,
       "B",
       "memory_per_device",
       {}});
}

Table collectives_table(const MatmulPlan& plan) {
  Table t{{"op", "axes", "array", "bytes", "time"}, {}};
  for (const PlanCollective& c : plan.collectives) {
    t.rows.push_back({Value::of(to_string(c.op)), Value::of(axes_list(c.axes)), Value::of(c.before),
                      Value::of(c.bytes), Value::of(c.cost->time)});
  }
  return t;
}

Table alternatives_table(const std::vector<const MatmulPlan*>& plans) {
  Table t{{"plan", "collectives", "t_comm", "t_total"}, {}};
  for (std::size_t i = 1; i < plans.size() && t.rows.size() < kMaxAlternatives; ++i) {
    const MatmulPlan& p = *plans[i];
    t.rows.push_back(
        {Value::of(p.text()), Value::of(summary(p)), Value::of(p.t_comm), Value::of(p.t_total)});
  }
  return t;
}

// The output the planner names when the spec gives none: A's free dimensions, then B's.
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

Result<Calculation> compute_sharded_matmul(const ResolvedInputs& in) {
  const Chip* chip = chip_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  if (chip->torus_dims < 1 || chip->ici_link_bandwidth <= 0) {
    return Error{ErrorCode::unsupported, "chip",
                 chip->id +
                     " has no ICI torus in the catalog; sharded-matmul models TPU meshes "
                     "only, for now"};
  }
  Result<Mesh> parsed_mesh = parse_mesh(in.text("mesh"), "mesh");
  if (!parsed_mesh.ok()) return parsed_mesh.error();
  Result<MatmulSpec> parsed = parse_matmul(in.text("spec"), "spec");
  if (!parsed.ok()) return parsed.error();
  const Mesh& mesh = parsed_mesh.value();
  const MatmulSpec& spec = parsed.value();
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
  Wraps wraps = decide_wraps(*chip, mesh, in.text("wraparound"));
  PlanContext ctx(mesh, sizes, b, hw.value().peak_flops,
                  LinkModel{chip->ici_link_bandwidth, chip->ici_hop_latency, true}, wraps.wraps);
  const double hbm = chip->hbm_capacity;
  if (hbm > 0) {
    for (const ShardedArray* a : arrays) {
      if (ctx.local_bytes(*a) > hbm) return too_big(a->name, ctx.local_bytes(*a), *chip);
    }
  }
  const ShardedArray derived = derived_output(spec);
  std::vector<MatmulPlan> plans = plan_matmul(spec, derived, ctx);
  std::vector<const MatmulPlan*> fitting;
  double smallest = 0;
  for (const MatmulPlan& p : plans) {
    if (hbm <= 0 || p.memory <= hbm) fitting.push_back(&p);
    smallest = smallest == 0 ? p.memory : std::min(smallest, p.memory);
  }
  if (plans.empty()) {
    const ShardedArray& target = spec.c ? *spec.c : derived;
    return Error{ErrorCode::invalid_argument, "spec",
                 "spec has no plan: every way to compute " + array_text(target) +
                     " splits a dimension unevenly"};
  }
  if (fitting.empty()) return too_big("the leanest plan", smallest, *chip);
  const MatmulPlan& plan = *fitting.front();
  const Case c = classify(spec);

  Calculation out;
  out.steps.push_back(devices_step(mesh));
  out.steps.push_back({"Case " + c.number + ": " + c.description,
                       "\\text{case " + c.number + "}",
                       0,
                       "",
                       "case",
                       {}});
  const std::string ring_axes = wrapped_axes(mesh, wraps.wraps);
  out.steps.push_back({"Wraparound: " + (ring_axes.empty() ? std::string("no axis is a ring")
                                                           : axes_list(ring_axes) + " wrap around"),
                       wraps.latex,
                       static_cast<double>(ring_axes.size()),
                       "",
                       "wraparound_axes",
                       {}});
  add_array_steps(out, "a", spec.a, sizes, mesh, b, "");
  add_array_steps(out, "b", spec.b, sizes, mesh, b, "");
  add_array_steps(out, "c", plan.c, sizes, mesh, b, ", as the plan leaves it");
  out.steps.push_back({"The cheapest plan",
                       notation_latex(plan.text()),
                       static_cast<double>(plan.collectives.size()),
                       "",
                       "plan",
                       {"case"}});
  // What the cheaper strategy communicates, as a word a multiple-choice question can offer.
  const std::string first =
      plan.collectives.empty() ? "none" : to_string(plan.collectives.front().op);
  out.steps.push_back({"The plan's first collective: " + first,
                       "\text{" + first + "}",
                       static_cast<double>(plan.collectives.size()),
                       "",
                       "first_collective",
                       {"plan"}});
  add_comm_steps(out, plan, sizes, mesh, b);
  add_time_steps(out, plan, sizes, mesh, hw.value().peak_flops);

  const std::vector<std::int64_t> la = local_shape(spec.a, sizes, mesh);
  const std::vector<std::int64_t> lb = local_shape(spec.b, sizes, mesh);
  const std::vector<std::int64_t> lc = local_shape(plan.c, sizes, mesh);
  out.outputs = {
      {"case", Value::of(c.number)},
      {"case_description", Value::of(c.description)},
      {"plan", Value::of(plan.text())},
      {"first_collective", Value::of(first)},
      {"output_sharding", Value::of(array_text(plan.c))},
      {"local_a", Value::of(shape_text(la))},
      {"local_b", Value::of(shape_text(lb))},
      {"local_c", Value::of(shape_text(lc))},
      {"bytes_a", Value::of(elements(la) * b)},
      {"bytes_b", Value::of(elements(lb) * b)},
      {"bytes_c", Value::of(elements(lc) * b)},
      {"memory_per_device", Value::of(plan.memory)},
      {"flops_per_device", Value::of(plan.flops)},
      {"t_compute", Value::of(plan.t_compute)},
      {"t_comm", Value::of(plan.t_comm)},
      {"t_total", Value::of(plan.t_total)},
      {"t_serial", Value::of(plan.t_serial)},
      {"overlap", Value::of(plan.t_comm <= plan.t_compute ? "yes" : "no")},
      {"devices", Value::of(devices)},
      {"wraparound_axes", Value::of(axes_list(ring_axes))},
      {"partition_spec_a", Value::of(partition_spec(spec.a))},
      {"partition_spec_b", Value::of(partition_spec(spec.b))},
      {"partition_spec_c", Value::of(partition_spec(plan.c))},
  };
  out.tables = {{"collectives", collectives_table(plan)},
                {"alternatives", alternatives_table(fitting)}};
  return out;
}

}  // namespace

Calculator sharded_matmul_calculator() { return {sharded_matmul_schema(), compute_sharded_matmul}; }

}  // namespace scalebook
