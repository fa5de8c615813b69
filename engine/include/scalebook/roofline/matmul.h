#pragma once
#include "scalebook/core/registry.h"

namespace scalebook {

// X[B,D] . W[D,F] -> Y[B,F] on one chip: FLOPs, HBM bytes, intensity, and the token
// batch B above which it is compute-bound.
Calculator matmul_calculator();

}  // namespace scalebook
