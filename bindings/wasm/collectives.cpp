// Embind marshalling of the collectives' step simulation (one file per domain, as systolic.cpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

#include "marshal.h"
#include "scalebook/collectives/collective_sim.h"

namespace {

using namespace scalebook::wasm;

// simulateCollective: the fields go to the engine as named values, `values` as the one
// Float64Array engine.mjs flattened (its length capped there); the engine checks both. Steps'
// moves and the states go back as flat typed arrays, which engine.mjs shapes into objects.
val simulate_collective(const val& request) {
  scalebook::Inputs fields;
  std::vector<double> values;
  val keys = val::global("Object").call<val>("keys", request);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    val v = request[key];
    if (v.isNull() || v.isUndefined()) continue;
    if (key != "values") {
      fields[key] = inputs_value(v);
      continue;
    }
    // engine.mjs flattens and checks the list into one Float64Array (one copy in).
    if (v.instanceof (val::global("Float64Array")))
      values = emscripten::convertJSArrayToNumberVector<double>(v);
    else
      values.push_back(std::nan(""));  // not a checked list: the engine names the field
  }
  auto q = scalebook::collective_sim_request(fields, std::move(values));
  if (!q.ok()) return error_to_js(q.error());
  auto result = scalebook::simulate_collective(q.value());
  if (!result.ok()) return error_to_js(result.error());
  const scalebook::CollectiveSimResult& r = result.value();
  val shape = val::array();
  for (std::int64_t n : r.shape) shape.call<void>("push", static_cast<double>(n));
  val steps = val::array();
  for (const scalebook::CollectiveSimStep& s : r.steps) {
    const size_t n = s.moves.size();
    std::vector<double> from(n), to(n), chunk(n), bytes(n);
    for (size_t i = 0; i < n; ++i) {
      from[i] = static_cast<double>(s.moves[i].from), to[i] = static_cast<double>(s.moves[i].to);
      chunk[i] = static_cast<double>(s.moves[i].chunk), bytes[i] = s.moves[i].bytes;
    }
    val moves = val::object();
    moves.set("from", doubles_to_js(from));
    moves.set("to", doubles_to_js(to));
    moves.set("chunk", doubles_to_js(chunk));
    moves.set("bytes", doubles_to_js(bytes));
    val j = val::object();
    j.set("start", s.start);
    j.set("duration", s.duration);
    j.set("phase", std::string(scalebook::to_string(s.phase)));
    j.set("axis", s.axis);
    j.set("moves", moves);
    steps.call<void>("push", j);
  }
  auto matrices = [](const std::vector<std::vector<double>>& list) {
    val out = val::array();
    for (const std::vector<double>& m : list) out.call<void>("push", doubles_to_js(m));
    return out;
  };
  val out = val::object();
  out.set("op", std::string(scalebook::to_string(r.op)));
  out.set("shape", shape);
  out.set("devices", static_cast<double>(r.devices));
  out.set("chunks", static_cast<double>(r.chunks));
  out.set("steps", steps);
  out.set("states", matrices(r.states));
  if (!r.sums.empty()) out.set("sums", matrices(r.sums));
  out.set("time", r.time);
  out.set("closed_form", r.closed_form);
  return ok_with("simulation", out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook_collectives) {
  emscripten::function("simulateCollective", &simulate_collective);
}
