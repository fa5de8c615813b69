#pragma once
#include <string>

namespace scalebook {

// Short plain form for messages: 6 significant digits, "1e30" not "1e+30".
std::string format_number(double x);

// LaTeX form for worked solutions: 4 significant digits, "1.97 \times 10^{14}".
std::string latex_number(double x);

}  // namespace scalebook

namespace scalebook {

// latex_number followed by the unit in upright text: "8.2 \times 10^{11}\ \text{B/s}".
std::string latex_quantity(double x, const std::string& unit);

}  // namespace scalebook
