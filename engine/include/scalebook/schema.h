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

struct Schema {
  std::string name;
  std::string description;
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
};

}  // namespace scalebook
