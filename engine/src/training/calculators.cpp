// The training domain's calculators, in the order of the book's chapters 5 and 6, which is
// their order in `scalebook list`: each concept's adapter is in its own folder. The search
// registers itself after them (search/calculators.cpp), so a module can leave it out.
#include "scalebook/core/registry.h"
#include "scalebook/training/budget.h"
#include "scalebook/training/pipeline.h"
#include "scalebook/training/plan.h"
#include "scalebook/training/split.h"
#include "scalebook/training/training.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{50,
                                        {
                                            training_calculator,         // step/: chapter 5
                                            training_split_calculator,   // split/: its optimizer
                                            training_budget_calculator,  // budget/: chapter 6
                                            training_plan_calculator,    // plan/
                                            pipeline_calculator,         // pipeline/
                                        }};

}  // namespace
}  // namespace scalebook
