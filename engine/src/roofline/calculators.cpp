// The roofline domain's calculators, in the order `scalebook list` shows them.
#include "scalebook/roofline/intensity.h"
#include "scalebook/roofline/matmul.h"
#include "scalebook/roofline/roofline.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{
    10, {roofline_calculator, matmul_calculator, intensity_calculator}};

}  // namespace
}  // namespace scalebook
