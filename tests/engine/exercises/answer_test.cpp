#include "scalebook/exercises/answer.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

using namespace scalebook;

namespace {

struct Accepted {
  std::string text;
  double value;
  std::string unit;  // "" for a bare number
};

struct Rejected {
  std::string text;
  std::string message;
};

const std::string kFinite = "the number must be finite";

std::string nan_msg(const std::string& shown) { return "\"" + shown + "\" is not a number"; }

Unit unit_of(const std::string& symbol) {
  Result<Unit> unit = parse_unit(symbol);
  REQUIRE(unit.ok());
  return unit.value();
}

Grade grade(const std::string& text, double expected, const std::string& unit, Tolerance tol = {}) {
  return grade_answer(text, expected, unit_of(unit), tol);
}

void check_slip(const Grade& g, const std::string& slip, const std::string& feedback) {
  CHECK(g.parsed);
  CHECK_FALSE(g.correct);
  CHECK(g.slip == slip);
  CHECK(g.feedback == feedback);
}

const std::string kPrefix1000 = "off by a factor of 1000: check the unit prefix";
const std::string kSiBinary = "close, but that looks like GB vs GiB (powers of 1000 vs 1024)";
const std::string kFactor2 =
    "off by a factor of 2: uni- vs bidirectional, or counting a multiply-add as one FLOP?";
const std::string kBits = "off by a factor of 8: bits vs bytes?";

}  // namespace

TEST_CASE("answers are read as written, in the unit written", "[answer]") {
  const std::vector<Accepted> cases = {
      {"45e9", 45e9, ""},
      {"4.5e10 B/s", 4.5e10, "B/s"},
      {"45 GB/s", 45, "GB/s"},
      {"45GB/s", 45, "GB/s"},
      {"45 GB / s", 45, "GB/s"},
      {"45\u00a0GB/s", 45, "GB/s"},
      {"1.2 ms", 1.2, "ms"},
      {"1200 us", 1200, "us"},
      {"1200 \u00b5s", 1200, "\u00b5s"},
      {"1200 \u03bcs", 1200, "\u03bcs"},
      {"2^14", 16384, ""},
      {"2**14", 16384, ""},
      {"2 ^ 10", 1024, ""},
      {"2^-1", 0.5, ""},
      {"-2^2", -4, ""},
      {"10^-3", 1e-3, ""},
      {"10^14", 1e14, ""},
      {"2^30 B", 1073741824, "B"},
      {"16 GiB", 16, "GiB"},
      {"1.5k", 1500, ""},
      {"1.5K", 1500, ""},
      {"2M", 2e6, ""},
      {"3 G", 3e9, ""},
      {"4T", 4e12, ""},
      {"0.5P", 5e14, ""},
      {"1.5k tokens", 1500, "tokens"},
      {"240 tokens", 240, "tokens"},
      {"1 token", 1, "token"},
      {"3x", 3, "x"},
      {"3 \u00d7", 3, "x"},
      {"\u22125", -5, ""},
      {"\u22121.5e3 s", -1500, "s"},
      {"-5", -5, ""},
      {"+240", 240, ""},
      {"1,000", 1000, ""},
      {"1,000,000.5", 1000000.5, ""},
      {"-1,024 MiB", -1024, "MiB"},
      {"999,999", 999999, ""},
      {"1.97e14", 1.97e14, ""},
      {"1.97E+14", 1.97e14, ""},
      {"5e-3", 5e-3, ""},
      {"1.97 x 10^14", 1.97e14, ""},
      {"1.97x10^14", 1.97e14, ""},
      {"1.97\u00d710^14", 1.97e14, ""},
      {"1.97*10^14", 1.97e14, ""},
      {"1.97 * 10**14", 1.97e14, ""},
      {"1.97 \u00d7 10\u00b9\u2074", 1.97e14, ""},
      {"1.97\u00b710\u00b9\u2074 FLOP/s", 1.97e14, "FLOP/s"},
      {"5 \u00d7 10\u207b\u00b3 s", 5e-3, "s"},
      {"2\u00b9\u2070", 1024, ""},
      {"  240  ", 240, ""},
      {"\t240\n", 240, ""},
      {".5", 0.5, ""},
      {"5.", 5, ""},
      {"-.5e-3", -5e-4, ""},
      {"0", 0, ""},
      {"007", 7, ""},
      {"197 TFLOPs/s", 197, "TFLOPs/s"},
      {"197 TFLOPS", 197, "TFLOPS"},
      {"820 GB/s", 820, "GB/s"},
      {"400 Gbps", 400, "Gbps"},
      {"240 FLOP/B", 240, "FLOP/B"},
      {"3 EB", 3, "EB"},
      {"1e308", 1e308, ""},
      {"1e-3 s", 1e-3, "s"},
      {std::string(200, '1'), 1.111111111111111e199, ""},
  };
  for (const Accepted& c : cases) {
    INFO("answer \"" << c.text << "\"");
    Result<Quantity> q = parse_answer(c.text);
    if (!q.ok()) FAIL(q.error().message);
    CHECK(q.value().value == Approx(c.value).epsilon(1e-14));
    CHECK(q.value().unit.symbol == c.unit);
    CHECK(q.value().has_unit == !c.unit.empty());
  }
}

