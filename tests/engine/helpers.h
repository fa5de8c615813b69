#pragma once
#include <catch2/catch.hpp>
#include <cstring>
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

// A calculation's table by name, and one cell of a table by row and column name.
inline const Table& table(const Calculation& calc, const std::string& name) {
  for (const auto& [key, t] : calc.tables) {
    if (key == name) return t;
  }
  FAIL("no table " << name);
  static Table none;
  return none;
}

inline const Value& cell(const Table& t, std::size_t row, const std::string& column) {
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i] == column) return t.rows.at(row).at(i);
  }
  FAIL("no column " << column);
  static Value none;
  return none;
}

// An error value with exactly this code, field and message.
inline void check_error(const Error& e, ErrorCode code, const std::string& field,
                        const std::string& message) {
  CHECK(std::string(to_string(e.code)) == to_string(code));
  CHECK(e.field == field);
  CHECK(e.message == message);
}

// The numbers-only path's outputs are the explained ones bit for bit, and it kept no steps.
inline void check_same_outputs(const Calculation& explained, const Calculation& bare) {
  CHECK(bare.steps.empty());
  REQUIRE(bare.outputs.size() == explained.outputs.size());
  for (std::size_t i = 0; i < explained.outputs.size(); ++i) {
    const Value& a = explained.outputs[i].second;
    const Value& b = bare.outputs[i].second;
    INFO(explained.outputs[i].first);
    CHECK(a.kind == b.kind);
    CHECK(a.text == b.text);
    if (a.is_number()) CHECK(std::memcmp(&a.number, &b.number, sizeof(double)) == 0);
  }
}

}  // namespace scalebook::test
