// Embind marshalling only: a prepared calculation for JS. Its inputs are checked once; then
// each evaluation reads the varying numbers from, and writes the outputs to, two arrays in
// the module's memory that engine.mjs fills and reads through HEAPF64, so a call moves one
// typed array in and one out and allocates nothing.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "marshal.h"
#include "scalebook/core/json.h"
#include "scalebook/core/registry.h"

using emscripten::val;

namespace {

using namespace scalebook::wasm;

class Prepared {
 public:
  Prepared(scalebook::PreparedCalculation p, std::size_t varying)
      : prepared_(std::move(p)), x_(varying), y_(prepared_.outputs().size()) {}

  // Byte addresses in the module's memory; engine.mjs reads them again after every call,
  // since a growing heap moves HEAPF64 but not these arrays.
  std::uintptr_t inputs() const { return reinterpret_cast<std::uintptr_t>(x_.data()); }
  std::uintptr_t results() const { return reinterpret_cast<std::uintptr_t>(y_.data()); }
  unsigned input_count() const { return static_cast<unsigned>(x_.size()); }

  val outputs() const {
    val names = val::array();
    for (const std::string& name : prepared_.outputs()) names.call<void>("push", name);
    return names;
  }

  // Empty when the evaluation worked; otherwise the error as JSON text.
  std::string evaluate() {
    if (auto bad = prepared_.evaluate(x_.data(), y_.data())) {
      return scalebook::dump(scalebook::to_json(*bad));
    }
    return {};
  }

 private:
  scalebook::PreparedCalculation prepared_;
  std::vector<double> x_;
  std::vector<double> y_;
};

std::vector<std::string> names_from_js(const val& list) {
  std::vector<std::string> out;
  if (!val::global("Array").call<bool>("isArray", list)) return out;
  for (unsigned i = 0, n = list["length"].as<unsigned>(); i < n; ++i)
    out.push_back(list[i].as<std::string>());
  return out;
}

// { ok: true, prepared } or { ok: false, error }; engine.mjs has checked that `vary` and
// `outputs` are lists of strings.
val prepare(const std::string& name, const val& inputs, const val& vary, const val& outputs) {
  std::vector<std::string> varying = names_from_js(vary);
  auto p = scalebook::PreparedCalculation::make(name, inputs_from_js(inputs), varying,
                                                names_from_js(outputs));
  if (!p.ok()) return error_to_js(p.error());
  return ok_with("prepared", val(Prepared(std::move(p.value()), varying.size())));
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook_prepared) {
  emscripten::class_<Prepared>("Prepared")
      .function("inputs", &Prepared::inputs)
      .function("results", &Prepared::results)
      .function("inputCount", &Prepared::input_count)
      .function("outputs", &Prepared::outputs)
      .function("evaluate", &Prepared::evaluate);
  emscripten::function("prepare", &prepare);
}
