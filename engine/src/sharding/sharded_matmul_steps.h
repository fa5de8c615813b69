#pragma once
// Internal to sharded-matmul: the worked steps of its outputs.
#include <string>

#include "matmul_plan.h"
#include "scalebook/core/result_builder.h"
#include "scalebook/core/value.h"
#include "scalebook/sharding/sharding.h"
#include "sharding_inputs.h"

namespace scalebook::sharded_matmul_steps {

// LaTeX for text written in the book's plain notation: subscripts, braces, arrows.
std::string notation_latex(const std::string& text);

// local_<key> and bytes_<key>: the array's shape on one device and its bytes (b: B per element).
void add_array_steps(ResultBuilder& out, const std::string& key, const ShardedArray& array,
                     const DimSizes& sizes, const Mesh& mesh, double b, const std::string& when);
// Each collective's V and cost, then t_comm.
void add_comm_steps(ResultBuilder& out, const PlanShape& shape, const PlanPrice& plan,
                    PlanContext& ctx, const DimSizes& sizes, const Mesh& mesh, double b);
// FLOPs, t_compute at `peak` FLOP/s, t_total, t_serial, overlap and memory_per_device.
void add_time_steps(ResultBuilder& out, const PlanShape& shape, const PlanPrice& plan,
                    const DimSizes& sizes, const Mesh& mesh, double peak);

}  // namespace scalebook::sharded_matmul_steps
