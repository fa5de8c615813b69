// The collectives domain's calculators, in the order `scalebook list` shows them.
#include "scalebook/collectives/collective.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{30, {collective_calculator}};

}  // namespace
}  // namespace scalebook
