// Embind marshalling of the sharding layout, the sharding picture's data (one file per domain,
// as systolic.cpp).
#include "scalebook/sharding/sharding.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "marshal.h"

namespace {

using namespace scalebook::wasm;

// shardingLayout: the request's two texts go to the engine as given (absent: empty, which
// the engine reports); only marshalling after that.
val sharding_layout(const val& request) {
  const char* const fields[] = {"array", "mesh"};
  val keys = val::global("Object").call<val>("keys", request);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    if (key == fields[0] || key == fields[1]) continue;
    return error_to_js({scalebook::ErrorCode::invalid_argument, key,
                        "shardingLayout has no field \"" + key + "\"; its fields are array, mesh"});
  }
  std::string text[2];
  for (int i = 0; i < 2; ++i) {
    val v = request[fields[i]];
    if (v.isNull() || v.isUndefined()) continue;
    scalebook::Value given = inputs_value(v);  // never String(v): see inputs_value
    text[i] = given.is_number() ? val(given.number).call<std::string>("toString") : given.text;
  }
  auto result = scalebook::sharding_layout(text[0], text[1]);
  if (!result.ok()) return error_to_js(result.error());
  const scalebook::ShardingLayout& l = result.value();
  auto axes_to_js = [](const std::string& axes) {
    val array = val::array();
    for (char a : axes) array.call<void>("push", std::string(1, a));
    return array;
  };
  auto numbers_to_js = [](const std::vector<std::int64_t>& xs) {
    val array = val::array();
    for (std::int64_t x : xs) array.call<void>("push", static_cast<double>(x));
    return array;
  };
  val mesh = val::array();
  for (const scalebook::Axis& a : l.mesh.axes) {
    val j = val::object();
    j.set("name", std::string(1, a.name));
    j.set("size", static_cast<double>(a.size));
    mesh.call<void>("push", j);
  }
  val dims = val::array();
  for (const scalebook::LayoutDim& d : l.dims) {
    val j = val::object();
    j.set("name", d.name);
    j.set("axes", axes_to_js(d.axes));
    j.set("pieces", static_cast<double>(d.pieces));
    dims.call<void>("push", j);
  }
  val devices = val::array();
  for (const scalebook::LayoutDevice& d : l.devices) {
    val j = val::object();
    j.set("id", static_cast<double>(d.id));
    j.set("coords", numbers_to_js(d.coords));
    j.set("pieces", numbers_to_js(d.pieces));
    devices.call<void>("push", j);
  }
  val out = val::object();
  out.set("mesh", mesh);
  out.set("array", l.array);
  out.set("dims", dims);
  out.set("unreduced", axes_to_js(l.unreduced));
  out.set("devices", devices);
  out.set("partition_spec", l.partition_spec);
  return ok_with("layout", out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook_sharding) {
  emscripten::function("shardingLayout", &sharding_layout);
}
