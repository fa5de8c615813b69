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

std::string wrong_unit(const Unit& expected, const Unit& given) {
  std::string asked = expected.symbol.empty()
                          ? std::string("expected a plain number")
                          : expected.symbol + " is " + described(expected.dimension);
  return asked + ", but this answer is " + described(given.dimension) + " (" + given.symbol + ")";
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
  if (q.has_unit && q.unit.dimension != unit.dimension) {
    grade.slip = "wrong-unit";
    grade.feedback = wrong_unit(unit, q.unit);
    return grade;
  }
  double value = q.has_unit ? q.value * (q.unit.factor / unit.factor) : q.value;
  if (!std::isfinite(value)) {
    grade.feedback = "not quite";
    return grade;
  }
  grade.value = value;
  grade.correct = within(value, expected, tol);
  if (grade.correct) {
    grade.feedback = "correct";
    return grade;
  }
  std::vector<Slip> list = slips(unit.dimension);
  const Slip* slip = expected == 0 ? nullptr : find_slip(list, value / expected, tol.rel);
  grade.feedback = slip ? slip->feedback : "not quite";
  grade.slip = slip ? slip->name : "";
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
