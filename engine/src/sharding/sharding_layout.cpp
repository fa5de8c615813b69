#include <cstddef>
#include <cstdint>
#include <string>

#include "scalebook/sharding/sharding.h"

namespace scalebook {

Result<ShardingLayout> sharding_layout(std::string_view array_spec, std::string_view mesh_spec) {
  Result<Mesh> mesh = parse_mesh(mesh_spec, "mesh");
  if (!mesh.ok()) return mesh.error();
  Result<ShardedArray> array = parse_array(array_spec, "array");
  if (!array.ok()) return array.error();
  if (auto bad = check_axes(array.value(), mesh.value(), "array")) return *bad;
  const Mesh& m = mesh.value();
  const ShardedArray& a = array.value();
  const std::int64_t devices = m.devices();
  if (devices > kMaxLayoutDevices) {
    return Error{ErrorCode::out_of_range, "mesh",
                 "mesh has " + std::to_string(devices) + " devices; the picture shows at most " +
                     std::to_string(kMaxLayoutDevices)};
  }
  ShardingLayout layout;
  layout.mesh = m;
  layout.array = a.name;
  layout.unreduced = a.unreduced;
  layout.partition_spec = partition_spec(a);
  for (const ShardedDim& d : a.dims) layout.dims.push_back({d.name, d.axes, axes_size(d.axes, m)});

  // Mesh axis index of each dimension's axes, so each device's pieces are a few multiplies.
  std::vector<std::vector<std::size_t>> dim_axes;
  for (const ShardedDim& d : a.dims) {
    std::vector<std::size_t> indices;
    for (char axis : d.axes) {
      for (std::size_t k = 0; k < m.axes.size(); ++k) {
        if (m.axes[k].name == axis) indices.push_back(k);
      }
    }
    dim_axes.push_back(std::move(indices));
  }
  layout.devices.reserve(static_cast<std::size_t>(devices));
  for (std::int64_t id = 0; id < devices; ++id) {
    LayoutDevice device;
    device.id = id;
    device.coords.assign(m.axes.size(), 0);
    std::int64_t rest = id;
    for (std::size_t k = m.axes.size(); k-- > 0;) {
      device.coords[k] = rest % m.axes[k].size;
      rest /= m.axes[k].size;
    }
    for (const std::vector<std::size_t>& indices : dim_axes) {
      std::int64_t piece = 0;
      for (std::size_t k : indices) piece = piece * m.axes[k].size + device.coords[k];
      device.pieces.push_back(piece);
    }
    layout.devices.push_back(std::move(device));
  }
  return layout;
}

}  // namespace scalebook
