#include "scalebook/hardware/axis.h"

namespace scalebook {

std::string axis_name(const Axis& axis) {
  if (axis.name == 0) return "DCN";
  return axis.stride > 1 ? std::string{axis.name, '\''} : std::string(1, axis.name);
}

}  // namespace scalebook
