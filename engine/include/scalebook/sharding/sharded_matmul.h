#pragma once
#include "scalebook/core/registry.h"

namespace scalebook {

// One matmul of sharded arrays on a TPU mesh (chapter 3): which of the book's four cases it
// is, the cheapest plan of AllGathers, ReduceScatters, AllReduces and free local slices (the
// alternatives beside it), and its communication, compute and total time.
Calculator sharded_matmul_calculator();

}  // namespace scalebook
