// Embind marshalling only: engine structs to plain JS objects and back. No arithmetic, no
// defaults; the JS wrapper (engine.mjs) turns error values into CalculatorError. This file:
// calculators, the chip catalog, sweeps and formatting, which every module has; each domain's
// own functions are in its file (transformer.cpp, exercises.cpp, ...), which a module built
// without that domain leaves out (bindings/wasm/CMakeLists.txt).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "marshal.h"
#include "scalebook/core/format.h"
#include "scalebook/core/json.h"
#include "scalebook/core/registry.h"
#include "scalebook/core/result_builder.h"
#include "scalebook/core/sweep.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/json.h"

using emscripten::val;

namespace {

using namespace scalebook::wasm;

// list, schema, calculate and chips go through the engine's one marshaller
// (scalebook/core/json.h) as JSON text, which engine.mjs parses: the same bits as the CLI and
// the fixtures, and one string across the boundary instead of a call per field.
std::string list() {
  scalebook::Json array = scalebook::Json::array();
  for (const std::string& name : scalebook::calculator_names()) {
    array.push_back(
        {{"name", name}, {"description", scalebook::schema_of(name).value().description}});
  }
  return scalebook::dump(array);
}

std::string schema(const std::string& name) {
  auto result = scalebook::schema_of(name);
  if (!result.ok()) return scalebook::dump(scalebook::to_json(result.error()));
  return scalebook::dump({{"schema", scalebook::to_json(result.value())}});
}

// steps: false is the numbers-only path (no LaTeX built); the JSON has no "steps" then.
std::string calculate(const std::string& name, const val& inputs, bool steps) {
  auto result = scalebook::calculate(name, inputs_from_js(inputs), {.explain = steps});
  if (!result.ok()) return scalebook::dump(scalebook::to_json(result.error()));
  return "{\"outputs\":" + scalebook::calculation_text(result.value(), false) +
         ",\"steps\":" + (steps ? scalebook::steps_text(result.value().steps) : "[]") + "}";
}

// calculate, telling `report` (a JS function, which engine.mjs makes safe) the fraction of its
// work done as it goes: the search worker posts it to the page.
std::string calculate_with_progress(const std::string& name, const val& inputs, bool steps,
                                    const val& report) {
  scalebook::CalculateOptions options{.explain = steps};
  options.progress = [&report](double fraction) { report(fraction); };
  auto result = scalebook::calculate(name, inputs_from_js(inputs), options);
  if (!result.ok()) return scalebook::dump(scalebook::to_json(result.error()));
  return "{\"outputs\":" + scalebook::calculation_text(result.value(), false) +
         ",\"steps\":" + (steps ? scalebook::steps_text(result.value().steps) : "[]") + "}";
}

std::string chips() {
  scalebook::Json array = scalebook::Json::array();
  for (const scalebook::Chip& chip : scalebook::chips()) array.push_back(scalebook::to_json(chip));
  return scalebook::dump(array);
}

// A Float64Array (engine.mjs converts and checks a plain list first): one copy into the heap.
std::vector<double> numbers_from_js(const val& list) {
  return emscripten::convertJSArrayToNumberVector<double>(list);
}

std::vector<std::string> strings_from_js(const val& list) {
  std::vector<std::string> out;
  if (!val::global("Array").call<bool>("isArray", list)) return out;
  for (unsigned i = 0, n = list["length"].as<unsigned>(); i < n; ++i)
    out.push_back(list[i].as<std::string>());
  return out;
}

// A sweep's series come back as Float64Arrays (NaN where an output has no value).
val sweep(const std::string& name, const val& inputs, const std::string& over, const val& values,
          const val& outputs) {
  scalebook::SweepRequest q{name, inputs_from_js(inputs), over, numbers_from_js(values),
                            strings_from_js(outputs)};
  auto result = scalebook::sweep(q);
  if (!result.ok()) return error_to_js(result.error());
  val series = val::object();
  for (std::size_t k = 0; k < result.value().outputs.size(); ++k)
    series.set(result.value().outputs[k], doubles_to_js(result.value().series[k]));
  val out = val::object();
  out.set("values", doubles_to_js(result.value().values));
  out.set("series", series);
  return ok_with("sweep", out);
}

std::string solve(const std::string& name, const val& inputs, const std::string& over,
                  const std::string& output, double target, double lo, double hi) {
  auto result = scalebook::solve({name, inputs_from_js(inputs), over, output, target, lo, hi});
  if (!result.ok()) return scalebook::dump(scalebook::to_json(result.error()));
  const scalebook::SolveResult& r = result.value();
  return scalebook::dump({{"solve",
                           {{"at", scalebook::to_json(r.at)},
                            {"output_at", r.output_at},
                            {"at_lo", r.at_lo},
                            {"evaluations", r.evaluations}}}});
}

val format_value(double x, const std::string& unit, const std::string& style) {
  if (!scalebook::is_format_style(style)) {
    return error_to_js({scalebook::ErrorCode::invalid_argument, "style",
                        "style must be one of si, sci, int, num, raw, got \"" + style + "\""});
  }
  return ok_with("text", val(scalebook::format_value(x, unit, style)));
}

// Many numbers in one crossing (a page formats a whole result at once): values and units one
// per line, the values as JavaScript's String(x) writes them, which strtod reads back exactly.
// style is a format style, or "value" for display_text's rule. The texts come back one per line.
val format_many(const std::string& values, const std::string& units, const std::string& style) {
  const bool display = style == "value";
  if (!display && !scalebook::is_format_style(style)) {
    return error_to_js(
        {scalebook::ErrorCode::invalid_argument, "style",
         "style must be one of value, si, sci, int, num, raw, got \"" + style + "\""});
  }
  std::string out;
  std::size_t v = 0, u = 0;
  while (v <= values.size()) {
    std::size_t v_end = values.find('\n', v), u_end = units.find('\n', u);
    if (v_end == std::string::npos) v_end = values.size();
    if (u_end == std::string::npos) u_end = units.size();
    const std::string number = values.substr(v, v_end - v);
    const std::string unit = u <= units.size() ? units.substr(u, u_end - u) : "";
    const double x = std::strtod(number.c_str(), nullptr);
    if (!out.empty() || v > 0) out += '\n';
    out += display ? scalebook::display_text(x, unit) : scalebook::format_value(x, unit, style);
    v = v_end + 1;
    u = u_end + 1;
  }
  return ok_with("text", val(out));
}

// False in a numbers-only module (numbers_only.cpp), which builds no worked steps.
bool explains() { return scalebook::kExplains; }

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook) {
  emscripten::function("explains", &explains);
  emscripten::function("list", &list);
  emscripten::function("schema", &schema);
  emscripten::function("calculate", &calculate);
  emscripten::function("calculateWithProgress", &calculate_with_progress);
  emscripten::function("chips", &chips);
  emscripten::function("format", &format_value);
  emscripten::function("formatMany", &format_many);
  emscripten::function("sweep", &sweep);
  emscripten::function("solve", &solve);
}
