// Exercise files: JSON to ExerciseSpec. nlohmann::json is used without exceptions (the
// WASM build has none): every access checks the type first.
#include <nlohmann/json.hpp>

#include "scalebook/exercises/exercise.h"

namespace scalebook {
namespace {

using Json = nlohmann::ordered_json;  // keeps the author's order of params and values

class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}

  bool failed() const { return !error_.message.empty(); }
  const Error& error() const { return error_; }

  void fail(const std::string& field, const std::string& what) {
    if (failed()) return;
    error_ = Error{ErrorCode::invalid_argument, field, where_ + ": " + field + " " + what};
  }

  std::string text(const Json& obj, const std::string& key, bool required,
                   const std::string& prefix = "") {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) fail(prefix + key, "is missing");
      return {};
    }
    if (!it->is_string()) {
      fail(prefix + key, "must be text");
      return {};
    }
    return it->get_ref<const std::string&>();
  }

  double number(const Json& obj, const std::string& key, double fallback,
                const std::string& prefix = "") {
    auto it = obj.find(key);
    if (it == obj.end()) return fallback;
    if (!it->is_number()) {
      fail(prefix + key, "must be a number");
      return fallback;
    }
    return it->get<double>();
  }

  bool flag(const Json& obj, const std::string& key, const std::string& prefix = "") {
    auto it = obj.find(key);
    if (it == obj.end()) return false;
    if (!it->is_boolean()) {
      fail(prefix + key, "must be true or false");
      return false;
    }
    return it->get<bool>();
  }

  std::vector<std::string> texts(const Json& obj, const std::string& key,
                                 const std::string& prefix = "") {
    std::vector<std::string> out;
    auto it = obj.find(key);
    if (it == obj.end()) return out;
    if (!it->is_array()) {
      fail(prefix + key, "must be a list of text");
      return out;
    }
    for (const Json& item : *it) {
      if (!item.is_string()) {
        fail(prefix + key, "must be a list of text");
        return out;
      }
      out.push_back(item.get_ref<const std::string&>());
    }
    return out;
  }

  Value value(const Json& j, const std::string& field) {
    if (j.is_number()) return Value::of(j.get<double>());
    if (j.is_string()) return Value::of(j.get_ref<const std::string&>());
    fail(field, "must be a number or text");
    return Value::none();
  }

  CalcSpec calc(const Json& obj, const std::string& prefix) {
    CalcSpec spec;
    spec.calculator = text(obj, "calculator", false, prefix);
    auto it = obj.find("inputs");
    if (it == obj.end()) return spec;
    if (!it->is_object()) {
      fail(prefix + "inputs", "must be an object");
      return spec;
    }
    for (const auto& [key, value_json] : it->items()) {
      spec.inputs.emplace_back(key, value(value_json, prefix + "inputs." + key));
    }
    return spec;
  }

 private:
  std::string where_;
  Error error_;
};

ParamSpec read_param(Reader& r, const std::string& name, const Json& j) {
  std::string prefix = "params." + name + ".";
  ParamSpec p;
  p.name = name;
  if (!j.is_object()) {
    r.fail("params." + name, "must be an object");
    return p;
  }
  auto book = j.find("book");
  if (book == j.end())
    r.fail(prefix + "book", "is missing");
  else
    p.book = r.value(*book, prefix + "book");
  p.choices = r.texts(j, "choices", prefix);
  p.min = r.number(j, "min", 0, prefix);
  p.max = r.number(j, "max", 0, prefix);
  p.integer = r.flag(j, "integer", prefix);
  p.power_of_two = r.flag(j, "power_of_two", prefix);
  p.nice = r.flag(j, "nice", prefix);
  p.format = r.text(j, "format", false, prefix);
  p.unit = r.text(j, "unit", false, prefix);
  if (p.book.is_text() && p.choices.empty()) p.choices = {p.book.text};
  // A number the book's question fixes, which other variants take from the catalog.
  bool from_catalog = p.book.is_number() && p.choices == std::vector<std::string>{"catalog"};
  if (p.book.is_number() && !p.choices.empty() && !from_catalog) {
    r.fail(prefix + "choices", "of a number parameter can only be [\"catalog\"]");
  }
  if (from_catalog && (j.find("min") != j.end() || j.find("max") != j.end())) {
    r.fail(prefix + "min", "and max do not go with choices [\"catalog\"]");
  }
  if (p.book.is_number() && j.find("min") == j.end() && j.find("max") == j.end()) {
    p.min = p.max = p.book.number;  // fixed
  }
  if (p.book.is_number() && p.min > p.max) r.fail(prefix + "min", "must not exceed max");
  return p;
}

