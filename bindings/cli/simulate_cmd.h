#pragma once
// scalebook simulate NAME: a step simulation at a terminal (for now the pipeline schedule).
#include "options.h"

namespace scalebook::cli {

int simulate_command(const Options& opt);

}  // namespace scalebook::cli
