#pragma once
// The `gpu-cluster` calculator: chapter 12's cluster builder over hardware/cluster.h.
#include "scalebook/core/registry.h"

namespace scalebook {

Calculator gpu_cluster_calculator();

}  // namespace scalebook
