// The shared fixtures: the same cases run here and against the WASM module
// (tests/node/parity.test.mjs); both must give exactly the recorded values.
// SCALEBOOK_UPDATE_FIXTURES=1 rewrites the expectations from this build (never in CI).
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "helpers.h"

using namespace scalebook;
using Json = nlohmann::ordered_json;

namespace {

const char* kPath = SCALEBOOK_FIXTURES "/calculations.json";

Inputs inputs_of(const Json& j) {
  Inputs in;
  for (const auto& [key, value] : j.items()) {
    in[key] =
        value.is_number() ? Value::of(value.get<double>()) : Value::of(value.get<std::string>());
  }
  return in;
}

Json json_of(const Value& value) {
  if (value.is_number()) return value.number;
  if (value.is_text()) return value.text;
  return nullptr;
}

// Lists (a plan's collectives) sit beside the outputs as arrays of rows, as the WASM API
// returns them.
Json expectation_of(const Result<Calculation>& result) {
  if (!result.ok()) {
    const Error& e = result.error();
    Json error = {{"code", to_string(e.code)}, {"field", e.field}, {"message", e.message}};
    if (e.position >= 0) error["position"] = e.position;
    return {{"error", error}};
  }
  Json outputs = Json::object();
  for (const auto& [name, value] : result.value().outputs) outputs[name] = json_of(value);
  for (const auto& [name, table] : result.value().tables) {
    Json rows = Json::array();
    for (const std::vector<Value>& row : table.rows) {
      Json r = Json::object();
      for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i)
        r[table.columns[i]] = json_of(row[i]);
      rows.push_back(r);
    }
    outputs[name] = rows;
  }
  return {{"outputs", outputs}};
}

}  // namespace

TEST_CASE("native results match the shared fixtures exactly", "[fixtures]") {
  std::ifstream file(kPath);
  REQUIRE(file.good());
  Json fixtures = Json::parse(file);
  bool update = std::getenv("SCALEBOOK_UPDATE_FIXTURES") != nullptr;
  for (Json& c : fixtures["cases"]) {
    Json actual =
        expectation_of(calculate(c["calculator"].get<std::string>(), inputs_of(c["inputs"])));
    if (update) {
      c["expect"] = actual;
      continue;
    }
    INFO(c["name"].get<std::string>());
    CHECK(actual.dump() == c["expect"].dump());
  }
  if (update) std::ofstream(kPath) << fixtures.dump(2) << "\n";
}
