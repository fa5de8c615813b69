#pragma once
#include "../../hardware/chip.h"
