// The registry-wide contract every calculator keeps, checked over whatever the domains
// register: so a new calculator is held to it without being listed here.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "helpers.h"
#include "scalebook/core/registry.h"

namespace scalebook {
namespace {

// A label is words a reader reads, not an identifier: one word with an underscore (M_X) or all
// in lower case (alpha) is a schema name that reached the page.
void check_label(const std::string& label) {
  CHECK_FALSE(label.empty());
  CHECK(label.size() <= 40);
  const bool one_word = label.find(' ') == std::string::npos;
  const bool lower =
      std::none_of(label.begin(), label.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  INFO("label \"" << label << "\"");
  CHECK_FALSE((one_word && (label.find('_') != std::string::npos || (lower && label.size() > 1))));
}

std::set<std::string> declared_outputs(const Schema& schema) {
  std::set<std::string> names;
  for (const OutputSpec& o : schema.outputs) names.insert(o.name);
  for (const TableSpec& t : schema.tables) names.insert(t.name);
  return names;
}

// Each preset input's choices one at a time (every chip, every model), the rest at defaults.
std::vector<Inputs> preset_cases(const Schema& schema) {
  std::vector<Inputs> cases = {{}};
  for (const InputSpec& spec : schema.inputs) {
    if (!spec.preset) continue;
    for (const std::string& id : spec.choices) cases.push_back({{spec.name, Value::of(id)}});
  }
  return cases;
}

std::string case_name(const Inputs& inputs) {
  std::string name;
  for (const auto& [input, value] : inputs) name += input + "=" + value.text + " ";
  return name.empty() ? "defaults" : name;
}

}  // namespace

TEST_CASE("every output is a finite number or a text, or absent with its reason", "[contract]") {
  for (const std::string& name : calculator_names()) {
    const Schema schema = schema_of(name).value();
    for (const Inputs& inputs : preset_cases(schema)) {
      for (bool explain : {true, false}) {
        INFO(name << " at " << case_name(inputs) << (explain ? "explained" : "numbers only"));
        Result<Calculation> calc = calculate(name, inputs, {.explain = explain});
        if (!calc.ok()) continue;  // a preset the calculator refuses says so: not an output
        for (const auto& [output, value] : calc.value().outputs) {
          INFO(output);
          if (value.is_none()) CHECK_FALSE(value.text.empty());
          if (value.is_number()) CHECK(std::isfinite(value.number));
        }
      }
    }
  }
}

TEST_CASE("every calculator sets each declared output once, in schema order", "[contract]") {
  for (const std::string& name : calculator_names()) {
    INFO(name);
    const Schema schema = schema_of(name).value();
    Calculation calc = test::run(name, {});
    REQUIRE(calc.outputs.size() == schema.outputs.size());
    for (std::size_t i = 0; i < schema.outputs.size(); ++i) {
      CHECK(calc.outputs[i].first == schema.outputs[i].name);
      const Value& v = calc.outputs[i].second;
      if (!v.is_none()) CHECK(v.is_text() == schema.outputs[i].is_text);
    }
    REQUIRE(calc.tables.size() == schema.tables.size());
    for (std::size_t i = 0; i < schema.tables.size(); ++i) {
      CHECK(calc.tables[i].first == schema.tables[i].name);
      CHECK(calc.tables[i].second.columns.size() == schema.tables[i].columns.size());
    }
  }
}

TEST_CASE("every step names an output and dependencies the schema declares", "[contract]") {
  for (const std::string& name : calculator_names()) {
    INFO(name);
    const std::set<std::string> outputs = declared_outputs(schema_of(name).value());
    Calculation calc = test::run(name, {});
    CHECK_FALSE(calc.steps.empty());
    for (const Step& step : calc.steps) {
      INFO(step.label);
      CHECK_FALSE(step.label.empty());
      CHECK_FALSE(step.latex.empty());
      // A control character is a lost backslash ("\text" written "\t" + "ext").
      for (char c : step.latex + step.label) CHECK(static_cast<unsigned char>(c) >= 0x20);
      if (!step.output.empty()) CHECK(outputs.count(step.output) == 1);
      for (const std::string& d : step.depends) CHECK(outputs.count(d) == 1);
    }
  }
}

TEST_CASE("the numbers-only path gives the explained outputs bit for bit, and no steps",
          "[contract]") {
  for (const std::string& name : calculator_names()) {
    INFO(name);
    Calculation explained = test::run(name, {});
    Result<Calculation> bare = calculate(name, {}, {.explain = false});
    REQUIRE(bare.ok());
    test::check_same_outputs(explained, bare.value());
  }
}

// A prepared calculation builds no tables: whatever a calculator skips for that, its numbers
// stay the explained ones.
TEST_CASE("a prepared evaluation gives the explained number outputs bit for bit", "[contract]") {
  for (const std::string& name : calculator_names()) {
    INFO(name);
    Calculation explained = test::run(name, {});
    Result<PreparedCalculation> prepared = PreparedCalculation::make(name, {}, {}, {});
    REQUIRE(prepared.ok());
    std::vector<double> y(prepared.value().outputs().size());
    REQUIRE_FALSE(prepared.value().evaluate(nullptr, y.data()));
    const Schema& schema = prepared.value().schema();
    REQUIRE(explained.outputs.size() == schema.outputs.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < schema.outputs.size(); ++i) {
      if (schema.outputs[i].is_text) continue;
      const Value& value = explained.outputs[i].second;
      INFO(schema.outputs[i].name);
      REQUIRE(k < y.size());
      if (value.is_number()) {
        CHECK(std::memcmp(&value.number, &y[k], sizeof(double)) == 0);
      } else {
        CHECK(std::isnan(y[k]));
      }
      ++k;
    }
    CHECK(k == y.size());
  }
}

TEST_CASE("calculator names are unique and every schema is named as registered", "[contract]") {
  std::set<std::string> seen;
  for (const std::string& name : calculator_names()) {
    CHECK(seen.insert(name).second);
    CHECK(schema_of(name).value().name == name);
  }
  CHECK(seen.size() >= 11);
}

TEST_CASE("every input and output has a label, every input a group", "[contract]") {
  const std::set<std::string> groups = {"main", "override", "advanced"};
  for (const std::string& name : calculator_names()) {
    INFO(name);
    const Schema schema = schema_of(name).value();
    for (const InputSpec& spec : schema.inputs) {
      INFO(spec.name);
      check_label(spec.label);
      CHECK(groups.count(to_string(spec.group)) == 1);
      // An input that overrides a preset's number says so, and is filed with the overrides.
      const bool says_override = spec.description.rfind("override:", 0) == 0;
      CHECK(says_override == (spec.group == InputGroup::override));
      CHECK((spec.choice_labels.empty() || spec.choice_labels.size() == spec.choices.size()));
      for (const std::string& label : spec.choice_labels) check_label(label);
    }
    for (const OutputSpec& spec : schema.outputs) {
      INFO(spec.name);
      check_label(spec.label);
    }
    for (const TableSpec& table : schema.tables) {
      for (const OutputSpec& column : table.columns) {
        INFO(table.name + "." + column.name);
        check_label(column.label);
      }
    }
  }
}

TEST_CASE("a calculator that reads an input its schema lacks fails loudly, naming it",
          "[contract]") {
  Schema schema{"probe", "", {{"x", InputKind::number, "", "", Value::of(1.0)}}, {}};
  ResolvedInputs in(&schema);
  in.set("x", Value::of(2.0));
  CHECK(in.number("x") == 2);
  CHECK(in.undeclared_read().empty());
  CHECK(in.number("y") == 0);
  CHECK(in.undeclared_read() == "y");
  CHECK_FALSE(in.declares("z"));
  CHECK(in.undeclared_read() == "y");
}

}  // namespace scalebook
