#pragma once
#include "scalebook/core/registry.h"

namespace scalebook {

// Every catalog field of one chip as an output, so prose, exercises and the CLI can quote any
// of them (`{{chip.vmem_capacity chip=tpu-v5e | si}}`) through the one calculator path.
Calculator chip_calculator();

}  // namespace scalebook
