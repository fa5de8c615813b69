#pragma once
// Exercise variants and grades as JSON, for the CLI and the WASM API alike (see core/json.h).
#include <string>

#include "scalebook/core/json.h"
#include "scalebook/exercises/exercise.h"

namespace scalebook {

// id, chapter, section, book_ref, seed, title, prompt, params, parts; each part's expected
// answer and worked steps only `with_answers` (the CLI's --explain; the page always, since
// it shows the solution once the reader asks).
Json to_json(const ExerciseSpec& exercise, const Variant& variant, bool with_answers);

// correct, expected, unit, parsed (the answer in the part's unit, or null), feedback, slip;
// the worked steps `with_steps`.
Json to_json(const PartGrade& grade, const std::string& answer, bool with_steps);

}  // namespace scalebook
