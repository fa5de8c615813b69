#include "scalebook/exercises/json.h"

#include <vector>

namespace scalebook {
namespace {

// A part's solution: label, LaTeX, value and unit (which output a step computes is the
// calculator's business, not the reader's).
Json steps_json(const std::vector<Step>& steps) {
  Json out = Json::array();
  for (const Step& s : steps) {
    out.push_back({{"label", s.label}, {"latex", s.latex}, {"value", s.value}, {"unit", s.unit}});
  }
  return out;
}

}  // namespace

Json to_json(const ExerciseSpec& e, const Variant& v, bool with_answers) {
  Json params = Json::object();
  for (const auto& [name, value] : v.params) params[name] = to_json(value);
  Json parts = Json::array();
  for (const PartVariant& p : v.parts) {
    Json j = {{"id", p.id}, {"kind", p.kind}, {"label", p.label}, {"unit", p.unit}};
    if (p.kind == "choice") j["choices"] = p.choices;
    if (with_answers) {
      j["expected"] = p.kind == "choice" ? Json(p.expected_choice) : Json(p.expected);
      j["steps"] = steps_json(p.steps);
    }
    parts.push_back(j);
  }
  return {
      {"id", v.id},     {"chapter", e.chapter}, {"section", e.section}, {"book_ref", e.book_ref},
      {"seed", v.seed}, {"title", v.title},     {"prompt", v.prompt},   {"params", params},
      {"parts", parts}};
}

Json to_json(const PartGrade& r, const std::string& answer, bool with_steps) {
  bool choice = r.part.kind == "choice";
  bool usable = r.grade.parsed && (choice || r.grade.slip != "wrong-unit");
  Json json = {{"correct", r.grade.correct},
               {"expected", choice ? Json(r.part.expected_choice) : Json(r.part.expected)},
               {"unit", r.part.unit},
               {"parsed", !usable  ? Json(nullptr)
                          : choice ? Json(answer)
                                   : Json(r.grade.value)},
               {"feedback", r.grade.feedback},
               {"slip", r.grade.slip}};
  if (with_steps) json["steps"] = steps_json(r.part.steps);
  return json;
}

}  // namespace scalebook
