#include "scalebook/core/json.h"

#include <catch2/catch.hpp>
#include <string>

#include "helpers.h"

namespace scalebook {
namespace {

Json table_reference(const Table& table) {
  Json rows = Json::array();
  for (const std::vector<Value>& row : table.rows) {
    Json r = Json::object();
    for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i)
      r[table.columns[i]] = to_json(row[i]);
    rows.push_back(r);
  }
  return rows;
}

// The reference: nlohmann's own tree and dump, which the direct writer must equal.
Json reference(const Calculation& calc) {
  Json j = Json::object();
  for (const auto& [name, value] : calc.outputs) j[name] = to_json(value);
  for (const auto& [name, table] : calc.tables) j[name] = table_reference(table);
  Json absent = Json::object();
  for (const auto& [name, value] : calc.outputs)
    if (value.is_none()) absent[name] = value.text;
  if (!absent.empty()) j["absent"] = absent;
  Json steps = Json::array();
  for (const Step& s : calc.steps) {
    steps.push_back({{"label", s.label},
                     {"latex", s.latex},
                     {"value", s.value},
                     {"unit", s.unit},
                     {"output", s.output},
                     {"depends", s.depends}});
  }
  j["steps"] = steps;
  return j;
}

}  // namespace

TEST_CASE("the direct JSON writer prints what nlohmann prints, for every calculator", "[json]") {
  for (const std::string& name : calculator_names()) {
    INFO(name);
    Calculation calc = test::run(name, {});
    CHECK(calculation_text(calc, true) == dump(reference(calc)));
  }
}

TEST_CASE("the writer escapes text and replaces invalid UTF-8 as nlohmann's replace does",
          "[json]") {
  Calculation calc;
  calc.outputs = {{"a", Value::of("quote \" slash \\ tab \t nl \n bell \x07")},
                  {"b", Value::of("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80")},
                  {"c", Value::of("bad \xC3 \xFF \xED\xA0\x80 end")},
                  {"d", Value::of(-0.0)},
                  {"e", Value::of(1e300 * 1e300)},
                  {"f", Value::absent("never")},
                  {"g", Value::of(0.1)},
                  {"h", Value::of(3.0)}};
  Json parsed = Json::parse(calculation_text(calc, false));
  CHECK(parsed["g"].get<double>() == 0.1);
  CHECK(parsed["e"].is_null());
  CHECK(calculation_text(calc, false).find("\"h\":3.0") != std::string::npos);
  Json tree = Json::object();
  for (const auto& [name, value] : calc.outputs) tree[name] = to_json(value);
  tree["absent"] = {{"f", "never"}};
  CHECK(calculation_text(calc, false) == dump(tree));
}

TEST_CASE("an absent output is null, with its reason under absent", "[json]") {
  Calculation calc;
  calc.outputs = {{"x", Value::of(2.0)}, {"y", Value::absent("no price: give one")}};
  CHECK(calculation_text(calc, false) ==
        R"({"x":2.0,"y":null,"absent":{"y":"no price: give one"}})");
  calc.outputs.pop_back();
  CHECK(calculation_text(calc, false) == R"({"x":2.0})");
}

}  // namespace scalebook
