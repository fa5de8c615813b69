// Variants: parameters drawn from a seed, the parts computed by the calculators
// (variant_parts.cpp), the prompt filled in. Drawing uses only integer arithmetic and correctly
// rounded printf/strtod, so a seed gives the same variant natively and in WebAssembly.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "answer_text.h"
#include "scalebook/core/expr.h"
#include "scalebook/core/format.h"
#include "scalebook/exercises/exercise.h"
#include "variant_parts.h"

namespace scalebook {
namespace {

constexpr int kMaxDraws = 200;

// splitmix64: tiny, well mixed, and identical on every platform.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

uint64_t fnv1a(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

double round_significant(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
  return std::strtod(buf, nullptr);
}

std::vector<double> candidates(const ParamSpec& p) {
  std::vector<double> out;
  if (p.power_of_two) {
    for (double v = 1; v <= p.max; v *= 2)
      if (v >= p.min) out.push_back(v);
  } else if (p.nice) {
    static const double kMantissas[] = {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8};
    double decade = 1;
    while (decade > p.min) decade /= 10;
    while (decade * 10 <= p.min) decade *= 10;
    for (; decade <= p.max && out.size() < 2000; decade *= 10) {
      for (double m : kMantissas) {
        double v = round_significant(m * decade, 3);
        if (v >= p.min && v <= p.max) out.push_back(v);
      }
    }
  }
  return out;
}

Value draw(const ParamSpec& p, Random& rng) {
  // choices ["catalog"]: no value, so the inputs fed this parameter are left out.
  if (p.book.is_number() && !p.choices.empty()) return Value::none();
  if (!p.choices.empty() && p.book.is_text()) {
    return Value::of(p.choices[rng.below(p.choices.size())]);
  }
  if (p.min == p.max) return Value::of(p.min);
  std::vector<double> options = candidates(p);
  if (!options.empty()) return Value::of(options[rng.below(options.size())]);
  if (p.integer && p.max - p.min < 4e9) {  // size_t is 32 bits in WebAssembly
    auto span = static_cast<size_t>(p.max - p.min) + 1;
    return Value::of(p.min + static_cast<double>(rng.below(span)));
  }
  if (p.integer) return Value::of(std::floor(p.min + rng.unit() * (p.max - p.min) + 0.5));
  return Value::of(round_significant(p.min + rng.unit() * (p.max - p.min), 3));
}

using variant_parts::Computed;
using variant_parts::Params;

bool conditions_hold(const ExerciseSpec& e, const Computed& computed, Error& error) {
  NameLookup lookup = [&](std::string_view name) -> std::optional<double> {
    for (const auto& [key, value] : computed.numbers)
      if (key == name) return value;
    return std::nullopt;
  };
  for (const std::string& condition : e.conditions) {
    Result<double> holds = evaluate(condition, lookup);
    if (!holds.ok()) {
      error = Error{ErrorCode::invalid_argument, "conditions", holds.error().message};
      return false;
    }
    if (holds.value() == 0) return false;
  }
  return true;
}

std::string fill(const std::string& prompt, const Computed& computed, Error& error) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = prompt.find("{{", pos);
    if (open == std::string::npos) break;
    size_t close = prompt.find("}}", open);
    if (close == std::string::npos) break;
    std::string name = prompt.substr(open + 2, close - open - 2);
    while (!name.empty() && name.front() == ' ') name.erase(0, 1);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    out += prompt.substr(pos, open - pos);
    bool found = false;
    for (const auto& [key, text] : computed.printed) {
      if (key == name) {
        out += text;
        found = true;
        break;
      }
    }
    if (!found && error.message.empty()) {
      error = Error{ErrorCode::invalid_argument, "prompt",
                    "the prompt uses {{" + name + "}}, which is no parameter or value"};
    }
    pos = close + 2;
  }
  return out + prompt.substr(pos);
}

}  // namespace

Result<uint32_t> parse_seed(const Value& seed) {
  double x = -1;
  if (seed.is_number()) {
    x = seed.number;
  } else if (seed.is_text() && !seed.text.empty() && seed.text.size() <= 10 &&
             seed.text.find_first_not_of("0123456789") == std::string::npos) {
    x = std::strtod(seed.text.c_str(), nullptr);
  }
  if (!(x >= 0 && x <= 4294967295.0 && x == std::floor(x))) {
    // A whole number just past the range prints in full: "4.29497e9" would read as in range.
    bool whole = seed.is_number() && std::fabs(x) < 1e15 && x == std::floor(x);
    std::string shown = seed.is_text() ? "\"" + seed.text + "\""
                        : whole        ? std::to_string(static_cast<long long>(x))
                                       : format_number(seed.number);
    return Error{ErrorCode::invalid_argument, "seed",
                 "seed must be a whole number from 0 to 4294967295, got " + shown};
  }
  return static_cast<uint32_t>(x);
}

