#pragma once
// The inference domain's calculators over the step model (inference.h): one step, and the
// latency-throughput frontier over batch sizes and slices.
#include "scalebook/core/registry.h"

namespace scalebook {

Calculator inference_calculator();
Calculator inference_frontier_calculator();

}  // namespace scalebook
