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

Value inputs_value(const val& v) {
  std::string type = v.typeOf().as<std::string>();
  if (type == "number") return Value::of(v.as<double>());
  if (type == "string") return Value::of(v.as<std::string>());
  return Value::of(val::global("String")(v).as<std::string>());
}

// `inputs` is a plain object; numbers stay numbers, strings are parsed by the engine,
// null and undefined mean "use the default", anything else is passed on as its text.
Inputs inputs_from_js(const val& inputs) {
  Inputs in;
  val keys = val::global("Object").call<val>("keys", inputs);
  const unsigned n = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    val v = inputs[key];
    std::string type = v.typeOf().as<std::string>();
    if (type == "number")
      in[key] = Value::of(v.as<double>());
    else if (type == "string")
      in[key] = Value::of(v.as<std::string>());
    else if (!v.isNull() && !v.isUndefined())
      in[key] = Value::of(val::global("String")(v).as<std::string>());
  }
  return in;
}

val doubles_to_js(const std::vector<double>& xs) {
  return val(emscripten::typed_memory_view(xs.size(), xs.data())).call<val>("slice");
}

}  // namespace scalebook::wasm
