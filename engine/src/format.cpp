#include "scalebook/format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace scalebook {
namespace {

// "1.97e+14" -> mantissa "1.97", exponent 14.
std::string tidy_exponent(const char* printed) {
  std::string s(printed);
  auto e = s.find('e');
  if (e == std::string::npos) return s;
  int exponent = std::atoi(s.c_str() + e + 1);
  return s.substr(0, e) + "e" + std::to_string(exponent);
}

}  // namespace

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return tidy_exponent(buf);
}

std::string latex_number(double x) {
  if (!std::isfinite(x)) return std::isnan(x) ? "\\text{NaN}" : "\\infty";
  char buf[64];
  double magnitude = std::fabs(x);
  if (magnitude != 0 && (magnitude >= 1e5 || magnitude < 1e-2)) {
    std::snprintf(buf, sizeof buf, "%.3e", x);
    std::string s(buf);
    auto e = s.find('e');
    std::string mantissa = s.substr(0, e);
    while (mantissa.back() == '0') mantissa.pop_back();
    if (mantissa.back() == '.') mantissa.pop_back();
    int exponent = std::atoi(s.c_str() + e + 1);
    return mantissa + " \\times 10^{" + std::to_string(exponent) + "}";
  }
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

}  // namespace scalebook

namespace scalebook {

std::string latex_quantity(double x, const std::string& unit) {
  if (unit.empty()) return latex_number(x);
  return latex_number(x) + "\\ \\text{" + unit + "}";
}

}  // namespace scalebook
