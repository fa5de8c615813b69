#pragma once
// The inference domain's calculators over the step model (inference.h): one step, and the
// latency-throughput frontier over batch sizes and slices, and chapter 8's serving search.
#include "scalebook/core/registry.h"

namespace scalebook {

Calculator inference_calculator();
Calculator inference_frontier_calculator();
Calculator serving_search_calculator();
Calculator serving_capacity_calculator();

}  // namespace scalebook
