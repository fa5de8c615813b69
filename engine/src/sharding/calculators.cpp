// The sharding domain's calculators, in the order `scalebook list` shows them.
#include "scalebook/sharding/array_memory.h"
#include "scalebook/sharding/sharded_matmul.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{35, {array_memory_calculator, sharded_matmul_calculator}};

}  // namespace
}  // namespace scalebook
