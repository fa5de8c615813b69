// Linked by the numbers-only engine modules in place of engine/src/core/explains.cpp: no
// calculator here builds worked steps, so link-time optimisation drops their code. api.mjs
// refuses a request for steps from such a module (explains() says false).
#include "scalebook/core/result_builder.h"

namespace scalebook {

extern const bool kExplains = false;

}  // namespace scalebook
