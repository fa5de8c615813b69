#pragma once
// Internal to the sharding calculators (array-memory, sharded-matmul): the sizes of named
// dimensions, the local shape of a sharded array, and the steps that show them.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/sharding/sharding.h"

namespace scalebook {

using DimSizes = std::map<std::string, std::int64_t>;

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
// LaTeX: "\left(\frac{1024}{8 \cdot 2}, 4096\right) = (64, 4096)".
std::string local_shape_latex(const ShardedArray& array, const DimSizes& sizes, const Mesh& mesh);

// "N = 8 \times 2 = 16".
Step devices_step(const Mesh& mesh);

}  // namespace scalebook
