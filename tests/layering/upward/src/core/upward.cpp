// A core file that reaches up into hardware: the layering check must refuse it.
#include "scalebook/hardware/catalog.h"
