#pragma once
#include "scalebook/core/registry.h"

namespace scalebook {

// One sharded array on a device mesh (chapter 3): its local shape, bytes per device and in
// total, how many copies the mesh keeps, its JAX PartitionSpec, and the time to read one
// device's shard from HBM.
Calculator array_memory_calculator();

}  // namespace scalebook
