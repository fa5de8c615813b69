#include "marshal.h"

namespace scalebook::wasm {

val error_to_js(const Error& e) {
  val error = val::object();
  error.set("code", std::string(to_string(e.code)));
  error.set("field", e.field);
  error.set("message", e.message);
  if (e.position >= 0) error.set("position", e.position);
  val out = val::object();
  out.set("ok", false);
  out.set("error", error);
  return out;
}

val ok_with(const char* key, val value) {
  val out = val::object();
  out.set("ok", true);
  out.set(key, value);
  return out;
}

// Anything but a number or a string becomes a text naming its type, which the engine refuses
// naming the field: String(v) here could run user code (a throwing toString), and a JS throw
// inside a C++ call leaks the module's stack. engine.mjs refuses such values before this.
Value inputs_value(const val& v) {
  std::string type = v.typeOf().as<std::string>();
  if (type == "number") return Value::of(v.as<double>());
  if (type == "string") return Value::of(v.as<std::string>());
  return Value::of("[" + type + "]");
}

// `inputs` is a plain object; numbers stay numbers, strings are parsed by the engine,
// null and undefined mean "use the default", anything else as inputs_value passes it.
Inputs inputs_from_js(const val& inputs) {
  Inputs in;
  val keys = val::global("Object").call<val>("keys", inputs);
  const unsigned n = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    val v = inputs[key];
    if (!v.isNull() && !v.isUndefined()) in[key] = inputs_value(v);
  }
  return in;
}

val doubles_to_js(const std::vector<double>& xs) {
  return val(emscripten::typed_memory_view(xs.size(), xs.data())).call<val>("slice");
}

}  // namespace scalebook::wasm
