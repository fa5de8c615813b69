// Embind marshalling of the exercises domain: variants, grades, the file checker and answer
// parsing. Only the modules that grade hold it (bindings/wasm/CMakeLists.txt): a chapter's
// calculators come in a smaller module, and the grader loads when a reader reaches for an
// exercise (web/runtime/exercises/sb-exercise.js).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "marshal.h"
#include "scalebook/core/json.h"
#include "scalebook/exercises/answer.h"
#include "scalebook/exercises/exercise.h"
#include "scalebook/exercises/json.h"

using emscripten::val;

namespace {

using namespace scalebook::wasm;

// Finds exercise `id` in the file text; an error value when the file or the id is bad.
scalebook::Result<scalebook::ExerciseSpec> find_exercise(const std::string& file,
                                                         const std::string& id) {
  auto parsed = scalebook::parse_exercise_file(file);
  if (!parsed.ok()) return parsed.error();
  for (const scalebook::ExerciseSpec& e : parsed.value().exercises)
    if (e.id == id) return e;
  return scalebook::Error{scalebook::ErrorCode::not_found, "id", "unknown exercise \"" + id + "\""};
}

// Variants and grades go through the engine's marshaller (scalebook/exercises/json.h), as
// the CLI's do; engine.mjs parses the text.
std::string exercise_variant(const std::string& file, const std::string& id, const val& seed_js) {
  auto e = find_exercise(file, id);
  if (!e.ok()) return scalebook::dump(scalebook::to_json(e.error()));
  auto seed = scalebook::parse_seed(inputs_value(seed_js));
  if (!seed.ok()) return scalebook::dump(scalebook::to_json(seed.error()));
  auto v = scalebook::make_variant(e.value(), seed.value());
  if (!v.ok()) return scalebook::dump(scalebook::to_json(v.error()));
  return scalebook::dump({{"variant", scalebook::to_json(e.value(), v.value(), true)}});
}

std::string exercise_grade(const std::string& file, const std::string& id, const val& seed_js,
                           double part, const std::string& answer) {
  auto e = find_exercise(file, id);
  if (!e.ok()) return scalebook::dump(scalebook::to_json(e.error()));
  auto seed = scalebook::parse_seed(inputs_value(seed_js));
  if (!seed.ok()) return scalebook::dump(scalebook::to_json(seed.error()));
  if (!(part >= 0 && part < 1e6 && part == static_cast<double>(static_cast<size_t>(part)))) {
    return scalebook::dump(scalebook::to_json(scalebook::Error{
        scalebook::ErrorCode::invalid_argument, "part", "part must be a whole number from 0"}));
  }
  auto g = scalebook::grade_part(e.value(), seed.value(), static_cast<size_t>(part), answer);
  if (!g.ok()) return scalebook::dump(scalebook::to_json(g.error()));
  return scalebook::dump({{"grade", scalebook::to_json(g.value(), answer, false)}});
}

val exercise_check(const std::string& file, double seeds) {
  auto parsed = scalebook::parse_exercise_file(file);
  if (!parsed.ok()) return error_to_js(parsed.error());
  val problems = val::array();
  uint32_t n = seeds >= 0 && seeds <= 1000 ? static_cast<uint32_t>(seeds) : 0;
  if (auto over = scalebook::check_budget(parsed.value(), n)) return error_to_js(*over);
  for (const scalebook::ExerciseSpec& e : parsed.value().exercises) {
    for (const scalebook::Error& p : scalebook::check_exercise(e, n)) {
      val j = val::object();
      j.set("exercise", e.id);
      j.set("field", p.field);
      j.set("message", p.message);
      problems.call<void>("push", j);
    }
  }
  val ids = val::array();
  for (const scalebook::ExerciseSpec& e : parsed.value().exercises) ids.call<void>("push", e.id);
  val out = val::object();
  out.set("ok", true);
  out.set("problems", problems);
  out.set("ids", ids);
  return out;
}

val parse_answer(const std::string& text) {
  auto q = scalebook::parse_answer(text);
  if (!q.ok()) return error_to_js(q.error());
  val out = val::object();
  out.set("value", q.value().value);
  out.set("unit", q.value().has_unit ? val(q.value().unit.symbol) : val::null());
  return ok_with("quantity", out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook_exercises) {
  emscripten::function("exerciseVariant", &exercise_variant);
  emscripten::function("exerciseGrade", &exercise_grade);
  emscripten::function("exerciseCheck", &exercise_check);
  emscripten::function("parseAnswer", &parse_answer);
}
