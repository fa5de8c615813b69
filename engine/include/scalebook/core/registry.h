#pragma once
// The calculator registry. Each domain registers its own calculators (a CalculatorRegistration
// in its folder); the registry knows no domain: presets such as a chip or a model reach it
// only through the PresetKind their input declares.
#include <array>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scalebook/core/checks.h"
#include "scalebook/core/explain_only.h"
#include "scalebook/core/result_builder.h"
#include "scalebook/core/schema.h"
#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook {

// Inputs after validation: every number checked against its range, every choice known, every
// preset resolved with its overrides. Reading a name the schema does not declare is a
// programming error: the read returns 0 or "" and the registry turns the whole calculation
// into an internal error naming it, so a misspelt name fails every test that reaches it.
class ResolvedInputs {
 public:
  explicit ResolvedInputs(const Schema* schema = nullptr, bool explain = true);

  void set(const std::string& name, Value value);
  bool has(std::string_view name) const;
  // Whether the schema has input `name` at all: for shared code that serves calculators with
  // and without an optional input (the chip overrides).
  bool declares(std::string_view name) const;
  double number(std::string_view name) const;
  const std::string& text(std::string_view name) const;

  // Text input `name` parsed by `parse` (text -> Result<T>), once: a prepared calculation
  // keeps its inputs across evaluations, so a mesh or a shape is parsed only the first time.
  // An error is not kept, so it comes back on every evaluation.
  template <class T, class Parse>
  Result<const T*> parsed(std::string_view name, Parse parse) const {
    auto it = parsed_.find(name);
    if (it != parsed_.end()) return static_cast<const T*>(it->second.get());
    Result<T> result = parse(text(name));
    if (!result.ok()) return result.error();
    auto kept = std::make_shared<const T>(std::move(result.value()));
    const T* p = kept.get();
    parsed_.emplace(std::string(name), std::move(kept));
    return p;
  }

  // The resolved preset of a preset input (a chip with the caller's overrides applied);
  // null when the input is not a preset. Domains wrap this in a typed accessor (chip_of).
  const void* preset(std::string_view name) const;
  void set_preset(const std::string& name, std::shared_ptr<const void> preset);

  // Sizes of named dimensions, for a calculator whose schema takes them.
  const std::map<std::string, double>& dimensions() const { return dimensions_; }
  void set_dimension(const std::string& name, double size) { dimensions_[name] = size; }

  // False on the numbers-only path (sweeps, searches): the calculator builds no steps.
  bool explain() const { return kExplains && explain_; }

  // The given or default number input farthest from 1 in orders of magnitude (the likeliest
  // cause of a result that overflows), or empty when there is none.
  std::pair<std::string, double> most_extreme_number() const;

  // The first undeclared name read, or empty.
  const std::string& undeclared_read() const { return undeclared_; }

 private:
  // The schema's index of input `name`, remembered by the address of the name asked for (a
  // calculator asks by the same literals on every evaluation; one comparison confirms a
  // hit); past the end, with the name recorded, when the schema lacks it.
  std::size_t index(std::string_view name) const;

  const Schema* schema_;
  bool explain_;
  std::vector<Value> values_;                         // one per input of the schema
  std::vector<char> present_;                         // whether values_[i] was set
  std::vector<std::shared_ptr<const void>> presets_;  // one per input: a resolved preset
  std::map<std::string, double> dimensions_;
  mutable std::map<std::string, std::shared_ptr<const void>, std::less<>> parsed_;
  mutable std::string undeclared_;
  struct KnownName {
    const char* data;
    std::size_t input;
  };
  // Open addressing on the address. Room for every input twice over: resolving sets each
  // input by the schema's own name, whose addresses are not the literals a calculator reads
  // by, so both sets stay in the table; a fuller one probes long runs and then scans.
  mutable std::array<KnownName, 256> known_{};
};

// `compute` sets every output through `out` and returns the first error, or none.
struct Calculator {
  Schema schema;
  std::optional<Error> (*compute)(const ResolvedInputs& inputs, ResultBuilder& out);
};

// A domain registers its calculators with one static object in its own source file:
//   const CalculatorRegistration registered{10, {roofline_calculator, matmul_calculator}};
// `order` places them in `scalebook list`: lower first, the book's order of chapters.
class CalculatorRegistration {
 public:
  CalculatorRegistration(int order, std::initializer_list<Calculator (*)()> makers);
};

// Names of every calculator, in a stable order.
std::vector<std::string> calculator_names();

Result<Schema> schema_of(std::string_view name);

// True when the calculator has a preset input (a chip), and so takes its fields as overrides.
bool takes_chip_overrides(const Schema& schema);

struct CalculateOptions {
  bool explain = true;  // false: the numbers only, no steps (sweeps, searches)
  // Told the fraction of its work done, in [0, 1], at most about a hundred times, by a
  // calculation that counts its work first (training-search); others never call it. A page
  // shows it as a percentage; it must not throw.
  std::function<void(double)> progress;
};

// Validates `inputs` against the calculator's schema, fills defaults, and computes. A
// preset input (a chip) also takes any numeric field of its preset as an override
// (`hbm_capacity=...`, `peak_flops_bf16=...`), applied to the calculator's copy of it.
Result<Calculation> calculate(std::string_view name, const Inputs& inputs,
                              CalculateOptions options = {});

// A calculation prepared once and evaluated many times, differing only in some number
// inputs: the other inputs (texts, choices, presets) checked and resolved once, each
// evaluation numbers in and numbers out, with no steps. Sweeps, solving and searches run on it.
class PreparedCalculation {
 public:
  // `varying`: number or count inputs of the schema, or named dimensions, set per evaluation
  // (the values in `fixed` for them are ignored). `outputs`: number outputs to read, in order;
  // empty: every number output.
  static Result<PreparedCalculation> make(std::string_view calculator, const Inputs& fixed,
                                          const std::vector<std::string>& varying,
                                          std::vector<std::string> outputs);

  const std::vector<std::string>& outputs() const { return outputs_; }
  const Schema& schema() const { return calc_->schema; }

  // x: one value per varying input; y: one per output, NaN where an output has no value.
  std::optional<Error> evaluate(const double* x, double* y);

 private:
  struct Varying {
    std::string name;
    const InputSpec* spec;  // null for a dimension
    InputSpec check;        // how its values are checked (a dimension's own spec)
  };
  const Calculator* calc_ = nullptr;
  Inputs fixed_;             // for the slow path: a varying input that overrides a preset
  ResolvedInputs resolved_;  // the fast path: the varying inputs overwritten in place
  std::vector<Varying> varying_;
  std::vector<std::string> outputs_;
  std::vector<std::size_t> output_index_;
  ResultBuffer buffer_;  // reused by every evaluation
  bool slow_ = false;
};

}  // namespace scalebook