TEST_CASE("a bare number has the count unit with factor 1", "[answer]") {
  Result<Quantity> q = parse_answer("42");
  REQUIRE(q.ok());
  CHECK_FALSE(q.value().has_unit);
  CHECK(q.value().unit.symbol.empty());
  CHECK(q.value().unit.dimension == Dimension::count);
  CHECK(q.value().unit.factor == 1);
}

TEST_CASE("an answer in GiB keeps its value and carries the binary factor", "[answer]") {
  Result<Quantity> q = parse_answer("16 GiB");
  REQUIRE(q.ok());
  CHECK(q.value().value == 16);
  CHECK(q.value().has_unit);
  CHECK(q.value().unit.dimension == Dimension::bytes);
  CHECK(q.value().unit.factor == 1073741824.0);
}

TEST_CASE("powers and scientific forms are exact where the decimal is", "[answer]") {
  CHECK(parse_answer("2^14").value().value == 16384);
  CHECK(parse_answer("1.5k").value().value == 1500);
  CHECK(parse_answer("10^-3").value().value == 1e-3);
  CHECK(parse_answer("1.97 x 10^14").value().value == 1.97e14);
  CHECK(parse_answer("0.1k").value().value == 100);
}

TEST_CASE("unreadable answers are rejected with a message naming the problem", "[answer]") {
  const std::vector<Rejected> cases = {
      {"", "enter a number"},
      {"   ", "enter a number"},
      {"\t\n ", "enter a number"},
      {"\u00a0", "enter a number"},
      {"abc", nan_msg("abc")},
      {" abc ", nan_msg("abc")},
      {"1.2.3", nan_msg("1.2.3")},
      {"--5", nan_msg("--5")},
      {"+-5", nan_msg("+-5")},
      {"- 5", nan_msg("- 5")},
      {"5e", nan_msg("5e")},
      {"5e+", nan_msg("5e+")},
      {"5eggs", nan_msg("5eggs")},
      {"e5", nan_msg("e5")},
      {"2^", nan_msg("2^")},
      {"2**", nan_msg("2**")},
      {"2^1.5", nan_msg("2^1.5")},
      {"1.97 x 10^", nan_msg("1.97 x 10^")},
      {"1.97 x 10", nan_msg("1.97 x 10")},
      {"x 10^3", nan_msg("x 10^3")},
      {".", nan_msg(".")},
      {"-", nan_msg("-")},
      {"+", nan_msg("+")},
      {",5", nan_msg(",5")},
      {"1,", nan_msg("1,")},
      {"1,000,00", nan_msg("1,000,00")},
      {"12,34,567", nan_msg("12,34,567")},
      {"1 000", nan_msg("1 000")},
      {"0x10", nan_msg("0x10")},
      {"5 GB 3", nan_msg("5 GB 3")},
      {"$5", nan_msg("$5")},
      {"5%%", nan_msg("5%%")},
      {"\xf0\x9f\x98\x80", nan_msg("\xf0\x9f\x98\x80")},
      {"5 \xf0\x9f\x98\x80", nan_msg("5 \xf0\x9f\x98\x80")},
      {"\xd9\xa1\xd9\xa2", nan_msg("\xd9\xa1\xd9\xa2")},
      {"1,5", "use a point for decimals: \"1,5\""},
      {"3,14 GB", "use a point for decimals: \"3,14 GB\""},
      {"1234,567", "use a point for decimals: \"1234,567\""},
      {"0,25", "use a point for decimals: \"0,25\""},
      {"nan", kFinite},
      {"NaN", kFinite},
      {"-nan", kFinite},
      {"inf", kFinite},
      {"-inf", kFinite},
      {"Infinity", kFinite},
      {"\u2212Infinity", kFinite},
      {"\u221e", kFinite},
      {"inf GB", kFinite},
      {"1e999", kFinite},
      {"1e400", kFinite},
      {"-1e400", kFinite},
      {"1e99999999999999999999", kFinite},
      {"2^5000", kFinite},
      {"10^400", kFinite},
      {"0^-1", kFinite},
      {"1.97 x 10^400", kFinite},
      {"1e308 EB", kFinite},
      {"12 furlongs", "unknown unit \"furlongs\""},
      {"12furlongs", "unknown unit \"furlongs\""},
      {"5 Ms", "unknown unit \"Ms\""},
      {"5 gb", "unknown unit \"gb\""},
      {"5 e", "unknown unit \"e\""},
      {"5 GB/ms", "unknown unit \"GB/ms\""},
      {"5 GB\xf0\x9f\x98\x80", "unknown unit \"GB\xf0\x9f\x98\x80\""},
      {std::string(201, '1'), "the answer is too long"},
      {std::string(300, ' '), "the answer is too long"},
      {std::string("5\0", 2), "the answer contains a control character"},
      {std::string("5\0 GB", 5), "the answer contains a control character"},
      {std::string(1, '\0'), "the answer contains a control character"},
      {"5\x1b[0m", "the answer contains a control character"},
      {"5\x7f", "the answer contains a control character"},
      {"\xff\xfe", "the answer is not valid text"},
      {"5 \xc3", "the answer is not valid text"},
      {"\xc0\xb5", "the answer is not valid text"},
      {"\xed\xa0\x80", "the answer is not valid text"},
  };
  for (const Rejected& c : cases) {
    INFO("answer \"" << c.text << "\"");
    Result<Quantity> q = parse_answer(c.text);
    REQUIRE_FALSE(q.ok());
    CHECK(q.error().code == ErrorCode::invalid_argument);
    CHECK(q.error().field == "answer");
    CHECK(q.error().message == c.message);
  }
}

