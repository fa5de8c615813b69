#pragma once
#include "options.h"

namespace scalebook::cli {

// scalebook exercise list|show|grade|check ...
int exercise_command(const Options& opt);

}  // namespace scalebook::cli
