#pragma once
// The `gpu-kernel` calculator: chapter 12's kernel roofline over gpus/kernel.h.
#include "scalebook/core/registry.h"

namespace scalebook {

Calculator gpu_kernel_calculator();

}  // namespace scalebook
