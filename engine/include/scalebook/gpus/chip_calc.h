#pragma once
// The `gpu-chip` calculator: what chapter 12's chip explorer shows of a GPU (or a TPU side by
// side), derived from the catalog: CUDA cores, vector and Tensor Core FLOPs, FLOPs per Tensor
// Core a cycle, on-chip memory and resident warps.
#include "scalebook/core/registry.h"

namespace scalebook {

Calculator gpu_chip_calculator();

}  // namespace scalebook
