// The systolic domain's calculators, in the order `scalebook list` shows them.
#include "scalebook/systolic/mxu.h"
#include "scalebook/systolic/systolic.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{20, {systolic_calculator, mxu_calculator}};

}  // namespace
}  // namespace scalebook
