#include "sharding_inputs.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"

namespace scalebook {

DimSizes::DimSizes(std::initializer_list<Item> items) {
  for (const Item& item : items) set(item.first, item.second);
}

const DimSizes::Item* DimSizes::find(std::string_view name) const {
  for (const Item& item : items_) {
    if (item.first == name) return &item;
  }
  return nullptr;
}

std::int64_t DimSizes::at(std::string_view name) const {
  const Item* item = find(name);
  return item ? item->second : 0;
}

void DimSizes::set(std::string_view name, std::int64_t size) {
  auto it = std::lower_bound(items_.begin(), items_.end(), name,
                             [](const Item& item, std::string_view n) { return item.first < n; });
  if (it != items_.end() && it->first == name) {
    it->second = size;
  } else {
    items_.emplace(it, std::string(name), size);
  }
}

LocalShape::LocalShape(const ShardedArray& array, const DimSizes& sizes, const Mesh& mesh) {
  for (const ShardedDim& d : array.dims) {
    const std::int64_t local = sizes.at(d.name) / axes_size(d.axes, mesh);
    if (size_ > 0) chars_[size_++] = 'x';
    size_ = std::to_chars(chars_.data() + size_, chars_.data() + chars_.size(), local).ptr -
            chars_.data();
    elements_ *= static_cast<double>(local);
  }
}

Result<DimSizes> dimension_sizes(const std::vector<const ShardedArray*>& arrays,
                                 const ResolvedInputs& in, const DimSizes& defaults) {
  DimSizes sizes;
  for (const ShardedArray* array : arrays) {
    for (const ShardedDim& d : array->dims) {
      auto given = in.dimensions().find(d.name);
      if (given != in.dimensions().end()) {
        // The registry checked it is a whole number in [1, kMaxDimension] (< 2^53).
        sizes.set(d.name, static_cast<std::int64_t>(given->second));
        continue;
      }
      const DimSizes::Item* fallback = defaults.find(d.name);
      if (!fallback) {
        return Error{ErrorCode::invalid_argument, d.name,
                     "give the size of dimension " + d.name + ", like " + d.name + "=4096"};
      }
      sizes.set(d.name, fallback->second);
    }
  }
  // A size for a dimension the arrays do not have is a typo, not something to ignore.
  for (const auto& [name, size] : in.dimensions()) {
    if (sizes.find(name)) continue;
    std::string known;
    for (const auto& [dim, unused] : sizes) known += (known.empty() ? "" : ", ") + dim;
    return Error{ErrorCode::invalid_argument, name,
                 name + " is not a dimension of these arrays; they have " + known};
  }
  return sizes;
}

std::optional<Error> check_divisible(const ShardedArray& array, const DimSizes& sizes,
                                     const Mesh& mesh) {
  for (const ShardedDim& d : array.dims) {
    std::int64_t pieces = axes_size(d.axes, mesh);
    std::int64_t size = sizes.at(d.name);
    if (size % pieces == 0) continue;
    std::string axes;
    for (char axis : d.axes) {
      axes += (axes.empty() ? "" : ", ") + std::string(1, axis) + "=" +
              std::to_string(mesh.find(axis)->size);
    }
    std::string what = d.axes.size() == 1 ? "the size of its axis " : "the product of its axes ";
    return Error{ErrorCode::invalid_argument, d.name,
                 d.name + "=" + std::to_string(size) + " must be divisible by " +
                     std::to_string(pieces) + ", " + what + axes + ", in " + array.name};
  }
  return std::nullopt;
}

std::vector<std::int64_t> local_shape(const ShardedArray& array, const DimSizes& sizes,
                                      const Mesh& mesh) {
  std::vector<std::int64_t> shape;
  for (const ShardedDim& d : array.dims) {
    shape.push_back(sizes.at(d.name) / axes_size(d.axes, mesh));
  }
  return shape;
}

double elements(const std::vector<std::int64_t>& shape) {
  double n = 1;
  for (std::int64_t s : shape) n *= static_cast<double>(s);
  return n;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out;
  for (std::int64_t s : shape) out += (out.empty() ? "" : "x") + std::to_string(s);
  return out;
}

SB_EXPLAIN_ONLY std::string local_shape_latex(const ShardedArray& array, const DimSizes& sizes,
                                              const Mesh& mesh) {
  std::string terms, result;
  for (const ShardedDim& d : array.dims) {
    const std::string size = latex_number(static_cast<double>(sizes.at(d.name)));
    std::string term = size;
    if (!d.axes.empty()) {
      std::string over;
      for (char axis : d.axes) {
        over += (over.empty() ? "" : " \\cdot ") + std::to_string(mesh.find(axis)->size);
      }
      term = "\\frac{" + size + "}{" + over + "}";
    }
    const double local = static_cast<double>(sizes.at(d.name) / axes_size(d.axes, mesh));
    terms += (terms.empty() ? "" : ", ") + term;
    result += (result.empty() ? "" : ", ") + latex_number(local);
  }
  return "\\left(" + terms + "\\right) = (" + result + ")";
}

Step devices_step(const Mesh& mesh) {
  std::string factors;
  for (const Axis& a : mesh.axes) {
    factors += (factors.empty() ? "" : " \\times ") + std::to_string(a.size);
  }
  const auto n = static_cast<double>(mesh.devices());
  return {"Devices in the mesh " + mesh_text(mesh),
          "N = " + factors + " = " + latex_number(n),
          n,
          "devices",
          "devices",
          {}};
}

}  // namespace scalebook
