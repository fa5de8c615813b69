// The shared fixtures: the same cases run here and against the WASM module
// (tests/node/parity.test.mjs); both must give exactly the recorded values.
// SCALEBOOK_UPDATE_FIXTURES=1 rewrites the expectations from this build (never in CI).
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "helpers.h"
#include "scalebook/core/json.h"

using namespace scalebook;

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

// The one marshaller's JSON (core/json.h), as the WASM API returns it.
Json expectation_of(const Result<Calculation>& result) {
  if (!result.ok()) return to_json(result.error());
  return {{"outputs", to_json(result.value(), false)}};
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
