#include "scalebook/core/expr.h"

#include <catch2/catch.hpp>
#include <string>

using namespace scalebook;

namespace {

std::optional<double> names(std::string_view name) {
  if (name == "N") return 1e6;
  if (name == "p1.critical_batch") return 240.25;
  return std::nullopt;
}

double eval(const std::string& text) {
  Result<double> r = evaluate(text, names);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

std::string error_of(const std::string& text) {
  Result<double> r = evaluate(text, names);
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

}  // namespace

TEST_CASE("expressions follow the usual precedence", "[expr]") {
  CHECK(eval("1 + 2 * 3") == 7);
  CHECK(eval("(1 + 2) * 3") == 9);
  CHECK(eval("2 ^ 3 ^ 2") == 512);
  CHECK(eval("-2 ^ 2") == 4);
  CHECK(eval("(2 * N - 1) / (4 * N + 2)") == Approx(0.49999925));
  CHECK(eval("2^-2") == 0.25);
  CHECK(eval("1.5e3 + .5") == 1500.5);
}

TEST_CASE("comparisons, logic, min and max give numbers", "[expr]") {
  CHECK(eval("N > 1000") == 1);
  CHECK(eval("N <= 1000 || 1 == 1") == 1);
  CHECK(eval("1 < 2 && 2 < 1") == 0);
  CHECK(eval("min(3, max(1, 2))") == 2);
  CHECK(eval("p1.critical_batch * 2") == 480.5);
}

TEST_CASE("bad expressions say what and where", "[expr]") {
  CHECK(error_of("1 +") == "in \"1 +\" at 4: expected a number or a name");
  CHECK(error_of("B * 2") == "in \"B * 2\" at 2: unknown name \"B\"");
  CHECK(error_of("1 / 0") == "in \"1 / 0\" at 6: division by zero");
  CHECK(error_of("2 ^ 0.5") ==
        "in \"2 ^ 0.5\" at 8: powers must be whole numbers from -64 to 64, got 0.5");
  CHECK(error_of("(1") == "in \"(1\" at 3: expected \")\"");
  CHECK(error_of("1 $ 2") == "in \"1 $ 2\" at 3: unexpected \"$\"");
  CHECK(error_of(std::string(200, '(') + "1").find("nested too deeply") != std::string::npos);
  CHECK(error_of(std::string(600, '1')) == "expression is longer than 500 characters");
}
