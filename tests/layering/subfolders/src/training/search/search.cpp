// A domain's subfolder includes its sibling and a lower domain by relative paths: allowed.
#include "../../core/units.h"
#include "../step/step.h"
