#pragma once
// The serving simulation at a terminal: a summary with its percentiles table, or its whole
// result as JSON (series and timeline included).
#include <string>

#include "scalebook/core/json.h"
#include "scalebook/core/simulation.h"

namespace scalebook::cli {

// A simulation's result tree as JSON (number arrays as arrays, null as null).
Json sim_json(const SimNode& node);

std::string serving_text(const SimNode& result);

}  // namespace scalebook::cli