TEST_CASE("the length limit counts characters, not bytes", "[answer]") {
  std::string emoji = "\xf0\x9f\x98\x80";
  std::string two_hundred;
  for (int i = 0; i < 200; ++i) two_hundred += emoji;
  CHECK(parse_answer(two_hundred).error().message == nan_msg(two_hundred));
  CHECK(parse_answer(two_hundred + emoji).error().message == "the answer is too long");
  CHECK(parse_answer("5" + std::string(199, ' ')).ok());
}

TEST_CASE("a correct answer is within the relative tolerance, edges included", "[grade]") {
  Tolerance tol{0.02, 0};
  CHECK(grade("100", 100, "", tol).correct);
  CHECK(grade("102", 100, "", tol).correct);
  CHECK(grade("98", 100, "", tol).correct);
  CHECK_FALSE(grade("102.01", 100, "", tol).correct);
  CHECK_FALSE(grade("97.99", 100, "", tol).correct);
  CHECK(grade("1.02 ms", 1, "ms", tol).correct);
  CHECK(grade("1020 us", 1, "ms", tol).correct);
  CHECK_FALSE(grade("1021 us", 1, "ms", tol).correct);
  CHECK(grade("-102", -100, "", tol).correct);
  CHECK_FALSE(grade("-103", -100, "", tol).correct);
}

TEST_CASE("a correct answer says so and reports the value in the expected unit", "[grade]") {
  Grade g = grade("1.011", 1.011, "ms");
  CHECK(g.correct);
  CHECK(g.parsed);
  CHECK(g.value == 1.011);
  CHECK(g.feedback == "correct");
  CHECK(g.slip.empty());
}

TEST_CASE("the default tolerance is 2 percent", "[grade]") {
  Tolerance tol;
  CHECK(tol.rel == 0.02);
  CHECK(tol.abs == 0);
  CHECK(grade("0.98", 1, "").correct);
  CHECK_FALSE(grade("0.979", 1, "").correct);
}

TEST_CASE("the absolute tolerance widens the window", "[grade]") {
  Tolerance tol{0, 0.5};
  CHECK(grade("10.5", 10, "", tol).correct);
  CHECK(grade("9.5", 10, "", tol).correct);
  CHECK_FALSE(grade("10.6", 10, "", tol).correct);
  CHECK(grade("10.3", 10, "", Tolerance{0.05, 0.2}).correct);  // rel 5% gives 0.5
}

