// The gpus domain's calculators, in the order `scalebook list` shows them.
#include "scalebook/gpus/planner.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{70, {gpu_planner_calculator}};

}  // namespace
}  // namespace scalebook
