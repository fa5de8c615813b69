#include "scalebook/core/format.h"

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

namespace {
thread_local bool numbers_only = false;
}  // namespace

NumbersOnly::NumbersOnly() : was_(numbers_only) { numbers_only = true; }
NumbersOnly::~NumbersOnly() { numbers_only = was_; }
bool NumbersOnly::active() { return numbers_only; }

std::string latex_number(double x) {
  if (numbers_only) return {};
  if (!std::isfinite(x)) return std::isnan(x) ? "\\text{NaN}" : "\\infty";
  char buf[64];
  double magnitude = std::fabs(x);
  if (x == std::floor(x) && magnitude < 1e6) {  // counts and sizes print whole: 16384
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  if (magnitude >= 1e4 || magnitude < 1e-2) {
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

std::string latex_quantity(double x, const char* unit) {
  if (numbers_only) return {};
  if (!*unit) return latex_number(x);
  return latex_number(x) + "\\ \\text{" + unit + "}";
}

std::string latex_quantity(double x, const std::string& unit) {
  return latex_quantity(x, unit.c_str());
}

}  // namespace scalebook

namespace scalebook {
namespace {

// The shortest text that reads back as `v`, laid out like JavaScript's Number#toString
// (plain digits from 1e-6 up to 1e21, exponent form outside), so C++ and JS print alike.
std::string shortest(double v) {
  if (v == 0) return "0";
  char buf[64];
  for (int precision = 0; precision < 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s(buf);
  bool negative = s[0] == '-';
  if (negative) s.erase(0, 1);
  auto e = s.find('e');
  int exponent = std::atoi(s.c_str() + e + 1);
  std::string digits = s.substr(0, 1) + (e > 2 ? s.substr(2, e - 2) : "");
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int n = static_cast<int>(digits.size());
  std::string out;
  if (exponent >= 21 || exponent < -6) {
    out = digits.substr(0, 1) + (n > 1 ? "." + digits.substr(1) : "") + "e" +
          (exponent >= 0 ? "+" : "-") + std::to_string(exponent >= 0 ? exponent : -exponent);
  } else if (exponent >= 0) {
    out = n <= exponent + 1 ? digits + std::string(static_cast<size_t>(exponent + 1 - n), '0')
                            : digits.substr(0, static_cast<size_t>(exponent + 1)) + "." +
                                  digits.substr(static_cast<size_t>(exponent + 1));
  } else {
    out = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  }
  return (negative ? "-" : "") + out;
}

std::string sci_text(double x);

// Rounded to `digits` significant digits, then printed shortest (JS: Number(x.toPrecision(d))).
std::string significant(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
  double rounded = std::strtod(buf, nullptr);
  // Rounding the largest doubles up overflows (1.797e308 to 1.80e308): print them as the book
  // writes large numbers instead.
  return std::isfinite(rounded) ? shortest(rounded) : sci_text(x);
}

std::string sci_text(double x) {
  if (x == 0) return "0";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2e", x);
  std::string s(buf);
  auto e = s.find('e');
  std::string mantissa = s.substr(0, e);
  while (mantissa.back() == '0') mantissa.pop_back();
  if (mantissa.back() == '.') mantissa.pop_back();
  return mantissa + "e" + std::to_string(std::atoi(s.c_str() + e + 1));
}

std::string with_commas(double x) {
  char buf[64];
  // Math.round: halves go up. Not floor(x + 0.5), which rounds 0.49999999999999994 to 1.
  double rounded = std::floor(x);
  if (x - rounded >= 0.5) rounded += 1;
  std::snprintf(buf, sizeof buf, "%.0f", rounded == 0 ? 0.0 : rounded);
  std::string digits(buf);
  std::string sign;
  if (!digits.empty() && digits[0] == '-') {
    sign = "-";
    digits.erase(0, 1);
  }
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return sign + out;
}

bool prefixable(const std::string& unit) {
  return unit == "s" || unit == "B" || unit == "B/s" || unit == "FLOP" || unit == "FLOP/s" ||
         unit == "Hz";
}

}  // namespace

bool is_format_style(const std::string& style) {
  return style == "si" || style == "sci" || style == "int" || style == "num" || style == "raw";
}

std::string display_text(double x, const std::string& unit) {
  if (!std::isfinite(x) || x != std::floor(x) || prefixable(unit))
    return format_value(x, unit, "si");
  const std::string count = format_value(x, "", "int");
  if (unit.empty()) return count;
  return unit == "x" ? count + "\u00d7" : count + " " + unit;
}

std::string format_value(double x, const std::string& unit, const std::string& style) {
  if (!std::isfinite(x)) return std::isnan(x) ? "NaN" : (x > 0 ? "Infinity" : "-Infinity");
  if (style == "sci") return sci_text(x);
  if (style == "int") return std::fabs(x) >= 1e15 ? sci_text(x) : with_commas(x);
  if (style == "num") return significant(x, 3);
  if (style == "raw") return shortest(x);
  if (!prefixable(unit) || x == 0) {
    double magnitude = std::fabs(x);
    // A whole count prints whole (2048 chips, 73440 tokens), not rounded to three digits.
    bool whole = x == std::floor(x) && magnitude < 1e5;
    std::string body = whole                                              ? shortest(x)
                       : magnitude >= 1e5 || (x != 0 && magnitude < 1e-3) ? sci_text(x)
                                                                          : significant(x, 3);
    return unit.empty() ? body : body + " " + unit;
  }
  static const struct {
    double scale;
    const char* prefix;
  } prefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"},      {1e9, "G"},  {1e6, "M"},  {1e3, "k"},
                  {1, ""},     {1e-3, "m"}, {1e-6, "\u00b5"}, {1e-9, "n"}, {1e-12, "p"}};
  // Times take no prefix above seconds, amounts none below one (as format.js).
  for (const auto& p : prefixes) {
    if (unit == "s" ? p.scale > 1 : p.scale < 1) continue;
    if (std::fabs(x) >= p.scale * 0.9995) {
      // Past the largest prefix ("500000000000 EB") scientific reads better.
      if ((p.scale == 1 && std::fabs(x) >= 1e5) || std::fabs(x) >= 999.5 * 1e18) break;
      return significant(x / p.scale, 3) + " " + p.prefix + unit;
    }
  }
  return sci_text(x) + " " + unit;
}

}  // namespace scalebook
