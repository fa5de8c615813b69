// A subfolder of a low domain reaching up by a relative path: refused.
#include "../../training/step.h"
