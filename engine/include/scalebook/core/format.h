#pragma once
#include <string>

namespace scalebook {

// Short plain form for messages: 6 significant digits, "1e30" not "1e+30".
std::string format_number(double x);

// LaTeX form for worked solutions: 4 significant digits, "1.97 \times 10^{14}". Empty on
// the numbers-only path (inside a NumbersOnly scope), where no step is shown.
std::string latex_number(double x);

// While one lives, latex_number and latex_quantity return empty text at once: the registry
// opens one around a numbers-only calculation, so calculators whose steps are woven through
// their model skip the formatting that is most of a step's cost. It is per thread, the one
// piece of state the engine keeps, because threading an explain flag through every shared
// step helper would touch every model; new calculators test ResolvedInputs::explain() and
// build no steps at all.
class NumbersOnly {
 public:
  NumbersOnly();
  ~NumbersOnly();
  NumbersOnly(const NumbersOnly&) = delete;
  NumbersOnly& operator=(const NumbersOnly&) = delete;
  static bool active();

 private:
  bool was_;
};

}  // namespace scalebook

namespace scalebook {

// latex_number followed by the unit in upright text: "8.2 \times 10^{11}\ \text{B/s}".
std::string latex_quantity(double x, const std::string& unit);
// The same for a literal unit, which then needs no string built at each call.
std::string latex_quantity(double x, const char* unit);

}  // namespace scalebook

namespace scalebook {

// The styles the site and the exercises print numbers in; web/runtime/format.js mirrors them
// and tests/node checks the two agree.
//   si:  3 significant digits with an SI prefix and the unit ("5.08 ms", "820 GB/s")
//   sci: the book's scientific notation ("1.97e14");  int: rounded, with thousands commas;
//   num: 3 significant digits, no unit.
bool is_format_style(const std::string& style);
std::string format_value(double x, const std::string& unit, const std::string& style);

// A result's number as a page shows it, the one copy of the count-or-quantity rule: a count
// (a whole number in a unit SI prefixes do not suit: chips, tokens, devices) keeps every digit,
// with thousands commas ("262,144 elements"; "4,096×" for the unit x), since "4.1k devices"
// would misstate a mesh; a quantity is si ("5.08 ms").
std::string display_text(double x, const std::string& unit);

}  // namespace scalebook
