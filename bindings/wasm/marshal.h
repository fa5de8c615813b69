#pragma once
// What both binding files share: errors as { ok: false, error }, results as { ok: true, KEY },
// JS input objects to the engine's named values, and number arrays as Float64Arrays.
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook::wasm {

using emscripten::val;

val error_to_js(const Error& e);
val ok_with(const char* key, val value);
Value inputs_value(const val& v);
Inputs inputs_from_js(const val& inputs);
val doubles_to_js(const std::vector<double>& xs);

}  // namespace scalebook::wasm
