#pragma once
#include <limits>
#include <string>
#include <vector>

#include "scalebook/value.h"

namespace scalebook {

enum class InputKind {
  number,  // any real number in [min, max]
  count,   // a whole number in [min, max]
  choice,  // one of `choices`
  text,    // free text of at most kMaxTextLength characters; the calculator parses it
};

// The longest text a text input takes, in characters (bytes).
constexpr int kMaxTextLength = 100;

const char* to_string(InputKind kind);

struct InputSpec {
  std::string name;
  InputKind kind = InputKind::number;
  std::string unit;  // SI base unit: s, B, FLOP, B/s, FLOP/s, FLOP/B, tokens; empty for none
  std::string description;
  Value default_value;  // none: optional, the calculator fills it (e.g. from the chip)
  double min = 0;
  bool min_exclusive = false;
  double max = std::numeric_limits<double>::max();
  std::vector<std::string> choices;
};

struct OutputSpec {
  std::string name;
  std::string unit;
  std::string description;
  bool is_text = false;
};

// A list output: each row has one value per column.
struct TableSpec {
  std::string name;
  std::string description;
  std::vector<OutputSpec> columns;
};

// The largest size a named dimension may take; beyond it products of sizes lose precision.
constexpr double kMaxDimension = 1e15;

struct Schema {
  std::string name;
  std::string description;
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
  std::vector<TableSpec> tables;
  // Non-empty when the calculator takes sizes of named dimensions (I=4096 J=8192), each a
  // whole number in [1, kMaxDimension] under a name that starts with an upper-case letter
  // (letters and digits, at most 16); says what they are.
  std::string dimensions;
};

}  // namespace scalebook
