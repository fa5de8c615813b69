#pragma once
// The gpu-planner calculator's pieces: reading its inputs into the model's, and the worked steps.
#include <optional>
#include <string>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/gpus/planner.h"

namespace scalebook::planner_parts {

// The model's input from the calculator's, or an error naming the input at fault.
Result<GpuPlanInput> read(const ResolvedInputs& in);

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out);

// Every output's step, for the GPU named `gpu`.
std::vector<Step> steps(const GpuPlanInput& in, const GpuPlan& p, const std::string& gpu);

}  // namespace scalebook::planner_parts
