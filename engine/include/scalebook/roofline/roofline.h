#pragma once
#include "scalebook/core/registry.h"

namespace scalebook {

// Time of one op from its FLOPs, HBM bytes and chip-to-chip bytes: the lower bound
// (everything overlaps) and the upper bound (nothing does), and what bounds it.
Calculator roofline_calculator();

}  // namespace scalebook
