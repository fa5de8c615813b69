#pragma once
#include <initializer_list>
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

// InputSpec and OutputSpec are written as braced lists in every calculator's schema
// ({"bytes", InputKind::number, "B", "..."}). Built member by member in place, each of those
// lists is a dozen string constructions and destructions inlined into the schema function:
// tens of kilobytes over the engine. A braced list of literals therefore goes through the
// out-of-line `const char*` constructor (core/schema.cpp), built once; any other list takes
// the generic one, which builds as an aggregate did.
struct InputSpec {
  InputSpec() = default;
  InputSpec(std::string name_, InputKind kind_ = InputKind::number, std::string unit_ = {},
            std::string description_ = {}, Value default_value_ = {}, double min_ = 0,
            bool min_exclusive_ = false, double max_ = std::numeric_limits<double>::max())
      : name(std::move(name_)),
        kind(kind_),
        unit(std::move(unit_)),
        description(std::move(description_)),
        default_value(std::move(default_value_)),
        min(min_),
        min_exclusive(min_exclusive_),
        max(max_) {}
  InputSpec(const char* name_, InputKind kind_, const char* unit_, const char* description_,
            Value default_value_ = {}, double min_ = 0, bool min_exclusive_ = false,
            double max_ = std::numeric_limits<double>::max());

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
// The same from literals, out of line (core/schema.cpp): labelled(spec, "Ring direction",
// InputGroup::advanced, {"Both ways", "One way"}).
InputSpec labelled(InputSpec spec, const char* label, InputGroup group = InputGroup::main,
                   std::initializer_list<const char*> choice_labels = {});

struct OutputSpec {
  OutputSpec() = default;
  OutputSpec(std::string name_, std::string unit_ = {}, std::string description_ = {},
             bool is_text_ = false, std::string label_ = {})
      : name(std::move(name_)),
        unit(std::move(unit_)),
        description(std::move(description_)),
        is_text(is_text_),
        label(std::move(label_)) {}
  // Out of line, as InputSpec's.
  OutputSpec(const char* name_, const char* unit_, const char* description_, bool is_text_ = false,
             const char* label_ = "");

  std::string name;
  std::string unit;
  std::string description;
  bool is_text = false;
  std::string label;  // what a table calls it: "Compute time"
};

// The two kinds of output a calculator declares, as a form and a table show them:
// number_output("t_math", "s", "one layer's matmuls", "Math per layer"). Objects with a call
// for literals (OutputSpec's out-of-line constructor) and one for strings, rather than two
// overloaded functions, so that a file may still name one `constexpr auto num = number_output`.
struct NumberOutput {
  OutputSpec operator()(const char* name, const char* unit, const char* description,
                        const char* label) const {
    return {name, unit, description, false, label};
  }
  OutputSpec operator()(std::string name, std::string unit, std::string description,
                        std::string label) const {
    return {std::move(name), std::move(unit), std::move(description), false, std::move(label)};
  }
};
struct TextOutput {
  OutputSpec operator()(const char* name, const char* description, const char* label) const {
    return {name, "", description, true, label};
  }
  OutputSpec operator()(std::string name, std::string description, std::string label) const {
    return {std::move(name), "", std::move(description), true, std::move(label)};
  }
};
inline constexpr NumberOutput number_output{};
inline constexpr TextOutput text_output{};

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
