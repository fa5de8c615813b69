// The forms people write answers in (spelled-out units, percentages, "~240", "16k" for a
// power of two), each beside the near-misses that must still be refused: 2x off, a wrong
// prefix, a wrong kind of unit, GB for GiB, a percentage where a count is wanted.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "scalebook/exercises/answer.h"

using namespace scalebook;

namespace {

Grade grade(const std::string& text, double expected, const std::string& unit, Tolerance tol = {}) {
  Result<Unit> u = parse_unit(unit);
  REQUIRE(u.ok());
  return grade_answer(text, expected, u.value(), tol);
}

struct Case {
  std::string text;
  double expected;
  std::string unit;
};

void check_correct(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO("answer \"" << c.text << "\" for " << c.expected << " " << c.unit);
    Grade g = grade(c.text, c.expected, c.unit);
    CHECK(g.parsed);
    CHECK(g.correct);
    CHECK(g.feedback == "correct");
    CHECK(g.value == Approx(c.expected).epsilon(1e-12));
  }
}

void check_refused(const Grade& g, const std::string& slip, const std::string& feedback) {
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

TEST_CASE("spelled-out units are read as their symbols", "[answer][forms]") {
  check_correct({
      {"1.01 milliseconds", 1.01, "ms"},
      {"1.01 millisecond", 1.01, "ms"},
      {"1.01 Milliseconds", 1.01, "ms"},
      {"1011 microseconds", 1.011, "ms"},
      {"559 microseconds", 559, "us"},
      {"0.559 milliseconds", 559, "us"},
      {"294 nanoseconds", 294, "ns"},
      {"5 picoseconds", 5, "ps"},
      {"2 seconds", 2, "s"},
      {"1 second", 1, "s"},
      {"2 sec", 2, "s"},
      {"3 minutes", 180, "s"},
      {"1 hour", 3600, "s"},
      {"12.5 gigabytes", 12.5, "GB"},
      {"12.5 GIGABYTES", 12.5, "GB"},
      {"1 byte", 1, "B"},
      {"625 kilobytes", 625, "kB"},
      {"4 terabytes", 4, "TB"},
      {"8 gibibytes", 8, "GiB"},
      {"512 kibibytes", 512, "KiB"},
      {"16 gigabits", 2, "GB"},
      {"45 gigabytes per second", 45, "GB/s"},
      {"45 gigabytes/second", 45, "GB/s"},
      {"45 gigabytes / s", 45, "GB/s"},
      {"45 GB per second", 45, "GB/s"},
      {"45 GB/sec", 45, "GB/s"},
      {"360 gigabits per second", 45, "GB/s"},
      {"197 teraFLOPS", 1.97e14, "FLOP/s"},
      {"197 teraFLOPs per second", 1.97e14, "FLOP/s"},
      {"2 teraflops", 2e12, "FLOP"},
      {"240 FLOPs per byte", 240, "FLOP/B"},
      {"240 flops per byte", 240, "FLOP/B"},
      {"240 Tokens", 240, "tokens"},
      {"16 parameters", 16, "params"},
  });
}

TEST_CASE("a spelled-out unit wrong by a prefix, 2x, a kind or GB vs GiB is refused",
          "[answer][forms]") {
  check_refused(grade("559 milliseconds", 559, "us"), "prefix-1000", kPrefix1000);
  check_refused(grade("559 ms", 559, "us"), "prefix-1000", kPrefix1000);
  check_refused(grade("559 nanoseconds", 559, "us"), "prefix-1000", kPrefix1000);
  check_refused(grade("2.02 milliseconds", 1.01, "ms"), "factor-2", kFactor2);
  check_refused(grade("45 megabytes per second", 45, "GB/s"), "prefix-1000", kPrefix1000);
  check_refused(grade("45 gigabits per second", 45, "GB/s"), "bits-vs-bytes", kBits);
  check_refused(grade("1 gigabyte per second", 1, "ms"), "wrong-unit",
                "ms is a time, but this answer is a bandwidth (GB/s)");
  check_refused(grade("1 GB/s", 1, "ms"), "wrong-unit",
                "ms is a time, but this answer is a bandwidth (GB/s)");
  check_refused(grade("1.01 milliseconds", 1.01, "GB"), "wrong-unit",
                "GB is an amount of data, but this answer is a time (ms)");
  check_refused(grade("197 teraflops", 1.97e14, "FLOP/s"), "wrong-unit",
                "FLOP/s is a FLOP rate, but this answer is a FLOP count (Tflops)");
  check_refused(grade("16 gibibytes", 16e9, "B"), "si-vs-binary", kSiBinary);
  check_refused(grade("16 GiB", 16e9, "B"), "si-vs-binary", kSiBinary);
  check_refused(grade("16 gigabytes", 16, "GiB"), "si-vs-binary", kSiBinary);
}

TEST_CASE("words that make no unit are unknown units, not guesses", "[answer][forms]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"5 kiloseconds", "unknown unit \"kiloseconds\""},
      {"5 megaseconds", "unknown unit \"megaseconds\""},
      {"5 millibytes", "unknown unit \"millibytes\""},
      {"5 gibibits", "unknown unit \"gibibits\""},
      {"5 kilotokens", "unknown unit \"kilotokens\""},
      {"5 seconds per second", "unknown unit \"seconds per second\""},
      {"5 tokens per second", "unknown unit \"tokens per second\""},
      {"5 gigabytes per", "unknown unit \"gigabytes per\""},
      {"5 gigabytes per second per second", "unknown unit \"gigabytes per second per second\""},
      {"5 MS", "unknown unit \"MS\""},
  };
  for (const auto& [text, message] : cases) {
    INFO("answer \"" << text << "\"");
    Result<Quantity> q = parse_answer(text);
    REQUIRE_FALSE(q.ok());
    CHECK(q.error().field == "answer");
    CHECK(q.error().message == message);
  }
}

