// The hardware domain's slice and FLOPs-per-dollar calculators, listed after the chip's
// (calculators.cpp): chapters 1 and 2 use them, and a module that leaves this file out holds
// neither (bindings/wasm/CMakeLists.txt, WITHOUT).
#include "scalebook/core/registry.h"
#include "scalebook/hardware/flops_per_dollar.h"
#include "scalebook/hardware/slice.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{26, {slice_calculator, flops_per_dollar_calculator}};

}  // namespace
}  // namespace scalebook
