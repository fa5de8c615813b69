#pragma once
// A small arithmetic language for exercise data: answers over calculator outputs
// ("2 * critical_comm_intensity") and conditions between parameters ("B < crit").
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "scalebook/core/status.h"

namespace scalebook {

// Looks a name up; nullopt when it is unknown.
using NameLookup = std::function<std::optional<double>(std::string_view name)>;

// Numbers, names ([A-Za-z_][A-Za-z0-9_.]*), + - * / ^, parentheses, comparisons
// (< <= > >= == != give 1 or 0), && and ||, and min(a, b), max(a, b).
// Errors name the expression and the offending position.
Result<double> evaluate(std::string_view expression, const NameLookup& lookup);

}  // namespace scalebook
