#pragma once
// scalebook sweep and scalebook solve: the engine's sweeps and solving at a terminal.
#include "options.h"

namespace scalebook::cli {

int sweep_command(const Options& opt);
int solve_command(const Options& opt);

}  // namespace scalebook::cli
