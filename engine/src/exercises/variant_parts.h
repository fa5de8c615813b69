#pragma once
// Internal to exercise variants (variant.cpp): a variant's numbers for one set of parameter
// values, in order:
//   - each parameter as the prompt prints it (a chip by its name);
//   - each value: one numeric output of a calculator call, printed in its schema's unit;
//   - each part: a calculator output (a text one for a choice part), or an expression over
//     the call's outputs, the parameters, the values and earlier parts, all in SI base units;
//     a number part's expected answer is that over its unit's factor, with the steps that
//     lead to it.
// Calculator inputs are literal, "$name" (a parameter) or "= expression" (over the numeric
// parameters).
#include <string>
#include <utility>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/core/value.h"
#include "scalebook/exercises/exercise.h"

namespace scalebook::variant_parts {

using Params = std::vector<std::pair<std::string, Value>>;

struct Computed {
  std::vector<PartVariant> parts;
  std::vector<std::pair<std::string, std::string>> printed;  // placeholder -> text
  std::vector<std::pair<std::string, double>> numbers;       // SI base units, for conditions
};

// Errors name the value or part ("values.x", "parts.a") and say which.
Result<Computed> compute(const ExerciseSpec& e, const Params& params);

}  // namespace scalebook::variant_parts
