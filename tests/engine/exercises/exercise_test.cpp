#include "scalebook/exercises/exercise.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace scalebook;

namespace {

const ExerciseFile& roofline_file() {
  static const ExerciseFile file = [] {
    std::ifstream in(SCALEBOOK_EXERCISES_DIR "/01-roofline.json");
    std::stringstream text;
    text << in.rdbuf();
    Result<ExerciseFile> parsed = parse_exercise_file(text.str());
    if (!parsed.ok()) FAIL(parsed.error().message);
    return parsed.value();
  }();
  return file;
}

const ExerciseSpec& exercise(const std::string& id) {
  for (const ExerciseSpec& e : roofline_file().exercises)
    if (e.id == id) return e;
  FAIL("no exercise " << id);
  return roofline_file().exercises[0];
}

Variant variant(const std::string& id, uint32_t seed) {
  Result<Variant> v = make_variant(exercise(id), seed);
  if (!v.ok()) FAIL(v.error().message);
  return v.value();
}

Grade grade(const std::string& id, uint32_t seed, size_t part, const std::string& answer) {
  Result<PartGrade> g = grade_part(exercise(id), seed, part, answer);
  if (!g.ok()) FAIL(g.error().message);
  return g.value().grade;
}

const char* kMinimal = R"({"chapter": "x", "exercises": [{"id": "e", "section": "s",
  "book_ref": "r", "title": "t", "prompt": "p {{B}}",
  "params": {"B": {"book": 256, "min": 16, "max": 4096, "power_of_two": true}},
  "parts": [{"calculator": "matmul", "inputs": {"B": "$B"}, "output": "t_compute",
             "unit": "us", "tolerance": {"rel": 0.02}}]}]})";

}  // namespace

TEST_CASE("every chapter 1 exercise agrees with the book and draws valid variants", "[exercise]") {
  REQUIRE(roofline_file().exercises.size() >= 12);
  for (const ExerciseSpec& e : roofline_file().exercises) {
    INFO(e.id);
    std::vector<Error> problems = check_exercise(e, 50);
    for (const Error& p : problems) FAIL_CHECK(p.message);
    CHECK(problems.empty());
  }
}

TEST_CASE("checking a file counts its calculations first and refuses past the budget",
          "[exercise]") {
  Result<ExerciseFile> minimal = parse_exercise_file(kMinimal);
  REQUIRE(minimal.ok());
  // One part a variant: the book's variant and 4999 drawn ones are exactly the budget.
  CHECK_FALSE(check_budget(minimal.value(), 4999));
  std::optional<Error> over = check_budget(minimal.value(), 5000);
  REQUIRE(over);
  CHECK(over->code == ErrorCode::out_of_range);
  CHECK(over->field == "seeds");
  CHECK(over->message ==
        "checking 1 exercise(s) at 5000 seeds runs 5001 calculations (1 a variant), more than "
        "the budget of 5000; check fewer seeds");
  // The chapter's own file at the builder's 20 seeds is well inside it.
  CHECK_FALSE(check_budget(roofline_file(), 20));
  CHECK(check_budget(roofline_file(), 1000)->message ==
        "checking 13 exercise(s) at 1000 seeds runs 28028 calculations (28 a variant), more "
        "than the budget of 5000; check fewer seeds");
}

TEST_CASE("variant 0 is the book's problem with the engine's answer", "[exercise]") {
  Variant v = variant("roofline-ex3-critical-batch", 0);
  CHECK(v.prompt.find("TPU v5e (1.97e14 FLOP/s, 8.2e11 B/s") != std::string::npos);
  CHECK(v.parts[0].expected == Approx(240.2439024).epsilon(1e-9));
  CHECK(v.parts[0].unit == "tokens");
  REQUIRE(v.parts[0].steps.size() == 2);
  CHECK(v.parts[0].steps[1].label == "Critical batch (B much less than D, F)");
  Variant ex1 = variant("roofline-ex1-h100-time", 0);
  CHECK(ex1.parts[0].expected == Approx(1.0111223).epsilon(1e-6));            // ms
  CHECK(ex1.parts[1].expected == Approx(1e12 / 9.1e14 * 1e3).epsilon(1e-9));  // the book's v6e
  CHECK(ex1.parts[1].book.erratum.empty());
}

TEST_CASE("a seed gives the same variant every time, and seeds differ", "[exercise]") {
  Variant a = variant("roofline-q1d-int8-times", 12345);
  Variant b = variant("roofline-q1d-int8-times", 12345);
  CHECK(a.prompt == b.prompt);
  CHECK(a.parts[0].expected == b.parts[0].expected);
  bool differs = false;
  for (uint32_t seed = 1; seed < 20; ++seed) {
    differs = differs || variant("roofline-q1d-int8-times", seed).prompt !=
                             variant("roofline-q1d-int8-times", 0).prompt;
  }
  CHECK(differs);
}

TEST_CASE("drawn parameters obey their rules and the conditions", "[exercise]") {
  for (uint32_t seed = 1; seed <= 200; ++seed) {
    Variant v = variant("roofline-ex5-tokens", seed);
    auto param = [&](const std::string& name) {
      for (const auto& [key, value] : v.params)
        if (key == name) return value.number;
      FAIL("no parameter " << name);
      return 0.0;
    };
    double sequences = param("sequences"), seq_len = param("seq_len"), gpus = param("gpus");
    INFO("seed " << seed);
    CHECK(sequences >= 64);
    CHECK(sequences <= 4096);
    CHECK(gpus <= 8192);
    CHECK(sequences * seq_len >= gpus);  // the exercise's condition
    double p = 1;
    while (p < sequences) p *= 2;
    CHECK(p == sequences);  // a power of two
  }
}