TEST_CASE("a percentage answers a fraction asked as a plain number", "[answer][forms]") {
  check_correct({
      {"21.9%", 0.219, ""},
      {"21.9 %", 0.219, ""},
      {"21.9 percent", 0.219, ""},
      {"25%", 0.25, ""},
  });
  CHECK(grade("~22%", 0.219, "").correct);
  Result<Quantity> q = parse_answer("21.9%");
  REQUIRE(q.ok());
  CHECK(q.value().value == 21.9);
  CHECK(q.value().unit.symbol == "%");
}

TEST_CASE("a percentage is refused where a count or a unit is wanted", "[answer][forms]") {
  check_refused(grade("24000%", 240, "tokens"), "wrong-unit",
                "tokens is a count, but this answer is a percentage (%)");
  check_refused(grade("3200%", 32, ""), "wrong-unit",
                "expected a plain number, but this answer is a percentage (%)");
  check_refused(grade("200%", 2, ""), "wrong-unit",
                "expected a plain number, but this answer is a percentage (%)");
  check_refused(grade("50%", 0.5, "FLOP/B"), "wrong-unit",
                "FLOP/B is an arithmetic intensity, but this answer is a percentage (%)");
  check_refused(grade("43.8%", 0.219, ""), "factor-2", kFactor2);
  check_refused(grade("21.9", 0.219, ""), "percent-as-number",
                "off by a factor of 100: a percentage? write it with %, like 21.9%");
}

TEST_CASE("an approximate answer is read as its number", "[answer][forms]") {
  check_correct({
      {"~240", 240, "tokens"},
      {"\u2248240", 240, "tokens"},
      {"\u2248 240", 240, "tokens"},
      {"~ 240 tokens", 240, "tokens"},
      {"\u223c240", 240, "tokens"},
      {"  ~1.01 ms", 1.01, "ms"},
      {"~-5", -5, ""},
  });
  check_refused(grade("~480", 240, "tokens"), "factor-2", kFactor2);
  CHECK(parse_answer("~").error().message == "enter a number");
  CHECK(parse_answer("~~240").error().message == "\"~~240\" is not a number");
  CHECK(parse_answer("240~").error().message == "\"240~\" is not a number");
}

TEST_CASE("a k or M after the number reads as 1024 where the answer is a power of two",
          "[answer][forms]") {
  Grade g = grade("16k", 16384, "tokens");
  CHECK(g.correct);
  CHECK(g.value == 16384);
  CHECK(g.feedback == "correct (16k read as 16 x 1024 = 16,384)");
  CHECK(grade("8k", 8192, "").feedback == "correct (8k read as 8 x 1024 = 8,192)");
  CHECK(grade("8 K tokens", 8192, "tokens").feedback == "correct (8K read as 8 x 1024 = 8,192)");
  CHECK(grade("~16k", 16384, "tokens").correct);
  Grade m = grade("1M", 1048576, "params");
  CHECK(m.correct);
  CHECK(m.feedback == "correct (1M read as 1 x 1024^2 = 1,048,576)");
  // Where the decimal reading is already within tolerance it is taken, with no note.
  CHECK(grade("16.4k", 16384, "tokens").feedback == "correct");
  CHECK(grade("16k", 16000, "tokens").feedback == "correct");
}

TEST_CASE("the 1024 reading accepts nothing 2x off, nor bytes, times or non-powers",
          "[answer][forms]") {
  check_refused(grade("8k", 16384, "tokens"), "factor-2",
                kFactor2 + " (8k read as 8 x 1024 = 8,192)");
  check_refused(grade("32k", 16384, "tokens"), "factor-2",
                kFactor2 + " (32k read as 32 x 1024 = 32,768)");
  check_refused(grade("15k", 16384, "tokens"), "", "not quite");
  check_refused(grade("16k", 16385, "tokens"), "", "not quite");
  check_refused(grade("16k", 16384, "B"), "si-vs-binary", kSiBinary);
  check_refused(grade("16k bytes", 16384, "B"), "si-vs-binary", kSiBinary);
  CHECK_FALSE(grade("16k", 16384, "us").correct);
  CHECK_FALSE(grade("16k%", 0.5, "").parsed);
  CHECK(grade("16 KiB", 16384, "B").correct);
}
