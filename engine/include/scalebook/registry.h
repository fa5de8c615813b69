#pragma once
#include <string>
#include <string_view>
#include <vector>

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

 private:
  Inputs values_;
};

struct Calculator {
  Schema schema;
  Result<Calculation> (*compute)(const ResolvedInputs& inputs);
};

// Names of every calculator, in a stable order.
std::vector<std::string> calculator_names();

Result<Schema> schema_of(std::string_view name);

// Validates `inputs` against the calculator's schema, fills defaults, and computes.
Result<Calculation> calculate(std::string_view name, const Inputs& inputs);

}  // namespace scalebook