TEST_CASE("with expected zero only the absolute tolerance counts", "[grade]") {
  CHECK(grade("0", 0, "").correct);
  CHECK(grade("-0", 0, "").correct);
  Grade g = grade("0.001", 0, "");
  CHECK_FALSE(g.correct);
  CHECK(g.feedback == "not quite");
  CHECK(g.slip.empty());
  CHECK(grade("0.01", 0, "", Tolerance{0.02, 0.01}).correct);
  CHECK_FALSE(grade("0.011", 0, "", Tolerance{0.02, 0.01}).correct);
}

TEST_CASE("a bare number is read in the part's unit", "[grade]") {
  Grade g = grade("1.2", 1.2, "ms");
  CHECK(g.correct);
  CHECK(g.value == 1.2);
  CHECK(grade("1.5k", 1500, "tokens").correct);
  CHECK(grade("2^14", 16384, "").correct);
}

TEST_CASE("an answer in another unit of the same dimension is converted", "[grade]") {
  Grade g = grade("1200 us", 1.2, "ms");
  CHECK(g.correct);
  CHECK(g.value == Approx(1.2));
  CHECK(grade("1.2e-3 s", 1.2, "ms").correct);
  CHECK(grade("1200 \u00b5s", 1.2, "ms").correct);
  CHECK(grade("0.02 min", 1.2, "s").correct);
  CHECK(grade("4.5e10 B/s", 45, "GB/s").correct);
  CHECK(grade("360 Gbps", 45, "GB/s").correct);
  CHECK(grade("0.197 PFLOPS", 1.97e14, "FLOP/s").correct);
  CHECK(grade("16 GiB", 17179869184, "B").correct);
  CHECK(grade("240 tokens", 240, "").correct);
  CHECK(grade("3 x", 3, "").correct);
}

TEST_CASE("an answer of another dimension names both units", "[grade]") {
  Grade g = grade("45 GB/s", 1.2, "ms");
  CHECK(g.parsed);
  CHECK_FALSE(g.correct);
  CHECK(g.value == 0);
  CHECK(g.slip == "wrong-unit");
  CHECK(g.feedback == "ms is a time, but this answer is a bandwidth (GB/s)");
  CHECK(grade("1.2 ms", 45, "GB/s").feedback ==
        "GB/s is a bandwidth, but this answer is a time (ms)");
  CHECK(grade("16 GB", 16, "").feedback ==
        "expected a plain number, but this answer is an amount of data (GB)");
  CHECK(grade("2 TFLOP", 2, "TFLOP/s").feedback ==
        "TFLOP/s is a FLOP rate, but this answer is a FLOP count (TFLOP)");
  CHECK(grade("240 FLOPs/B", 240, "tokens").feedback ==
        "tokens is a count, but this answer is an arithmetic intensity (FLOPs/B)");
}

TEST_CASE("an answer off by a power of 1000 points at the prefix", "[grade][slip]") {
  check_slip(grade("45 MB/s", 45, "GB/s"), "prefix-1000", kPrefix1000);
  check_slip(grade("45 TB/s", 45, "GB/s"), "prefix-1000", kPrefix1000);
  check_slip(grade("1.2", 1.2e-3, "s"), "prefix-1000", kPrefix1000);
  check_slip(grade("45e3", 45, "GB/s"), "prefix-1000", kPrefix1000);
  check_slip(grade("45e9", 45, "GB/s"), "prefix-1000",
             "off by a factor of 1e9: check the unit prefix");
  check_slip(grade("1.2 s", 1.2, "us"), "prefix-1000",
             "off by a factor of 1e6: check the unit prefix");
  check_slip(grade("1.97e14", 197, "FLOP/s"), "prefix-1000",
             "off by a factor of 1e12: check the unit prefix");
}

TEST_CASE("an answer off by a power of 1024 points at the prefix", "[grade][slip]") {
  check_slip(grade("16384", 16, "GiB"), "prefix-1024",
             "off by a factor of 1024: check the unit prefix");
  check_slip(grade("17179869184", 16, "GiB"), "prefix-1024",
             "off by a factor of 1024^3: check the unit prefix");
  check_slip(grade("0.015625", 16, "KiB"), "prefix-1024",
             "off by a factor of 1024: check the unit prefix");
}

TEST_CASE("GB for GiB is a small slip between powers of 1000 and 1024", "[grade][slip]") {
  check_slip(grade("16 GB", 16, "GiB"), "si-vs-binary", kSiBinary);
  check_slip(grade("16 GiB", 16, "GB"), "si-vs-binary", kSiBinary);
  check_slip(grade("1 KiB", 1, "kB"), "si-vs-binary", kSiBinary);
  check_slip(grade("1 TiB", 1, "TB"), "si-vs-binary", kSiBinary);
  Grade g = grade("16 GB", 16, "GiB");
  CHECK(g.value == Approx(14.901161193847656));
}

