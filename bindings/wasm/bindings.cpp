// Embind marshalling only: engine structs to plain JS objects and back. No arithmetic, no
// defaults; the JS wrapper (engine.mjs) turns error values into CalculatorError.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "scalebook/catalog.h"
#include "scalebook/registry.h"

using emscripten::val;

namespace {

val to_js(const scalebook::Value& v) {
  if (v.is_number()) return val(v.number);
  if (v.is_text()) return val(v.text);
  return val::null();
}

val error_to_js(const scalebook::Error& e) {
  val error = val::object();
  error.set("code", std::string(scalebook::to_string(e.code)));
  error.set("field", e.field);
  error.set("message", e.message);
  val out = val::object();
  out.set("ok", false);
  out.set("error", error);
  return out;
}

val strings_to_js(const std::vector<std::string>& items) {
  val array = val::array();
  for (const std::string& s : items) array.call<void>("push", s);
  return array;
}

val schema_to_js(const scalebook::Schema& schema) {
  val inputs = val::array();
  for (const scalebook::InputSpec& in : schema.inputs) {
    val j = val::object();
    j.set("name", in.name);
    j.set("type", std::string(scalebook::to_string(in.kind)));
    j.set("unit", in.unit);
    j.set("description", in.description);
    j.set("default", to_js(in.default_value));
    if (in.kind == scalebook::InputKind::choice) {
      j.set("choices", strings_to_js(in.choices));
    } else {
      j.set("min", in.min);
      j.set("min_exclusive", in.min_exclusive);
      j.set("max", in.max);
    }
    inputs.call<void>("push", j);
  }
  val outputs = val::array();
  for (const scalebook::OutputSpec& o : schema.outputs) {
    val j = val::object();
    j.set("name", o.name);
    j.set("type", std::string(o.is_text ? "text" : "number"));
    j.set("unit", o.unit);
    j.set("description", o.description);
    outputs.call<void>("push", j);
  }
  val out = val::object();
  out.set("name", schema.name);
  out.set("description", schema.description);
  out.set("inputs", inputs);
  out.set("outputs", outputs);
  return out;
}

val list() {
  val array = val::array();
  for (const std::string& name : scalebook::calculator_names()) {
    val item = val::object();
    item.set("name", name);
    item.set("description", scalebook::schema_of(name).value().description);
    array.call<void>("push", item);
  }
  return array;
}

val schema(const std::string& name) {
  auto result = scalebook::schema_of(name);
  if (!result.ok()) return error_to_js(result.error());
  val out = val::object();
  out.set("ok", true);
  out.set("schema", schema_to_js(result.value()));
  return out;
}

// `inputs` is a plain object; numbers stay numbers, strings are parsed by the engine,
// null and undefined mean "use the default", anything else is passed on as its text.
scalebook::Inputs inputs_from_js(const val& inputs) {
  scalebook::Inputs in;
  val keys = val::global("Object").call<val>("keys", inputs);
  const unsigned n = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    val v = inputs[key];
    std::string type = v.typeOf().as<std::string>();
    if (type == "number")
      in[key] = scalebook::Value::of(v.as<double>());
    else if (type == "string")
      in[key] = scalebook::Value::of(v.as<std::string>());
    else if (!v.isNull() && !v.isUndefined())
      in[key] = scalebook::Value::of(val::global("String")(v).as<std::string>());
  }
  return in;
}

val calculate(const std::string& name, const val& inputs) {
  auto result = scalebook::calculate(name, inputs_from_js(inputs));
  if (!result.ok()) return error_to_js(result.error());
  val outputs = val::object();
  for (const auto& [key, value] : result.value().outputs) outputs.set(key, to_js(value));
  val steps = val::array();
  for (const scalebook::Step& s : result.value().steps) {
    val step = val::object();
    step.set("label", s.label);
    step.set("latex", s.latex);
    step.set("value", s.value);
    step.set("unit", s.unit);
    step.set("output", s.output);
    step.set("depends", strings_to_js(s.depends));
    steps.call<void>("push", step);
  }
  val out = val::object();
  out.set("ok", true);
  out.set("outputs", outputs);
  out.set("steps", steps);
  return out;
}

val chips() {
  val array = val::array();
  for (const scalebook::Chip& chip : scalebook::chips()) {
    val peaks = val::object();
    for (const scalebook::PeakFlops& p : chip.peaks) {
      peaks.set(std::string(scalebook::to_string(p.dtype)), p.flops_per_s);
    }
    val notes = val::object();
    for (const scalebook::SourceNote& n : chip.notes) notes.set(n.field, n.note);
    val j = val::object();
    j.set("id", chip.id);
    j.set("name", chip.name);
    j.set("vendor", chip.vendor);
    j.set("peak_flops", peaks);
    j.set("hbm_bandwidth", chip.hbm_bandwidth);
    j.set("hbm_capacity", chip.hbm_capacity);
    j.set("comm_bandwidth", chip.comm_bandwidth);
    j.set("comm_link", chip.comm_link);
    j.set("notes", notes);
    array.call<void>("push", j);
  }
  return array;
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook) {
  emscripten::function("list", &list);
  emscripten::function("schema", &schema);
  emscripten::function("calculate", &calculate);
  emscripten::function("chips", &chips);
}
