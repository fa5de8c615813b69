// The transformer domain's calculators, in the order `scalebook list` shows them.
#include "scalebook/transformer/transformer.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{40, {transformer_calculator}};

}  // namespace
}  // namespace scalebook
