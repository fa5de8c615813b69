// The hardware domain's calculators, in the order `scalebook list` shows them.
#include "scalebook/hardware/chip_calc.h"
#include "scalebook/hardware/flops_per_dollar.h"
#include "scalebook/hardware/slice.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{
    25, {chip_calculator, slice_calculator, flops_per_dollar_calculator}};

}  // namespace
}  // namespace scalebook
