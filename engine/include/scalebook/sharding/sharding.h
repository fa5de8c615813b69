#pragma once
// The book's sharding notation (chapter 3): a device mesh of named axes, and arrays whose
// dimensions carry the mesh axes they are split over.
//
//   mesh     X=4, Y=8   or  X=4,Y=8  or  {X: 4, Y: 8}  or a slice shape 4x4x4 (axes X, Y, Z)
//   array    A[I_XY, J]          I split over X then Y (X the major axis), J replicated
//            C[I, K]{U_X}        unreduced over X: partial sums still to be added up
//   matmul   A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]   (the "-> C[...]" part optional)
//
// Array names are an upper-case letter then letters, digits or _ (W_in); dimension names an
// upper-case letter then letters or digits (the registry's named-dimension rule, so every
// dimension can be given a size); mesh axes are single upper-case letters, so I_XY is I over
// X then Y. The parsers take any bytes: no exceptions, no recursion, linear time. An error
// names the field, says "at character N" and sets Error::position to N (0-based).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/hardware/axis.h"

namespace scalebook {

constexpr std::size_t kMaxMeshAxes = 4;
constexpr std::size_t kMaxArrayDims = 8;
constexpr std::size_t kMaxNameLength = 16;
// Longer texts are refused before parsing; the registry already caps text inputs at 100.
constexpr std::size_t kMaxSpecLength = 1000;
constexpr std::int64_t kMaxMeshDevices = 1000000000;

struct Mesh {
  std::vector<Axis> axes;  // no wraps or strides: a mesh is names and sizes  // in declared order:
                           // the first is the major axis of device ids
  std::int64_t devices() const;
  const Axis* find(char name) const;
};

struct ShardedDim {
  std::string name;
  std::string axes;  // mesh axes in subscript order: "XY" for I_XY
  int position = -1;
  std::vector<int> axis_positions;  // one per axis
};

struct ShardedArray {
  std::string name;
  std::vector<ShardedDim> dims;
  std::string unreduced;  // axes of {U_X}
  int position = -1;      // of the name
  int close = -1;         // of the closing ]
  int unreduced_open = -1;
  std::vector<int> unreduced_positions;
};

struct MatmulSpec {
  ShardedArray a;
  ShardedArray b;
  std::optional<ShardedArray> c;  // the requested output; absent: the planner derives it
  std::string contracting;        // the one dimension A and B share
};

Result<Mesh> parse_mesh(std::string_view text, const std::string& field = "mesh");
Result<ShardedArray> parse_array(std::string_view text, const std::string& field = "array");
// Also checks the names line up: A and B share exactly one dimension, and C (if given) has
// exactly the others; no input may be unreduced.
Result<MatmulSpec> parse_matmul(std::string_view text, const std::string& field = "spec");

// An error (at the axis) when `array` uses an axis the mesh lacks.
std::optional<Error> check_axes(const ShardedArray& array, const Mesh& mesh,
                                const std::string& field);

// "A[I_XY, J]{U_Z}", as the book writes it.
std::string array_text(const ShardedArray& array);
// JAX's PartitionSpec: "P(('X', 'Y'), None)"; unreduced axes have no PartitionSpec form.
std::string partition_spec(const ShardedArray& array);
// "X=8, Y=2".
std::string mesh_text(const Mesh& mesh);
// Product of the sizes of `axes`, each a name in `mesh`.
std::int64_t axes_size(const std::string& axes, const Mesh& mesh);

// Which block of an array each device holds, for the page's picture. Devices are numbered
// row-major over the mesh axes in declared order; along a dimension split over several
// axes the piece index is mixed radix in subscript order (X major for I_XY), so I_XY and
// I_YX place the same pieces on different devices.
constexpr std::int64_t kMaxLayoutDevices = 4096;

struct LayoutDim {
  std::string name;
  std::string axes;
  std::int64_t pieces = 1;  // product of its axes' sizes
};

struct LayoutDevice {
  std::int64_t id = 0;
  std::vector<std::int64_t> coords;  // one per mesh axis
  std::vector<std::int64_t> pieces;  // one per dimension: the piece this device holds
};

struct ShardingLayout {
  Mesh mesh;
  std::string array;  // the array's name
  std::vector<LayoutDim> dims;
  std::string unreduced;
  std::vector<LayoutDevice> devices;
  std::string partition_spec;
};

// Errors carry field "array" or "mesh" and the position in that text.
Result<ShardingLayout> sharding_layout(std::string_view array_spec, std::string_view mesh_spec);

}  // namespace scalebook
