#pragma once
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace scalebook {

// An input or output value: a number, a text (a choice, or a number still to be parsed
// from a form or a command line), or nothing. An output with nothing is absent with a reason
// (`text`: "never compute-bound: ..."), so a reader is told why and a bare null is a bug.
struct Value {
  enum class Kind { none, number, text };
  Kind kind = Kind::none;
  double number = 0;
  std::string text;

  static Value of(double n) { return {Kind::number, n, {}}; }
  static Value of(std::string t) { return {Kind::text, 0, std::move(t)}; }
  static Value of(const char* t) { return of(std::string(t)); }
  static Value none() { return {}; }
  static Value absent(std::string reason) { return {Kind::none, 0, std::move(reason)}; }
  bool is_number() const { return kind == Kind::number; }
  bool is_text() const { return kind == Kind::text; }
  bool is_none() const { return kind == Kind::none; }
};

using Inputs = std::map<std::string, Value>;

// One line of a worked solution: what was computed, how (LaTeX with the numbers
// substituted), and the result in SI base units.
struct Step {
  Step() = default;
  Step(std::string label_, std::string latex_, double value_ = 0, std::string unit_ = {},
       std::string output_ = {}, std::vector<std::string> depends_ = {})
      : label(std::move(label_)),
        latex(std::move(latex_)),
        value(value_),
        unit(std::move(unit_)),
        output(std::move(output_)),
        depends(std::move(depends_)) {}
  // A step's unit, output and depends are nearly always literals: out of line (core/schema.cpp),
  // they are built once there rather than inline at each of a calculator's hundreds of steps.
  Step(std::string label_, std::string latex_, double value_, const char* unit_,
       const char* output_ = "", std::initializer_list<const char*> depends_ = {});

  std::string label;
  std::string latex;
  double value = 0;
  std::string unit;
  std::string output;                // the output this step computes, if any
  std::vector<std::string> depends;  // outputs whose steps come before it in a solution
};

// A list output (a plan's collectives, say): rows of values in the columns' order.
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;
};

struct Calculation {
  std::vector<std::pair<std::string, Value>> outputs;  // in schema order
  std::vector<std::pair<std::string, Table>> tables;   // in schema order
  std::vector<Step> steps;
};

}  // namespace scalebook
