#pragma once
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

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

// Where a form files an input: the calculator's own inputs, the overrides of a preset (a
// reader's own chip or model), or settings most readers leave alone.
enum class InputGroup { main, override, advanced };

const char* to_string(InputGroup group);

// A named preset that fills many numbers at once (a chip from the catalog, a model), any of
// whose numeric fields a caller may override by name. Declared by the domain that owns the
// presets; the registry resolves it without knowing what it is.
struct PresetField {
  std::string name;
  std::string unit;
  bool whole = false;  // a count: a whole number
};

struct PresetKind {
  std::string noun;            // "chip": how messages and help name one
  std::string overrides_help;  // how an unknown-input message describes the override names
  // The numeric field `name` a caller may override, or null.
  const PresetField* (*find_field)(std::string_view name);
  // Preset `id` with `overrides` applied; an error (not_found, naming the input) for an
  // unknown id. Without overrides it should not copy.
  Result<std::shared_ptr<const void>> (*resolve)(
      const std::string& input, const std::string& id,
      const std::vector<std::pair<std::string, Value>>& overrides);
};

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
  const PresetKind* preset = nullptr;     // a choice of preset whose fields may be overridden
  const PresetKind* overrides = nullptr;  // this input overrides a field of that preset
  std::string label;                      // what a form calls it: "HBM bandwidth"
  InputGroup group = InputGroup::main;
  std::vector<std::string> choice_labels;  // one per choice, or empty: the choices as they are
  std::string help;                        // a sentence a form shows on request; may be empty
  std::vector<std::string> aliases;        // other names the CLI and the API accept: "batch"
};

// `spec` as a form files it: labelled({"flops", InputKind::number, ...}, "FLOPs").
inline InputSpec labelled(InputSpec spec, std::string label, InputGroup group = InputGroup::main,
                          std::vector<std::string> choice_labels = {}) {
  spec.label = std::move(label);
  spec.group = group;
  spec.choice_labels = std::move(choice_labels);
  return spec;
}

struct OutputSpec {
  std::string name;
  std::string unit;
  std::string description;
  bool is_text = false;
  std::string label;  // what a table calls it: "Compute time"
};

// The two kinds of output a calculator declares, as a form and a table show them:
// number_output("t_math", "s", "one layer's matmuls", "Math per layer").
inline OutputSpec number_output(std::string name, std::string unit, std::string description,
                                std::string label) {
  return {std::move(name), std::move(unit), std::move(description), false, std::move(label)};
}
inline OutputSpec text_output(std::string name, std::string description, std::string label) {
  return {std::move(name), "", std::move(description), true, std::move(label)};
}

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
  // A calculation that may take long enough to be felt (a search over thousands of
  // configurations): it reports progress, and a page runs it off its main thread.
  bool long_running = false;
};

}  // namespace scalebook
