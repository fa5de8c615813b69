// The gpus domain's calculators, in the order `scalebook list` shows them.
#include "scalebook/gpus/chip_calc.h"
#include "scalebook/gpus/cluster_calc.h"
#include "scalebook/gpus/kernel_calc.h"
#include "scalebook/gpus/planner.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{
    70,
    {gpu_chip_calculator, gpu_kernel_calculator, gpu_cluster_calculator, gpu_planner_calculator}};

}  // namespace
}  // namespace scalebook
