#include "scalebook/core/format.h"

#include <catch2/catch.hpp>
#include <cmath>

using scalebook::display_text;
using scalebook::format_number;
using scalebook::latex_number;
using scalebook::latex_quantity;

TEST_CASE("numbers in messages are short and have no exponent plus sign", "[format]") {
  CHECK(format_number(-5) == "-5");
  CHECK(format_number(2.5) == "2.5");
  CHECK(format_number(1e30) == "1e30");
  CHECK(format_number(1e-7) == "1e-7");
  CHECK(format_number(std::nan("")) == "nan");
  CHECK(format_number(-INFINITY) == "-inf");
}

TEST_CASE("numbers in worked solutions are LaTeX with 4 significant digits", "[format]") {
  CHECK(latex_number(1.97e14) == "1.97 \\times 10^{14}");
  CHECK(latex_number(1e12) == "1 \\times 10^{12}");
  CHECK(latex_number(240.2439) == "240.2");
  CHECK(latex_number(0.5) == "0.5");
  CHECK(latex_number(5.0761e-3) == "5.076 \\times 10^{-3}");
  CHECK(latex_number(0) == "0");
  CHECK(latex_quantity(8.2e11, "B/s") == "8.2 \\times 10^{11}\\ \\text{B/s}");
}

TEST_CASE("values past the largest SI prefix are scientific, not thousands of exa", "[format]") {
  using scalebook::format_value;
  CHECK(format_value(5e29, "B", "si") == "5e29 B");
  CHECK(format_value(2.5e20, "B", "si") == "250 EB");
  CHECK(format_value(1.2e21, "FLOP", "si") == "1.2e21 FLOP");
}

TEST_CASE("formatting survives the largest doubles and rounds like Math.round", "[format]") {
  using scalebook::format_value;
  CHECK(format_value(1.7976931348623157e308, "", "num") == "1.8e308");
  CHECK(format_value(0.49999999999999994, "", "int") == "0");
  CHECK(format_value(2.5, "", "int") == "3");
  CHECK(format_value(-2.5, "", "int") == "-2");
  CHECK(format_value(1e300, "B", "si") == "1e300 B");
}

TEST_CASE("display_text: counts keep every digit, quantities take SI prefixes", "[format]") {
  // Counts: whole numbers in units the prefixes do not suit.
  CHECK(display_text(262144, "elements") == "262,144 elements");
  CHECK(display_text(4096, "") == "4,096");
  CHECK(display_text(4096, "x") == "4,096\u00d7");
  CHECK(display_text(1e15, "tokens") == "1e15 tokens");
  // Quantities, and counts that are not whole.
  CHECK(display_text(0.005076, "s") == "5.08 ms");
  CHECK(display_text(8.2e11, "B/s") == "820 GB/s");
  CHECK(display_text(65536, "B") == "65.5 kB");
  CHECK(display_text(1.5e9, "Hz") == "1.5 GHz");
  CHECK(display_text(2.5, "chips") == "2.5 chips");
  CHECK(display_text(std::nan(""), "chips") == "NaN");
}
