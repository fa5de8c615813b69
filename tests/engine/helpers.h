#pragma once
#include <catch2/catch.hpp>
#include <string>

#include "scalebook/core/registry.h"

namespace scalebook::test {

// Runs a calculator that must succeed and returns one numeric output.
inline double output(const Calculation& calc, const std::string& name) {
  for (const auto& [key, value] : calc.outputs) {
    if (key == name) return value.number;
  }
  FAIL("no output " << name);
  return 0;
}

inline const Value& output_value(const Calculation& calc, const std::string& name) {
  for (const auto& [key, value] : calc.outputs) {
    if (key == name) return value;
  }
  FAIL("no output " << name);
  static Value none;
  return none;
}

inline Calculation run(const std::string& calculator, const Inputs& inputs) {
  Result<Calculation> result = calculate(calculator, inputs);
  if (!result.ok()) FAIL(result.error().message);
  return result.value();
}

inline Error run_error(const std::string& calculator, const Inputs& inputs) {
  Result<Calculation> result = calculate(calculator, inputs);
  REQUIRE_FALSE(result.ok());
  return result.error();
}

// An error value with exactly this code, field and message.
inline void check_error(const Error& e, ErrorCode code, const std::string& field,
                        const std::string& message) {
  CHECK(std::string(to_string(e.code)) == to_string(code));
  CHECK(e.field == field);
  CHECK(e.message == message);
}

}  // namespace scalebook::test
