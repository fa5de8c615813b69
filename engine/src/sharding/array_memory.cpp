#include "scalebook/sharding/array_memory.h"

#include <string>

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

std::optional<Error> compute_array_memory(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip* chip = chip_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  Result<Mesh> parsed_mesh = parse_mesh(in.text("mesh"), "mesh");
  if (!parsed_mesh.ok()) return parsed_mesh.error();
  Result<ShardedArray> parsed = parse_array(in.text("array"), "array");
  if (!parsed.ok()) return parsed.error();
  const Mesh& mesh = parsed_mesh.value();
  const ShardedArray& array = parsed.value();
  if (auto bad = check_axes(array, mesh, "array")) return *bad;
  Result<DimSizes> found = dimension_sizes({&array}, in, default_sizes());
  if (!found.ok()) return found.error();
  const DimSizes& sizes = found.value();
  if (auto bad = check_divisible(array, sizes, mesh)) return *bad;

  const Dtype dtype = *parse_dtype(in.text("dtype"));
  const double b = bytes_per_element(dtype);
  std::string used;
  std::string used_latex, used_sizes;
  for (const ShardedDim& d : array.dims) {
    for (char axis : d.axes) {
      used += axis;
      used_latex += (used_latex.empty() ? "" : " \\cdot ") + ("|" + std::string(1, axis) + "|");
      used_sizes += (used_sizes.empty() ? "" : " \\cdot ") + std::to_string(mesh.find(axis)->size);
    }
  }
  const auto devices = static_cast<double>(mesh.devices());
  const auto shards = static_cast<double>(axes_size(used, mesh));
  const std::vector<std::int64_t> local = local_shape(array, sizes, mesh);
  const double local_elements = elements(local);
  std::vector<std::int64_t> global;
  for (const ShardedDim& d : array.dims) global.push_back(sizes.at(d.name));
  const double global_elements = elements(global);
  const double bytes_per_device = local_elements * b;
  const double bytes_array = global_elements * b;
  const double replication = devices / shards;
  const double bytes_total = bytes_per_device * devices;

  auto product_latex = [](const std::vector<std::int64_t>& shape) {
    std::string text;
    for (std::int64_t s : shape) {
      text += (text.empty() ? "" : " \\times ") + latex_number(static_cast<double>(s));
    }
    return text;
  };
  const std::string dtype_note =
      std::string(to_string(dtype)) + ", " + format_number(b) + " B each";
  if (in.explain()) out.step(devices_step(mesh));
  if (in.explain())
    out.step({used.empty() ? "Split over no axis: every device holds the whole array"
                           : "Split over " + axes_list(used) + ": the array is cut into " +
                                 format_number(shards) + " pieces",
              used.empty()
                  ? "S = 1"
                  : "S = " + used_latex + " = " + used_sizes + " = " + latex_number(shards),
              shards,
              "",
              "sharded_over",
              {}});
  if (in.explain())
    out.step({"Local shape: each dimension over the sizes of its axes",
              local_shape_latex(array, sizes, mesh),
              local_elements,
              "",
              "local_shape",
              {"sharded_over"}});
  if (in.explain())
    out.step({"Elements per device",
              product_latex(local) + " = " + latex_number(local_elements),
              local_elements,
              "",
              "elements_per_device",
              {"local_shape"}});
  if (in.explain())
    out.step({"Bytes per device (" + dtype_note + ")",
              latex_number(local_elements) + " \\times " + latex_quantity(b, "B") + " = " +
                  latex_quantity(bytes_per_device, "B"),
              bytes_per_device,
              "B",
              "bytes_per_device",
              {"elements_per_device"}});
  if (in.explain())
    out.step({"One copy of the array (" + dtype_note + ")",
              product_latex(global) + " \\times " + latex_quantity(b, "B") + " = " +
                  latex_quantity(bytes_array, "B"),
              bytes_array,
              "B",
              "bytes_array",
              {}});
  if (in.explain())
    out.step({"Copies: devices over pieces (the axes the array does not split over)",
              "R = \\frac{N}{S} = \\frac{" + latex_number(devices) + "}{" + latex_number(shards) +
                  "} = " + latex_number(replication),
              replication,
              "x",
              "replication",
              {"devices", "sharded_over"}});
  if (in.explain())
    out.step({"Bytes on all devices",
              latex_quantity(bytes_per_device, "B") + " \\times " + latex_number(devices) + " = " +
                  latex_quantity(bytes_array, "B") + " \\times " + latex_number(replication) +
                  " = " + latex_quantity(bytes_total, "B"),
              bytes_total,
              "B",
              "bytes_total",
              {"bytes_per_device", "bytes_array", "replication"}});
  const std::string spec = partition_spec(array);
  if (in.explain())
    out.step({"JAX PartitionSpec: one entry per dimension, its mesh axes or None",
              "\\texttt{" + spec + "}",
              shards,
              "",
              "partition_spec",
              {"sharded_over"}});
  Value load = Value::none();
  if (chip->hbm_bandwidth > 0) {
    Step t = time_step("HBM load time on " + chip->name, "load", bytes_per_device, "B",
                       chip->hbm_bandwidth, "B/s", "hbm_load_time", {"bytes_per_device"});
    load = Value::of(t.value);
    if (in.explain()) out.step(t);
  }
  Value fits = Value::none();
  if (chip->hbm_capacity > 0) {
    bool ok = bytes_per_device <= chip->hbm_capacity;
    fits = Value::of(ok ? "yes" : "no");
    if (in.explain())
      out.step({std::string("Fits in the HBM of ") + chip->name + ": " + (ok ? "yes" : "no") +
                    " (1 yes, 0 no)",
                latex_quantity(bytes_per_device, "B") + (ok ? " \\le " : " > ") +
                    latex_quantity(chip->hbm_capacity, "B"),
                ok ? 1.0 : 0.0,
                "",
                "fits",
                {"bytes_per_device"}});
  }
  out.set({
      {"devices", Value::of(devices)},
      {"local_shape", Value::of(shape_text(local))},
      {"elements_per_device", Value::of(local_elements)},
      {"bytes_per_device", Value::of(bytes_per_device)},
      {"bytes_array", Value::of(bytes_array)},
      {"bytes_total", Value::of(bytes_total)},
      {"replication", Value::of(replication)},
      {"sharded_over", Value::of(axes_list(used))},
      {"partition_spec", Value::of(spec)},
      {"hbm_load_time", load},
      {"fits", fits},
  });
  return std::nullopt;
}

}  // namespace

Calculator array_memory_calculator() { return {array_memory_schema(), compute_array_memory}; }

}  // namespace scalebook
