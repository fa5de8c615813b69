// Embind's one entry to every simulation in the engine's registry (scalebook/core/simulation.h):
// simulate(name, request) and simulations(). A module holds the simulations of the domains it
// was built with; the result tree converts without knowing the simulation, number arrays as
// Float64Arrays and byte arrays as Uint8Arrays, which api.mjs shapes per simulation.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

#include "marshal.h"
#include "scalebook/core/simulation.h"

namespace {

using namespace scalebook::wasm;
using scalebook::SimNode;

val node_to_js(const SimNode& n) {
  switch (n.kind) {
    case SimNode::Kind::null:
      return val::null();
    case SimNode::Kind::number:
      return val(n.number);
    case SimNode::Kind::text:
      return val(n.text);
    case SimNode::Kind::flag:
      return val(n.flag);
    case SimNode::Kind::numbers:
      return doubles_to_js(n.numbers);
    case SimNode::Kind::bytes:
      return val(emscripten::typed_memory_view(n.bytes.size(), n.bytes.data())).call<val>("slice");
    case SimNode::Kind::list: {
      val out = val::array();
      for (const SimNode& item : n.items) out.call<void>("push", node_to_js(item));
      return out;
    }
    case SimNode::Kind::object: {
      val out = val::object();
      for (const auto& [key, value] : n.fields) out.set(key, node_to_js(value));
      return out;
    }
  }
  return val::null();
}

// request: named numbers and texts, and the simulation's list field as the one Float64Array
// api.mjs flattened (its length capped there); anything else in that field is a NaN the
// engine refuses naming it.
val simulate(const std::string& name, const val& request) {
  auto found = scalebook::find_simulation(name);
  if (!found.ok()) return error_to_js(found.error());
  const std::string& list_field = found.value()->list_field;
  scalebook::SimulationRequest q;
  val keys = val::global("Object").call<val>("keys", request);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    val v = request[key];
    if (v.isNull() || v.isUndefined()) continue;
    if (list_field.empty() || key != list_field) {
      q.fields[key] = inputs_value(v);
      continue;
    }
    if (v.instanceof (val::global("Float64Array")))
      q.values = emscripten::convertJSArrayToNumberVector<double>(v);
    else
      q.values.push_back(std::nan(""));
  }
  auto result = scalebook::simulate(name, q);
  if (!result.ok()) return error_to_js(result.error());
  return ok_with("simulation", node_to_js(result.value()));
}

val simulations() {
  val out = val::array();
  for (const std::string& name : scalebook::simulation_names()) out.call<void>("push", val(name));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook_simulations) {
  emscripten::function("simulate", &simulate);
  emscripten::function("simulations", &simulations);
}
