// This build explains: calculators build their worked steps when asked (result_builder.h).
#include "scalebook/core/result_builder.h"

namespace scalebook {

extern const bool kExplains = true;

}  // namespace scalebook
