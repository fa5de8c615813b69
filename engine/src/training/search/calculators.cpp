// The training search, registered after the rest of the training domain (../calculators.cpp)
// in a file of its own: chapter 5's module leaves it out (bindings/wasm, WITHOUT), since only
// chapter 6 and its worker search.
#include "scalebook/core/registry.h"
#include "scalebook/training/search.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{51, {training_search_calculator}};

}  // namespace
}  // namespace scalebook