PartSpec read_part(Reader& r, size_t index, const Json& j) {
  std::string prefix = "parts[" + std::to_string(index) + "].";
  PartSpec part;
  if (!j.is_object()) {
    r.fail("parts[" + std::to_string(index) + "]", "must be an object");
    return part;
  }
  part.id = r.text(j, "id", false, prefix);
  if (part.id.empty()) part.id = std::string(1, static_cast<char>('a' + index % 26));
  part.kind = r.text(j, "kind", false, prefix);
  if (part.kind.empty()) part.kind = "number";
  if (part.kind != "number" && part.kind != "choice") {
    r.fail(prefix + "kind", "must be number or choice, got \"" + part.kind + "\"");
  }
  part.label = r.text(j, "label", false, prefix);
  part.calc = r.calc(j, prefix);
  part.output = r.text(j, "output", false, prefix);
  part.answer = r.text(j, "answer", false, prefix);
  if (part.output.empty() == part.answer.empty()) {
    r.fail(prefix + "output", "or answer (an expression) must be given, and not both");
  }
  part.choices = r.texts(j, "choices", prefix);
  part.unit = r.text(j, "unit", part.kind == "number", prefix);
  auto tol = j.find("tolerance");
  if (tol != j.end() && tol->is_object()) {
    part.tolerance.rel = r.number(*tol, "rel", 0, prefix + "tolerance.");
    part.tolerance.abs = r.number(*tol, "abs", 0, prefix + "tolerance.");
  } else if (tol != j.end()) {
    r.fail(prefix + "tolerance", "must be an object with rel and/or abs");
  }
  auto book = j.find("book");
  if (book != j.end() && book->is_object()) {
    part.book.present = book->find("value") != book->end();
    part.book.value = r.number(*book, "value", 0, prefix + "book.");
    part.book.tolerance_rel = r.number(*book, "tolerance_rel", 0.01, prefix + "book.");
    part.book.erratum = r.text(*book, "erratum", false, prefix + "book.");
  }
  return part;
}

ExerciseSpec read_exercise(const Json& j, const std::string& chapter, Reader& r) {
  ExerciseSpec e;
  e.chapter = chapter;
  e.id = r.text(j, "id", true);
  e.section = r.text(j, "section", true);
  e.book_ref = r.text(j, "book_ref", true);
  e.title = r.text(j, "title", true);
  e.prompt = r.text(j, "prompt", true);
  e.hints = r.texts(j, "hints");
  e.conditions = r.texts(j, "conditions");
  if (auto params = j.find("params"); params != j.end()) {
    if (!params->is_object())
      r.fail("params", "must be an object");
    else
      for (const auto& [name, spec] : params->items())
        e.params.push_back(read_param(r, name, spec));
  }
  if (auto values = j.find("values"); values != j.end()) {
    if (!values->is_object())
      r.fail("values", "must be an object");
    else
      for (const auto& [name, spec] : values->items()) {
        std::string prefix = "values." + name + ".";
        if (!spec.is_object()) {
          r.fail("values." + name, "must be an object");
          continue;
        }
        e.values.push_back({name, r.calc(spec, prefix), r.text(spec, "output", true, prefix),
                            r.text(spec, "format", false, prefix)});
      }
  }
  auto parts = j.find("parts");
  if (parts == j.end() || !parts->is_array() || parts->empty()) {
    r.fail("parts", "must be a non-empty list");
  } else {
    for (size_t i = 0; i < parts->size(); ++i) e.parts.push_back(read_part(r, i, (*parts)[i]));
  }
  return e;
}

}  // namespace

Result<ExerciseFile> parse_exercise_file(std::string_view text) {
  Json root = Json::parse(text.begin(), text.end(), nullptr, false);
  if (root.is_discarded()) {
    return Error{ErrorCode::invalid_argument, "file", "the exercise file is not valid JSON"};
  }
  if (!root.is_object()) {
    return Error{ErrorCode::invalid_argument, "file", "the exercise file must be a JSON object"};
  }
  ExerciseFile file;
  Reader top("exercise file");
  file.chapter = top.text(root, "chapter", true);
  auto list = root.find("exercises");
  if (list == root.end() || !list->is_array()) top.fail("exercises", "must be a list");
  if (top.failed()) return top.error();
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& j = (*list)[i];
    std::string where = "exercise " + std::to_string(i + 1);
    if (j.is_object() && j.find("id") != j.end() && j["id"].is_string()) {
      where = "exercise " + j["id"].get<std::string>();
    }
    Reader r(where);
    if (!j.is_object())
      r.fail("entry", "must be an object");
    else
      file.exercises.push_back(read_exercise(j, file.chapter, r));
    if (r.failed()) return r.error();
  }
  return file;
}

}  // namespace scalebook