Result<Variant> make_variant(const ExerciseSpec& e, uint32_t seed) {
  Random rng(fnv1a(e.id) ^ (static_cast<uint64_t>(seed) * 0x9E3779B97F4A7C15ull));
  for (int attempt = 0; attempt < kMaxDraws; ++attempt) {
    Params params;
    for (const ParamSpec& p : e.params)
      params.emplace_back(p.name, seed == 0 ? p.book : draw(p, rng));
    Result<Computed> computed = variant_parts::compute(e, params);
    if (!computed.ok()) {
      if (seed == 0) return computed.error();
      continue;  // a draw the calculators reject (e.g. a dtype a chip lacks): draw again
    }
    Error error;
    bool holds = conditions_hold(e, computed.value(), error);
    if (!error.message.empty()) return error;
    if (!holds) {
      if (seed == 0) {
        return Error{ErrorCode::invalid_argument, "conditions",
                     "the book's own values do not satisfy the conditions"};
      }
      continue;
    }
    Variant v{e.id,    seed,
              e.title, fill(e.prompt, computed.value(), error),
              params,  std::move(computed.value().parts)};
    if (!error.message.empty()) return error;
    return v;
  }
  return Error{ErrorCode::out_of_range, "seed",
               "no variant of " + e.id + " satisfies its conditions after " +
                   std::to_string(kMaxDraws) + " draws"};
}

Result<PartGrade> grade_part(const ExerciseSpec& e, uint32_t seed, size_t index,
                             std::string_view answer) {
  if (index >= e.parts.size()) {
    return Error{ErrorCode::out_of_range, "part",
                 e.id + " has " + std::to_string(e.parts.size()) + " part(s), got part " +
                     std::to_string(index + 1)};
  }
  Result<Variant> v = make_variant(e, seed);
  if (!v.ok()) return v.error();
  PartVariant part = v.value().parts[index];
  PartGrade out{{}, part};
  if (part.kind == "choice") {
    out.grade = grade_choice(answer, part.choices, part.expected_choice);
    return out;
  }
  Result<Unit> unit = parse_unit(part.unit);
  if (!unit.ok()) return unit.error();
  out.grade = grade_answer(answer, part.expected, unit.value(), part.tolerance);
  return out;
}

std::optional<Error> check_budget(const ExerciseFile& file, uint32_t seeds,
                                  double max_calculations) {
  double per_variant = 0;
  for (const ExerciseSpec& e : file.exercises)
    per_variant += static_cast<double>(e.values.size() + e.parts.size());
  const double variants = 1.0 + seeds;
  if (per_variant * variants <= max_calculations) return std::nullopt;
  return Error{ErrorCode::out_of_range, "seeds",
               "checking " + std::to_string(file.exercises.size()) + " exercise(s) at " +
                   std::to_string(seeds) + " seeds runs " + format_number(per_variant * variants) +
                   " calculations (" + format_number(per_variant) +
                   " a variant), more than the budget of " + format_number(max_calculations) +
                   "; check fewer seeds"};
}

std::vector<Error> check_exercise(const ExerciseSpec& e, uint32_t seeds) {
  std::vector<Error> problems;
  Result<Variant> book = make_variant(e, 0);
  if (!book.ok()) {
    problems.push_back(book.error());
    return problems;
  }
  for (const PartVariant& part : book.value().parts) {
    if (part.kind == "choice") {
      bool listed = false;
      for (const std::string& c : part.choices) listed = listed || c == part.expected_choice;
      if (!listed) {
        problems.push_back({ErrorCode::invalid_argument, "parts." + part.id + ".choices",
                            "part " + part.id + ": the engine's answer \"" + part.expected_choice +
                                "\" is not among the choices"});
      }
      // Answers are matched in any case, so two options must differ by more than case.
      for (size_t i = 0; i < part.choices.size(); ++i) {
        for (size_t j = i + 1; j < part.choices.size(); ++j) {
          if (!answer_text::same_any_case(part.choices[i], part.choices[j])) continue;
          problems.push_back({ErrorCode::invalid_argument, "parts." + part.id + ".choices",
                              "part " + part.id + ": choices \"" + part.choices[i] + "\" and \"" +
                                  part.choices[j] + "\" differ only in case"});
        }
      }
      continue;
    }
    if (part.tolerance.rel <= 0 && part.tolerance.abs <= 0) {
      problems.push_back({ErrorCode::invalid_argument, "parts." + part.id + ".tolerance",
                          "part " + part.id + " needs a tolerance (rel and/or abs)"});
    }
    if (!part.book.present) continue;
    double off = std::fabs(part.expected - part.book.value) /
                 (part.book.value == 0 ? 1 : std::fabs(part.book.value));
    if (off > part.book.tolerance_rel && part.book.erratum.empty()) {
      problems.push_back({ErrorCode::out_of_range, "parts." + part.id + ".book",
                          "part " + part.id + ": the engine gives " + format_number(part.expected) +
                              " " + part.unit + " but the book " + format_number(part.book.value) +
                              " (" + format_value(off * 100, "", "num") +
                              "% apart); fix the inputs or add book.erratum"});
    }
  }
  for (uint32_t seed = 1; seed <= seeds; ++seed) {
    Result<Variant> v = make_variant(e, seed);
    if (!v.ok()) {
      problems.push_back(v.error());
      break;
    }
  }
  return problems;
}

}  // namespace scalebook
