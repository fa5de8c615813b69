// The grading half of answer.h: the answer as parse_answer (answer.cpp) reads it, against the
// expected value and the known slips; and multiple-choice answers.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "answer_text.h"
#include "scalebook/core/format.h"
#include "scalebook/exercises/answer.h"

namespace scalebook {
namespace {

const char* described(Dimension d) {
  switch (d) {
    case Dimension::count:
      return "a count";
    case Dimension::time:
      return "a time";
    case Dimension::bytes:
      return "an amount of data";
    case Dimension::flops:
      return "a FLOP count";
    case Dimension::bandwidth:
      return "a bandwidth";
    case Dimension::flop_rate:
      return "a FLOP rate";
    case Dimension::intensity:
      return "an arithmetic intensity";
  }
  return "a count";
}

bool is_percent(const Unit& unit) { return unit.symbol == "%"; }

std::string wrong_unit(const Unit& expected, const Unit& given) {
  std::string asked = expected.symbol.empty()
                          ? std::string("expected a plain number")
                          : expected.symbol + " is " + described(expected.dimension);
  const char* kind = is_percent(given) ? "a percentage" : described(given.dimension);
  return asked + ", but this answer is " + kind + " (" + given.symbol + ")";
}

// A plain number strictly between 0 and 1 is a fraction, never a count: only there does a
// percentage answer the question.
bool wants_fraction(double expected, const Unit& unit) {
  return unit.symbol.empty() && expected > 0 && expected < 1;
}

// An exact power of two, up to the rounding of the calculation that gave it.
bool is_power_of_two(double x) {
  if (!(x >= 1) || !std::isfinite(x)) return false;
  double nearest = std::exp2(std::round(std::log2(x)));
  return std::fabs(x / nearest - 1) <= 1e-9;
}

bool within(double value, double expected, Tolerance tol) {
  double rel = std::isfinite(tol.rel) ? std::max(tol.rel, 0.0) : 0.0;
  double abs = std::isfinite(tol.abs) ? std::max(tol.abs, 0.0) : 0.0;
  double bound = std::max(abs, rel * std::fabs(expected));
  double slack = 1e-12 * std::max(std::fabs(value), std::fabs(expected));
  return std::fabs(value - expected) <= bound + slack;
}

struct Slip {
  double ratio;
  const char* name;
  std::string feedback;
};

// The known slips; GB vs GiB only for quantities of bytes (a count 5% off is not one).
std::vector<Slip> slips(Dimension dimension) {
  bool bytes = dimension == Dimension::bytes || dimension == Dimension::bandwidth;
  const std::string prefix_hint = ": check the unit prefix";
  std::vector<Slip> list;
  for (int k = 1; k <= 4; ++k) {
    double thousand = std::pow(1000.0, k);
    double kibi = std::pow(1024.0, k);
    double binary = std::pow(1.024, k);
    std::string by_1000 = "off by a factor of " + format_number(thousand) + prefix_hint;
    std::string power = k == 1 ? "" : "^" + std::to_string(k);
    std::string by_1024 = "off by a factor of 1024" + power + prefix_hint;
    std::string si = "close, but that looks like GB vs GiB (powers of 1000 vs 1024)";
    list.push_back({thousand, "prefix-1000", by_1000});
    list.push_back({1 / thousand, "prefix-1000", by_1000});
    list.push_back({kibi, "prefix-1024", by_1024});
    list.push_back({1 / kibi, "prefix-1024", by_1024});
    if (!bytes) continue;
    list.push_back({binary, "si-vs-binary", si});
    list.push_back({1 / binary, "si-vs-binary", si});
  }
  std::string two =
      "off by a factor of 2: uni- vs bidirectional, or counting a multiply-add as one FLOP?";
  std::string eight = "off by a factor of 8: bits vs bytes?";
  list.push_back({2, "factor-2", two});
  list.push_back({0.5, "factor-2", two});
  list.push_back({8, "bits-vs-bytes", eight});
  list.push_back({0.125, "bits-vs-bytes", eight});
  return list;
}

// The known slip nearest to ratio = value / expected, if within max(rel, 1%) of it.
const Slip* find_slip(const std::vector<Slip>& list, double ratio, double rel) {
  if (!(ratio > 0) || !std::isfinite(ratio)) return nullptr;
  double tol = std::isfinite(rel) ? std::max(rel, 0.01) : 0.01;
  const Slip* best = nullptr;
  for (const Slip& slip : list) {
    if (std::fabs(ratio / slip.ratio - 1) > tol) continue;
    double distance = std::fabs(std::log(ratio / slip.ratio));
    if (best == nullptr || distance < std::fabs(std::log(ratio / best->ratio))) best = &slip;
  }
  return best;
}

// A way to read the answer: its value in the expected unit, and the note that says how, when
// the reading is not the plain one.
struct Reading {
  double value;
  std::string note;
};

// The answer as written; then, for a count that is a power of two, a multiplier as a power
// of 1024: "16k" is 16 x 1024 where 16384 is asked.
std::vector<Reading> readings(const Quantity& q, double value, double expected, const Unit& unit) {
  std::vector<Reading> list{{value, ""}};  // value: q in `unit`
  int power = answer_text::multiplier_power(q.multiplier);
  if (power == 0 || unit.dimension != Dimension::count || is_percent(q.unit) ||
      !is_power_of_two(expected)) {
    return list;
  }
  // From the number before the letter, so that 16 x 1024 is exactly 16384.
  double written = q.value / std::pow(1000.0, power);
  double to_unit = q.has_unit ? q.unit.factor / unit.factor : 1;
  double binary = written * std::pow(1024.0, power) * to_unit;
  std::string scale = power == 1 ? "1024" : "1024^" + std::to_string(power);
  std::string shown =
      binary == std::floor(binary) ? format_value(binary, "", "int") : format_number(binary);
  list.push_back({binary, format_number(written) + q.multiplier + " read as " +
                              format_number(written) + " x " + scale + " = " + shown});
  return list;
}

std::string with_note(std::string feedback, const std::string& note) {
  return note.empty() ? feedback : feedback + " (" + note + ")";
}

}  // namespace

Grade grade_answer(std::string_view text, double expected, const Unit& unit, Tolerance tol) {
  Grade grade;
  Result<Quantity> read = parse_answer(text);
  if (!read.ok()) {
    grade.feedback = read.error().message;
    return grade;
  }
  grade.parsed = true;
  const Quantity& q = read.value();
  bool misplaced_percent = is_percent(q.unit) && !wants_fraction(expected, unit);
  if (misplaced_percent || (q.has_unit && q.unit.dimension != unit.dimension)) {
    grade.slip = "wrong-unit";
    grade.feedback = wrong_unit(unit, q.unit);
    return grade;
  }
  double value = q.has_unit ? q.value * (q.unit.factor / unit.factor) : q.value;
  if (!std::isfinite(value)) {
    grade.feedback = "not quite";
    return grade;
  }
  std::vector<Reading> ways = readings(q, value, expected, unit);
  grade.value = value;
  for (const Reading& way : ways) {
    if (!within(way.value, expected, tol)) continue;
    grade.correct = true;
    grade.value = way.value;
    grade.feedback = with_note("correct", way.note);
    return grade;
  }
  // The last reading is the one most particular to this question ("8k" as 8192 is 2x off).
  std::vector<Slip> list = slips(unit.dimension);
  for (auto way = ways.rbegin(); way != ways.rend() && expected != 0; ++way) {
    if (const Slip* slip = find_slip(list, way->value / expected, tol.rel)) {
      grade.value = way->value;
      grade.feedback = with_note(slip->feedback, way->note);
      grade.slip = slip->name;
      return grade;
    }
  }
  if (!q.has_unit && wants_fraction(expected, unit) && within(value / 100, expected, tol)) {
    grade.slip = "percent-as-number";
    grade.feedback = "off by a factor of 100: a percentage? write it with %, like " +
                     format_number(q.value) + "%";
    return grade;
  }
  grade.feedback = "not quite";
  return grade;
}

Grade grade_choice(std::string_view text, const std::vector<std::string>& choices,
                   const std::string& expected) {
  Grade grade;
  if (answer_text::too_long(text, kMaxAnswerChars)) {
    grade.feedback = "the answer is too long";
    return grade;
  }
  std::string normal = answer_text::normalise(text);
  std::string_view given = answer_text::trim(normal);
  for (const std::string& choice : choices) {
    if (!answer_text::same_any_case(given, answer_text::trim(answer_text::normalise(choice)))) {
      continue;
    }
    grade.parsed = true;
    grade.correct = choice == expected;
    grade.feedback = grade.correct ? "correct" : "not quite";
    return grade;
  }
  grade.feedback = "choose one of the options";
  return grade;
}

}  // namespace scalebook
