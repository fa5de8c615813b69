#pragma once
// The CLI's JSON is the engine's one marshaller (scalebook/core/json.h and the domains' own).
#include "scalebook/core/json.h"
#include "scalebook/exercises/json.h"
#include "scalebook/hardware/json.h"
#include "scalebook/transformer/json.h"

namespace scalebook::cli {

using scalebook::Json;
using scalebook::to_json;

}  // namespace scalebook::cli
