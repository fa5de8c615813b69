#include "scalebook/sharding/array_memory.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "sharding_inputs.h"

namespace scalebook {
namespace {

// Sizes for the default array, so the calculator computes with no sizes given.
const DimSizes& default_sizes() {
  static const DimSizes sizes = {{"I", 1024}, {"J", 4096}};
  return sizes;
}

Schema array_memory_schema() {
  Schema s{"array-memory",
           "one sharded array on a device mesh: its local shape, bytes per device and in "
           "total, copies, and its JAX PartitionSpec",
           {},
           {}};
  InputSpec chip = chip_input();
  chip.description = "accelerator from the hardware catalog, for the HBM load time and the fit";
  s.inputs = {
      labelled({"array", InputKind::text, "",
                "the array in the book's notation, like A[I_XY, J]: each dimension's subscript "
                "lists the mesh axes it is split over, major first",
                Value::of("A[I_XY, J]")},
               "Sharded array"),
      labelled({"mesh", InputKind::text, "",
                "mesh axes and their sizes: X=8, Y=2 or {X: 8, Y: 2}, or a slice shape 4x4x4 "
                "(axes X, Y, Z)",
                Value::of("X=8, Y=2")},
               "Mesh"),
      dtype_input("dtype", "Dtype", "number format of the array's elements", Value::of("bf16")),
      chip,
  };
  s.outputs = {
      {"devices", "devices", "devices in the mesh", false, "Devices"},
      {"local_shape", "", "the shape each device holds, like 64x4096", true, "Local shape"},
      {"elements_per_device", "", "elements each device holds", false, "Elements per device"},
      {"bytes_per_device", "B", "bytes each device holds", false, "Bytes per device"},
      {"bytes_array", "B", "bytes of one whole copy of the array", false, "Array bytes"},
      {"bytes_total", "B", "bytes over all devices, every copy counted", false, "Total bytes"},
      {"replication", "x",
       "copies of the array the mesh keeps: the sizes of the axes it is not split over "
       "multiplied (partial sums of an unreduced array count as copies)",
       false, "Replication"},
      {"sharded_over", "", "the mesh axes the array is split over, or none", true, "Sharded over"},
      {"partition_spec", "", "JAX's PartitionSpec for it, like P(('X', 'Y'), None)", true,
       "PartitionSpec"},
      {"hbm_load_time", "s", "time to read one device's bytes from HBM", false, "HBM load time"},
      {"fits", "", "yes when one device's bytes fit in the chip's HBM", true, "Fits in HBM"},
  };
  s.dimensions =
      "the size of each dimension of the array by name, like I=1024 J=4096 (the default "
      "array's I and J default to 1024 and 4096)";
  return s;
}

std::string axes_list(const std::string& axes) {
  std::string out;
  for (char a : axes) out += (out.empty() ? "" : ", ") + std::string(1, a);
  return out.empty() ? "none" : out;
}

// What the array's text alone decides, kept by a prepared calculation across evaluations.
struct ArrayFacts {
  ShardedArray array;
  std::string used;  // the mesh axes it is split over, in subscript order
  std::string partition_spec;
};

Result<ArrayFacts> read_array(const std::string& text) {
  Result<ShardedArray> parsed = parse_array(text, "array");
  if (!parsed.ok()) return parsed.error();
  ArrayFacts f{std::move(parsed.value()), {}, {}};
  for (const ShardedDim& d : f.array.dims) f.used += d.axes;
  f.partition_spec = partition_spec(f.array);
  return f;
}

// The numbers both paths compute; the steps only show them.
struct Memory {
  std::vector<std::int64_t> local, global;  // shapes: on one device, and the whole array
  double devices = 0, shards = 0, local_elements = 0, global_elements = 0;
  double bytes_per_device = 0, bytes_array = 0, replication = 0, bytes_total = 0;
};

SB_EXPLAIN_ONLY std::string product_latex(const std::vector<std::int64_t>& shape) {
  std::string text;
  for (std::int64_t s : shape) {
    text += (text.empty() ? "" : " \\times ") + latex_number(static_cast<double>(s));
  }
  return text;
}

SB_EXPLAIN_ONLY void add_steps(ResultBuilder& out, const ArrayFacts& f, const Mesh& mesh,
                               const DimSizes& sizes, Dtype dtype, double b, const Memory& m,
                               const Chip& chip) {
  std::string used_latex, used_sizes;
  for (char axis : f.used) {
    used_latex += (used_latex.empty() ? "" : " \\cdot ") + ("|" + std::string(1, axis) + "|");
    used_sizes += (used_sizes.empty() ? "" : " \\cdot ") + std::to_string(mesh.find(axis)->size);
  }
  const std::string dtype_note =
      std::string(to_string(dtype)) + ", " + format_number(b) + " B each";
  out.step(devices_step(mesh));
  out.step({f.used.empty() ? "Split over no axis: every device holds the whole array"
                           : "Split over " + axes_list(f.used) + ": the array is cut into " +
                                 format_number(m.shards) + " pieces",
            f.used.empty()
                ? "S = 1"
                : "S = " + used_latex + " = " + used_sizes + " = " + latex_number(m.shards),
            m.shards,
            "",
            "sharded_over",
            {}});
  out.step({"Local shape: each dimension over the sizes of its axes",
            local_shape_latex(f.array, sizes, mesh),
            m.local_elements,
            "",
            "local_shape",
            {"sharded_over"}});
  out.step({"Elements per device",
            product_latex(m.local) + " = " + latex_number(m.local_elements),
            m.local_elements,
            "",
            "elements_per_device",
            {"local_shape"}});
  out.step({"Bytes per device (" + dtype_note + ")",
            latex_number(m.local_elements) + " \\times " + latex_quantity(b, "B") + " = " +
                latex_quantity(m.bytes_per_device, "B"),
            m.bytes_per_device,
            "B",
            "bytes_per_device",
            {"elements_per_device"}});
  out.step({"One copy of the array (" + dtype_note + ")",
            product_latex(m.global) + " \\times " + latex_quantity(b, "B") + " = " +
                latex_quantity(m.bytes_array, "B"),
            m.bytes_array,
            "B",
            "bytes_array",
            {}});
  out.step({"Copies: devices over pieces (the axes the array does not split over)",
            "R = \\frac{N}{S} = \\frac{" + latex_number(m.devices) + "}{" + latex_number(m.shards) +
                "} = " + latex_number(m.replication),
            m.replication,
            "x",
            "replication",
            {"devices", "sharded_over"}});
  out.step({"Bytes on all devices",
            latex_quantity(m.bytes_per_device, "B") + " \\times " + latex_number(m.devices) +
                " = " + latex_quantity(m.bytes_array, "B") + " \\times " +
                latex_number(m.replication) + " = " + latex_quantity(m.bytes_total, "B"),
            m.bytes_total,
            "B",
            "bytes_total",
            {"bytes_per_device", "bytes_array", "replication"}});
  out.step({"JAX PartitionSpec: one entry per dimension, its mesh axes or None",
            "\\texttt{" + f.partition_spec + "}",
            m.shards,
            "",
            "partition_spec",
            {"sharded_over"}});
  if (chip.hbm_bandwidth > 0) {
    out.step(time_step("HBM load time on " + chip.name, "load", m.bytes_per_device, "B",
                       chip.hbm_bandwidth, "B/s", "hbm_load_time", {"bytes_per_device"}));
  }
  if (chip.hbm_capacity > 0) {
    const bool ok = m.bytes_per_device <= chip.hbm_capacity;
    out.step({std::string("Fits in the HBM of ") + chip.name + ": " + (ok ? "yes" : "no") +
                  " (1 yes, 0 no)",
              latex_quantity(m.bytes_per_device, "B") + (ok ? " \\le " : " > ") +
                  latex_quantity(chip.hbm_capacity, "B"),
              ok ? 1.0 : 0.0,
              "",
              "fits",
              {"bytes_per_device"}});
  }
}

std::optional<Error> compute_array_memory(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip* chip = chip_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  Result<const Mesh*> parsed_mesh =
      in.parsed<Mesh>("mesh", [](const std::string& text) { return parse_mesh(text, "mesh"); });
  if (!parsed_mesh.ok()) return parsed_mesh.error();
  Result<const ArrayFacts*> parsed = in.parsed<ArrayFacts>("array", read_array);
  if (!parsed.ok()) return parsed.error();
  const Mesh& mesh = *parsed_mesh.value();
  const ArrayFacts& facts = *parsed.value();
  const ShardedArray& array = facts.array;
  if (auto bad = check_axes(array, mesh, "array")) return *bad;
  Result<DimSizes> found = dimension_sizes({&array}, in, default_sizes());
  if (!found.ok()) return found.error();
  const DimSizes& sizes = found.value();
  if (auto bad = check_divisible(array, sizes, mesh)) return *bad;

  const Dtype dtype = *parse_dtype(in.text("dtype"));
  const double b = bytes_per_element(dtype);
  Memory m;
  m.devices = static_cast<double>(mesh.devices());
  m.shards = static_cast<double>(axes_size(facts.used, mesh));
  m.local = local_shape(array, sizes, mesh);
  m.local_elements = elements(m.local);
  for (const ShardedDim& d : array.dims) m.global.push_back(sizes.at(d.name));
  m.global_elements = elements(m.global);
  m.bytes_per_device = m.local_elements * b;
  m.bytes_array = m.global_elements * b;
  m.replication = m.devices / m.shards;
  m.bytes_total = m.bytes_per_device * m.devices;
  if (out.explain()) add_steps(out, facts, mesh, sizes, dtype, b, m, *chip);

  out.set("devices", m.devices);
  out.set_text("local_shape", shape_text(m.local));
  out.set("elements_per_device", m.local_elements);
  out.set("bytes_per_device", m.bytes_per_device);
  out.set("bytes_array", m.bytes_array);
  out.set("bytes_total", m.bytes_total);
  out.set("replication", m.replication);
  out.set_text("sharded_over", axes_list(facts.used));
  out.set_text("partition_spec", facts.partition_spec);
  // The same division time_step shows, so both paths agree to the bit.
  if (chip->hbm_bandwidth > 0)
    out.set("hbm_load_time", m.bytes_per_device / chip->hbm_bandwidth);
  else
    out.none("hbm_load_time");
  if (chip->hbm_capacity > 0)
    out.set_text("fits", m.bytes_per_device <= chip->hbm_capacity ? "yes" : "no");
  else
    out.none("fits");
  return std::nullopt;
}

}  // namespace

Calculator array_memory_calculator() { return {array_memory_schema(), compute_array_memory}; }

}  // namespace scalebook
