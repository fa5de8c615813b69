// The inference domain's calculators, in the order of the book's chapters 7 and 8, which is their
// order in `scalebook list`: each concept's adapter is in its own folder.
#include "scalebook/core/registry.h"
#include "scalebook/inference/calculator.h"
#include "scalebook/inference/kv_allocator.h"
#include "scalebook/inference/sampler.h"
#include "scalebook/inference/speculative.h"

namespace scalebook {
namespace {

const CalculatorRegistration registered{60,
                                        {
                                            sampler_calculator,             // sampler/: 2.1
                                            inference_calculator,           // calculator/: the step
                                            inference_frontier_calculator,  // frontier/
                                            kv_allocator_calculator,    // kv_allocator/: 2.2, 2.4.2
                                            speculative_calculator,     // speculative/: appendix D
                                            serving_search_calculator,  // serving_search/: ch. 8
                                            serving_capacity_calculator,  // capacity/: ch. 8
                                        }};

}  // namespace
}  // namespace scalebook
