// The exercise commands: the CLI reads the exercise files; the engine does the rest.
#include "exercise_cmd.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "scalebook/core/format.h"
#include "scalebook/exercises/exercise.h"
#include "scalebook/exercises/json.h"
#include "text_out.h"

namespace scalebook::cli {
namespace {

namespace fs = std::filesystem;

struct Loaded {
  std::string path;
  ExerciseFile file;
};

std::string exercises_dir(const Options& opt) {
  if (opt.exercises) return *opt.exercises;
  if (const char* env = std::getenv("SCALEBOOK_EXERCISES")) return env;
  return SCALEBOOK_EXERCISES_DIR;
}

Result<Loaded> load_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{ErrorCode::not_found, "path", "cannot read " + path.string()};
  std::stringstream text;
  text << in.rdbuf();
  Result<ExerciseFile> file = parse_exercise_file(text.str());
  if (!file.ok()) {
    Error e = file.error();
    e.message = path.string() + ": " + e.message;
    return e;
  }
  return Loaded{path.string(), file.value()};
}

Result<std::vector<Loaded>> load_all(const std::string& where) {
  std::error_code ec;
  std::vector<fs::path> paths;
  if (fs::is_directory(where, ec)) {
    for (const auto& entry : fs::directory_iterator(where, ec)) {
      if (entry.path().extension() == ".json") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
  } else if (fs::exists(where, ec)) {
    paths.push_back(where);
  } else {
    return Error{ErrorCode::not_found, "path", "no exercise file or folder at " + where};
  }
  std::vector<Loaded> out;
  for (const fs::path& p : paths) {
    Result<Loaded> one = load_file(p);
    if (!one.ok()) return one.error();
    out.push_back(one.value());
  }
  return out;
}

const ExerciseSpec* find_exercise(const std::vector<Loaded>& all, const std::string& id) {
  for (const Loaded& l : all)
    for (const ExerciseSpec& e : l.file.exercises)
      if (e.id == id) return &e;
  return nullptr;
}

Result<uint32_t> seed_of(const Options& opt) {
  return opt.seed ? parse_seed(Value::of(*opt.seed)) : Result<uint32_t>(0u);
}

Result<size_t> part_of(const Options& opt, const ExerciseSpec& e) {
  if (!opt.part) return size_t{0};
  for (size_t i = 0; i < e.parts.size(); ++i) {
    if (e.parts[i].id == *opt.part || std::to_string(i + 1) == *opt.part) return i;
  }
  std::string ids;
  for (const PartSpec& p : e.parts) ids += (ids.empty() ? "" : ", ") + p.id;
  return Error{ErrorCode::invalid_argument, "part",
               "part must be one of " + ids + " (or 1 to " + std::to_string(e.parts.size()) +
                   "), got \"" + *opt.part + "\""};
}

std::string variant_text(const Variant& v, bool explain) {
  std::string out =
      v.title + " (" + v.id + ", seed " + std::to_string(v.seed) + ")\n\n" + v.prompt + "\n";
  for (const PartVariant& p : v.parts) {
    out += "\npart " + p.id + (p.label.empty() ? "" : ": " + p.label) +
           (p.unit.empty() ? "" : " [" + p.unit + "]") + "\n";
    if (p.kind == "choice") {
      for (const std::string& c : p.choices) out += "  - " + c + "\n";
    }
    if (explain) {
      for (const Step& s : p.steps) out += "  " + s.label + ": " + s.latex + "\n";
      out += "  answer: " +
             (p.kind == "choice" ? p.expected_choice : format_number(p.expected) + " " + p.unit) +
             "\n";
    }
  }
  return out;
}

int list(const Options& opt, const std::vector<Loaded>& all) {
  std::string chapter = opt.words.size() > 2 ? opt.words[2] : "";
  Json json = Json::array();
  std::string text;
  for (const Loaded& l : all) {
    for (const ExerciseSpec& e : l.file.exercises) {
      if (!chapter.empty() && e.chapter != chapter && e.chapter.substr(0, 2) != chapter) continue;
      json.push_back({{"id", e.id},
                      {"chapter", e.chapter},
                      {"section", e.section},
                      {"title", e.title},
                      {"book_ref", e.book_ref},
                      {"parts", e.parts.size()}});
      text += e.id + "  " + e.title + "  (" + e.chapter + ", " + e.section + ")\n";
    }
  }
  print(opt, json, text);
  return 0;
}

int show(const Options& opt, const ExerciseSpec& e) {
  Result<uint32_t> seed = seed_of(opt);
  if (!seed.ok()) return fail(opt, seed.error());
  Result<Variant> v = make_variant(e, seed.value());
  if (!v.ok()) return fail(opt, v.error());
  print(opt, to_json(e, v.value(), opt.explain), variant_text(v.value(), opt.explain));
  return 0;
}

int grade(const Options& opt, const ExerciseSpec& e) {
  if (!opt.answer) {
    return fail(opt, Error{ErrorCode::invalid_argument, "answer", "grade needs --answer"});
  }
  Result<uint32_t> seed = seed_of(opt);
  if (!seed.ok()) return fail(opt, seed.error());
  Result<size_t> part = part_of(opt, e);
  if (!part.ok()) return fail(opt, part.error());
  Result<PartGrade> g = grade_part(e, seed.value(), part.value(), *opt.answer);
  if (!g.ok()) return fail(opt, g.error());
  const PartGrade& r = g.value();
  bool choice = r.part.kind == "choice";
  Json json = to_json(r, *opt.answer, opt.explain);
  std::string text =
      std::string(r.grade.correct ? "correct" : "incorrect") + ": " + r.grade.feedback + "\n";
  if (opt.explain) {
    text += "expected " +
            (choice ? r.part.expected_choice : format_number(r.part.expected) + " " + r.part.unit) +
            "\n";
  }
  print(opt, json, text);
  return 0;
}

// Seeds each exercise is checked at, and the budget for a file's check: natively a
// calculation runs some 40 times faster than in a page's WebAssembly.
constexpr uint32_t kCheckedSeeds = 50;
constexpr double kCheckBudget = 10 * kMaxCheckCalculations;

int check(const Options& opt) {
  std::string where = opt.words.size() > 2 ? opt.words[2] : exercises_dir(opt);
  Result<std::vector<Loaded>> all = load_all(where);
  if (!all.ok()) return fail(opt, all.error());
  for (const Loaded& l : all.value()) {
    if (auto over = check_budget(l.file, kCheckedSeeds, kCheckBudget))
      return fail(opt, Error{over->code, over->field, l.path + ": " + over->message});
  }
  Json problems = Json::array();
  std::string text;
  size_t count = 0;
  std::vector<std::string> ids;
  for (const Loaded& l : all.value()) {
    for (const ExerciseSpec& e : l.file.exercises) {
      ++count;
      std::vector<Error> found = check_exercise(e, kCheckedSeeds);
      for (const std::string& id : ids) {
        if (id == e.id) found.push_back({ErrorCode::invalid_argument, "id", "id is used twice"});
      }
      ids.push_back(e.id);
      for (const Error& p : found) {
        problems.push_back(
            {{"file", l.path}, {"exercise", e.id}, {"field", p.field}, {"message", p.message}});
        text += l.path + ": " + e.id + ": " + p.message + "\n";
      }
    }
  }
  text += std::to_string(count) + " exercise(s) in " + std::to_string(all.value().size()) +
          " file(s), " + std::to_string(problems.size()) + " problem(s)\n";
  print(opt, {{"exercises", count}, {"files", all.value().size()}, {"problems", problems}}, text);
  return problems.empty() ? 0 : 1;
}

}  // namespace

int exercise_command(const Options& opt) {
  const std::string sub = opt.words.size() > 1 ? opt.words[1] : "";
  if (sub == "check") return check(opt);
  if (sub != "list" && sub != "show" && sub != "grade") {
    return fail(opt, Error{ErrorCode::invalid_argument, "",
                           "exercise takes list, show, grade or check, got \"" + sub + "\""});
  }
  Result<std::vector<Loaded>> all = load_all(exercises_dir(opt));
  if (!all.ok()) return fail(opt, all.error());
  if (sub == "list") return list(opt, all.value());
  if (opt.words.size() < 3)
    return fail(opt, Error{ErrorCode::invalid_argument, "id", sub + " needs an exercise id"});
  const ExerciseSpec* e = find_exercise(all.value(), opt.words[2]);
  if (!e) {
    return fail(opt, Error{ErrorCode::not_found, "id",
                           "unknown exercise \"" + opt.words[2] +
                               "\"; scalebook exercise list shows them"});
  }
  return sub == "show" ? show(opt, *e) : grade(opt, *e);
}

}  // namespace scalebook::cli
