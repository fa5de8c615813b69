#pragma once
// Exercises as data (exercises/*.json, documented in exercises/README.md): parameters with
// the book's values and rules for drawing others, graded parts whose answers the engine
// computes, and the variant a seed picks. The JSON text comes from the caller; no I/O here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/core/value.h"
#include "scalebook/exercises/answer.h"

namespace scalebook {

struct ParamSpec {
  std::string name;
  Value book;                        // variant 0: the book's value
  std::vector<std::string> choices;  // a text parameter draws one of these
  double min = 0;                    // a number parameter draws from [min, max] ...
  double max = 0;
  bool integer = false;       // ... as a whole number
  bool power_of_two = false;  // ... as a power of two
  bool nice = false;          // ... as 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten
  std::string format;         // how {{name}} prints: "" (plain), si, sci, int, num
  std::string unit;           // the unit `si` prints with
};

// A calculator call; inputs are literal values or "$name" references to parameters.
struct CalcSpec {
  std::string calculator;
  std::vector<std::pair<std::string, Value>> inputs;
};

// A named number the prompt can print as {{name}}: one output of a calculator call.
struct ValueSpec {
  std::string name;
  CalcSpec calc;
  std::string output;
  std::string format;  // si (default), sci, int, num
};

struct BookAnswer {
  bool present = false;
  double value = 0;  // in the part's unit
  double tolerance_rel = 0;
  std::string erratum;  // why the engine's number differs, when it does
};

struct PartSpec {
  std::string id;
  std::string kind = "number";  // number | choice
  std::string label;
  CalcSpec calc;
  std::string output;  // the calculator output the answer is
  std::string answer;  // or an expression over the outputs and parameters
  std::string unit;    // the answer's unit, e.g. "ms", "tokens", "GB/s"
  Tolerance tolerance;
  std::vector<std::string> choices;  // choice parts: the options; the engine's output picks one
  BookAnswer book;
};

struct ExerciseSpec {
  std::string id;
  std::string chapter;
  std::string section;
  std::string book_ref;
  std::string title;
  std::string prompt;  // Markdown with {{param}} and {{value}} placeholders
  std::vector<std::string> hints;
  std::vector<ParamSpec> params;
  std::vector<std::string> conditions;  // expressions that every drawn variant satisfies
  std::vector<ValueSpec> values;
  std::vector<PartSpec> parts;
};

struct ExerciseFile {
  std::string chapter;
  std::vector<ExerciseSpec> exercises;
};

// Parses and validates one exercise file. Errors name the exercise and the field.
Result<ExerciseFile> parse_exercise_file(std::string_view json);

struct PartVariant {
  std::string id;
  std::string kind;
  std::string label;
  std::string unit;
  double expected = 0;          // number parts, in `unit`
  std::string expected_choice;  // choice parts
  std::vector<std::string> choices;
  Tolerance tolerance;
  BookAnswer book;          // only meaningful for seed 0
  std::vector<Step> steps;  // the worked solution
};

struct Variant {
  std::string id;
  uint32_t seed = 0;
  std::string title;
  std::string prompt;  // placeholders filled in
  std::vector<std::pair<std::string, Value>> params;
  std::vector<PartVariant> parts;
};

// A seed from a URL, a form or a command line: a whole number from 0 to 4294967295.
Result<uint32_t> parse_seed(const Value& seed);

// Seed 0 is the book's problem; any other seed draws parameters that satisfy the conditions.
Result<Variant> make_variant(const ExerciseSpec& exercise, uint32_t seed);

struct PartGrade {
  Grade grade;
  PartVariant part;
};

Result<PartGrade> grade_part(const ExerciseSpec& exercise, uint32_t seed, size_t part,
                             std::string_view answer);

// Everything wrong with an exercise: variant 0 against the book, and `seeds` drawn variants.
std::vector<Error> check_exercise(const ExerciseSpec& exercise, uint32_t seeds);

// The work budget of checking a file: each variant runs its exercise's values and parts, one
// calculation each (a calculation may be a search, held to its own budget; a draw that fails
// its conditions runs them again). 5000 is about a second in the whole engine's WebAssembly
// and the book's largest file at 20 seeds is some 1,800.
inline constexpr double kMaxCheckCalculations = 5000;

// The calculations checking `file` at `seeds` runs (the book's variant and `seeds` drawn ones
// of every exercise); past `max_calculations` an error naming seeds, before any work.
std::optional<Error> check_budget(const ExerciseFile& file, uint32_t seeds,
                                  double max_calculations = kMaxCheckCalculations);

}  // namespace scalebook
