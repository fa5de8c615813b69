#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/catalog.h"
#include "scalebook/schema.h"
#include "scalebook/status.h"
#include "scalebook/value.h"

namespace scalebook {

// Inputs after validation: every number checked against its range, every choice known.
class ResolvedInputs {
 public:
  void set(const std::string& name, Value value) { values_[name] = std::move(value); }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  double number(const std::string& name) const;
  const std::string& text(const std::string& name) const;

  // The chosen chip with the caller's catalog-field overrides applied (a reader's own chip);
  // null for a calculator without a chip input.
  const Chip* chip() const { return own_chip_ ? &*own_chip_ : catalog_chip_; }
  void set_chip(const Chip* catalog_chip) { catalog_chip_ = catalog_chip; }
  void set_chip(Chip own_chip) { own_chip_ = std::move(own_chip); }

  // Sizes of named dimensions, for a calculator whose schema takes them.
  const std::map<std::string, double>& dimensions() const { return dimensions_; }
  void set_dimension(const std::string& name, double size) { dimensions_[name] = size; }

 private:
  Inputs values_;
  const Chip* catalog_chip_ = nullptr;
  std::optional<Chip> own_chip_;  // a copy only when the caller overrode a field
  std::map<std::string, double> dimensions_;
};

struct Calculator {
  Schema schema;
  Result<Calculation> (*compute)(const ResolvedInputs& inputs);
};

// Strict: the whole text, trimmed of spaces and tabs, must be a decimal number; no hex, inf
// or nan. How every number typed as text (a form field, a command line) is read.
bool parse_decimal(const std::string& text, double& out);

// Names of every calculator, in a stable order.
std::vector<std::string> calculator_names();

Result<Schema> schema_of(std::string_view name);

// True when the calculator has a chip input, and so takes catalog-field overrides.
bool takes_chip_overrides(const Schema& schema);

// Validates `inputs` against the calculator's schema, fills defaults, and computes. A
// calculator with a `chip` input also takes any numeric catalog field as an override
// (`hbm_capacity=...`, `peak_flops_bf16=...`), applied to its copy of the chip.
Result<Calculation> calculate(std::string_view name, const Inputs& inputs);

}  // namespace scalebook
