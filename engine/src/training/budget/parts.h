#pragma once
// Internal to the training-budget calculator: what its worked steps need.
#include <string>
#include <vector>

#include "scalebook/core/value.h"
#include "scalebook/training/budget.h"

namespace scalebook::budget_parts {

struct Explained {
  const BudgetConfig* config;
  const Budget* budget;
  std::string model_name;
  std::string chip_name;
  bool params_given;     // P is the caller's, not the model's
  double pods = 0;       // given pods, or 0: chips given directly
  double pod_chips = 0;  // chips per pod
};

std::vector<Step> budget_steps(const Explained& e);

}  // namespace scalebook::budget_parts
