#pragma once
// Internal to the sharding calculators (array-memory, sharded-matmul): the sizes of named
// dimensions, the local shape of a sharded array, and the steps that show them.
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/sharding/sharding.h"

namespace scalebook {

// The size of each named dimension, kept in name order. A matmul has a handful, so a sorted
// list (one allocation) serves every evaluation of a prepared calculation better than a map.
class DimSizes {
 public:
  using Item = std::pair<std::string, std::int64_t>;
  DimSizes() = default;
  DimSizes(std::initializer_list<Item> items);
  // The size of a dimension the arrays have (callers only ask for those).
  std::int64_t at(std::string_view name) const;
  const Item* find(std::string_view name) const;
  void set(std::string_view name, std::int64_t size);
  std::vector<Item>::const_iterator begin() const { return items_.begin(); }
  std::vector<Item>::const_iterator end() const { return items_.end(); }

 private:
  std::vector<Item> items_;
};

// The size of every dimension of `arrays`: given (I=4096), else from `defaults` (the sizes of
// the calculator's default spec), else an error naming the dimension.
Result<DimSizes> dimension_sizes(const std::vector<const ShardedArray*>& arrays,
                                 const ResolvedInputs& in, const DimSizes& defaults);

// An error naming the dimension when its size is not a multiple of its axes' sizes.
std::optional<Error> check_divisible(const ShardedArray& array, const DimSizes& sizes,
                                     const Mesh& mesh);

// Each dimension's size over the product of its axes' sizes (sizes are divisible).
std::vector<std::int64_t> local_shape(const ShardedArray& array, const DimSizes& sizes,
                                      const Mesh& mesh);
double elements(const std::vector<std::int64_t>& shape);
// "64x4096"; a 0-dimensional shape never occurs (arrays have at least one dimension).
std::string shape_text(const std::vector<std::int64_t>& shape);

// The local shape as text and its element count, written without allocating (the
// numbers-only path sets them on every evaluation).
class LocalShape {
 public:
  LocalShape(const ShardedArray& array, const DimSizes& sizes, const Mesh& mesh);
  std::string_view text() const { return {chars_.data(), size_}; }
  double elements() const { return elements_; }

 private:
  std::array<char, kMaxArrayDims * 21> chars_{};  // 20 digits and an x per dimension
  std::size_t size_ = 0;
  double elements_ = 1;
};
// LaTeX: "\left(\frac{1024}{8 \cdot 2}, 4096\right) = (64, 4096)".
std::string local_shape_latex(const ShardedArray& array, const DimSizes& sizes, const Mesh& mesh);

// "N = 8 \times 2 = 16".
Step devices_step(const Mesh& mesh);

}  // namespace scalebook