TEST_CASE("answers are graded with units, tolerance and slips", "[exercise]") {
  CHECK(grade("roofline-ex3-critical-batch", 0, 0, "240").correct);
  CHECK(grade("roofline-ex3-critical-batch", 0, 0, "240 tokens").correct);
  CHECK(grade("roofline-ex3-critical-batch", 0, 0, "2.4e2").correct);
  CHECK_FALSE(grade("roofline-ex3-critical-batch", 0, 0, "120").correct);
  Grade unit = grade("roofline-ex3-critical-batch", 0, 0, "5 ms");
  CHECK(unit.slip == "wrong-unit");
  CHECK_FALSE(unit.correct);
  CHECK(grade("roofline-ex1-h100-time", 0, 0, "1.01").correct);     // read in ms
  CHECK(grade("roofline-ex1-h100-time", 0, 0, "1011 us").correct);  // converted
  CHECK(grade("roofline-ex1-h100-time", 0, 0, "0.00101 s").correct);
  CHECK(grade("roofline-ex1-h100-time", 0, 0, "1.01 s").slip == "prefix-1000");
  Grade garbage = grade("roofline-ex1-h100-time", 0, 0, "about one");
  CHECK_FALSE(garbage.parsed);
  CHECK(garbage.feedback == "\"about one\" is not a number");
}

TEST_CASE("a choice part is graded against the engine's text output", "[exercise]") {
  CHECK(variant("roofline-bound-choice", 0).parts[0].expected_choice == "memory");
  CHECK(grade("roofline-bound-choice", 0, 0, "memory").correct);
  CHECK_FALSE(grade("roofline-bound-choice", 0, 0, "compute").correct);
  CHECK(grade("roofline-bound-choice", 0, 0, "banana").feedback == "choose one of the options");
}

TEST_CASE("an answer given as an expression shows its steps and the arithmetic", "[exercise]") {
  Variant v = variant("roofline-ex4-critical-d", 0);
  CHECK(v.parts[0].expected == Approx(8755.555556).epsilon(1e-9));
  REQUIRE_FALSE(v.parts[0].steps.empty());
  CHECK(v.parts[0].steps.back().label == "Answer");
  CHECK(v.parts[0].steps.back().latex == "2 \\times 4378 = 8756");
  CHECK(v.parts[0].steps.front().label == "Critical intensity against the chip-to-chip link");
}

TEST_CASE("bad seeds, parts and files get clear errors", "[exercise]") {
  CHECK(parse_seed(Value::of("banana")).error().message ==
        "seed must be a whole number from 0 to 4294967295, got \"banana\"");
  CHECK(parse_seed(Value::of(-1.0)).error().message ==
        "seed must be a whole number from 0 to 4294967295, got -1");
  CHECK(parse_seed(Value::of(2.5)).error().field == "seed");
  CHECK(parse_seed(Value::of("4294967295")).value() == 4294967295u);
  CHECK(parse_seed(Value::of("4294967296")).error().field == "seed");
  Result<PartGrade> part = grade_part(exercise("roofline-ex3-critical-batch"), 0, 3, "1");
  CHECK(part.error().message == "roofline-ex3-critical-batch has 1 part(s), got part 4");
  CHECK(parse_exercise_file("{not json").error().message == "the exercise file is not valid JSON");
  CHECK(parse_exercise_file("[]").error().message == "the exercise file must be a JSON object");
  std::string missing = kMinimal;
  missing.replace(missing.find("\"title\": \"t\","), 13, "");
  CHECK(parse_exercise_file(missing).error().message == "exercise e: title is missing");
  std::string bad_unit = kMinimal;
  bad_unit.replace(bad_unit.find("\"us\""), 4, "\"GB/s\"");
  Result<ExerciseFile> f = parse_exercise_file(bad_unit);
  REQUIRE(f.ok());
  CHECK(make_variant(f.value().exercises[0], 0).error().message ==
        "part a: unit \"GB/s\" does not measure the answer (s)");
  std::string bad_ref = kMinimal;
  bad_ref.replace(bad_ref.find("\"$B\""), 4, "\"$Q\"");
  CHECK(make_variant(parse_exercise_file(bad_ref).value().exercises[0], 0).error().message ==
        "part a: input B refers to unknown parameter $Q");
  std::string bad_prompt = kMinimal;
  bad_prompt.replace(bad_prompt.find("{{B}}"), 5, "{{C}}");
  CHECK(make_variant(parse_exercise_file(bad_prompt).value().exercises[0], 0).error().message ==
        "the prompt uses {{C}}, which is no parameter or value");
}

TEST_CASE("later parts see earlier answers in SI units, whatever unit each asks in", "[exercise]") {
  // Part a asks in us and part b in ms; b = 2 * a must still be twice the same time.
  const char* text = R"({"chapter": "x", "exercises": [{"id": "e", "section": "s",
    "book_ref": "r", "title": "t", "prompt": "p",
    "parts": [{"id": "a", "calculator": "matmul", "inputs": {"B": 256}, "output": "t_compute",
               "unit": "us", "tolerance": {"rel": 0.02}},
              {"id": "b", "answer": "2 * a", "unit": "ms", "tolerance": {"rel": 0.02}}]}]})";
  Result<ExerciseFile> file = parse_exercise_file(text);
  REQUIRE(file.ok());
  Result<Variant> v = make_variant(file.value().exercises[0], 0);
  REQUIRE(v.ok());
  CHECK(v.value().parts[1].expected == Approx(2 * v.value().parts[0].expected / 1000));
}