TEST_CASE("an answer off by 2 hints at direction or multiply-adds", "[grade][slip]") {
  check_slip(grade("9e10 B/s", 4.5e10, "B/s"), "factor-2", kFactor2);
  check_slip(grade("2.25e10", 4.5e10, "B/s"), "factor-2", kFactor2);
  check_slip(grade("4e12 FLOP", 2e12, "FLOP"), "factor-2", kFactor2);
}

TEST_CASE("an answer off by 8 hints at bits and bytes", "[grade][slip]") {
  check_slip(grade("45 Gb/s", 45, "GB/s"), "bits-vs-bytes", kBits);
  check_slip(grade("360", 45, "GB/s"), "bits-vs-bytes", kBits);
  check_slip(grade("16 Gb", 16, "GB"), "bits-vs-bytes", kBits);
}

TEST_CASE("only bytes are taken for GB vs GiB; a count a few percent off is not quite",
          "[grade][slip]") {
  // Chapter 4's 16.6e9 parameters (4096 rounded to 4e3) against the exact 17.44e9: 1.024^2 off.
  check_slip(grade("16.6e9", 17442275328, "params", Tolerance{0.02, 0}), "", "not quite");
  check_slip(grade("16.6e9", 17442275328, "B", Tolerance{0.02, 0}), "si-vs-binary", kSiBinary);
  check_slip(grade("16.6 GB/s", 17.44, "GB/s", Tolerance{0.02, 0}), "si-vs-binary", kSiBinary);
}

TEST_CASE("a slip is recognised within the tolerance but at least 1 percent", "[grade][slip]") {
  check_slip(grade("2.01", 1, "", Tolerance{0, 0}), "factor-2", kFactor2);
  check_slip(grade("0.496", 1, "", Tolerance{0, 0}), "factor-2", kFactor2);
  check_slip(grade("0.49", 1, "", Tolerance{0, 0}), "", "not quite");
  check_slip(grade("2.03", 1, "", Tolerance{0, 0}), "", "not quite");
  check_slip(grade("2.09", 1, "", Tolerance{0.05, 0}), "factor-2", kFactor2);
  check_slip(grade("2.11", 1, "", Tolerance{0.05, 0}), "", "not quite");
  check_slip(grade("1010", 1, "", Tolerance{0.02, 0}), "prefix-1000", kPrefix1000);
  check_slip(grade("1020", 1, "", Tolerance{0.02, 0}), "prefix-1024",
             "off by a factor of 1024: check the unit prefix");
}

TEST_CASE("a slip is only reported for a wrong answer", "[grade][slip]") {
  Grade g = grade("2", 1, "", Tolerance{1.5, 0});
  CHECK(g.correct);
  CHECK(g.slip.empty());
  CHECK(g.feedback == "correct");
}

TEST_CASE("a wrong answer with no recognised slip gets no hint", "[grade]") {
  check_slip(grade("150", 100, ""), "", "not quite");
  check_slip(grade("-5", 5, ""), "", "not quite");
  check_slip(grade("-10", 5, ""), "", "not quite");
  check_slip(grade("3", 100, "ms"), "", "not quite");
}

TEST_CASE("an unreadable answer is graded with the parse message", "[grade]") {
  for (const std::string& text :
       {std::string("abc"), std::string(""), std::string("1,5"), std::string("nan"),
        std::string("12 furlongs"), std::string(250, '9'), std::string("\0", 1)}) {
    INFO("answer \"" << text << "\"");
    Grade g = grade(text, 1, "ms");
    CHECK_FALSE(g.parsed);
    CHECK_FALSE(g.correct);
    CHECK(g.value == 0);
    CHECK(g.slip.empty());
    CHECK(g.feedback == parse_answer(text).error().message);
  }
  CHECK(grade("abc", 1, "ms").feedback == "\"abc\" is not a number");
}

TEST_CASE("grading never yields a non-finite value", "[grade]") {
  Grade g = grade("1e300 h", 1, "ps");
  CHECK(g.parsed);
  CHECK_FALSE(g.correct);
  CHECK(g.value == 0);
  CHECK(g.feedback == "not quite");
  Grade n = grade("5", std::nan(""), "");
  CHECK_FALSE(n.correct);
  CHECK(std::isfinite(n.value));
  CHECK(n.feedback == "not quite");
  Grade t = grade("5", 5, "", Tolerance{std::nan(""), -1});
  CHECK(t.correct);
}
