#pragma once
#include "scalebook/core/registry.h"

namespace scalebook {

// FLOPs, bytes and arithmetic intensity of the common ops (elementwise, dot product, matmul,
// batched matmul with a matrix per batch element), their limit as they grow, and where they
// sit against a chip's critical intensity.
Calculator intensity_calculator();

}  // namespace scalebook
