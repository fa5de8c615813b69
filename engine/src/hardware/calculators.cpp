// The hardware domain's calculators, in the order `scalebook list` shows them. The chip's is
// here; slice_calculators.cpp registers the slice and FLOPs-per-dollar ones after it, in a file
// of their own so a module whose pages use neither can leave them out (bindings/wasm, WITHOUT).
#include "scalebook/core/registry.h"
#include "scalebook/hardware/chip_calc.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{25, {chip_calculator}};

}  // namespace
}  // namespace scalebook
