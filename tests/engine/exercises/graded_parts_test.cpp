// Whole parts of the book's exercises graded as a reader answers them: choices in any case,
// answers over the length limit refused before any work, and the number forms of
// answer_forms_test.cpp reaching the page's grade with their notes.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "scalebook/exercises/exercise.h"

using namespace scalebook;

namespace {

const ExerciseSpec& exercise(const std::string& file, const std::string& id) {
  static std::map<std::string, ExerciseFile> files;
  if (files.count(file) == 0) {
    std::ifstream in(std::string(SCALEBOOK_EXERCISES_DIR) + "/" + file);
    std::stringstream text;
    text << in.rdbuf();
    Result<ExerciseFile> parsed = parse_exercise_file(text.str());
    if (!parsed.ok()) FAIL(parsed.error().message);
    files.emplace(file, parsed.value());
  }
  for (const ExerciseSpec& e : files.at(file).exercises)
    if (e.id == id) return e;
  FAIL("no exercise " << id << " in " << file);
  return files.at(file).exercises[0];
}

Grade grade(const std::string& file, const std::string& id, size_t part,
            const std::string& answer) {
  Result<PartGrade> g = grade_part(exercise(file, id), 0, part, answer);
  if (!g.ok()) FAIL(g.error().message);
  return g.value().grade;
}

Grade bound_choice(const std::string& answer) {
  return grade("01-roofline.json", "roofline-bound-choice", 0, answer);  // "memory"
}

}  // namespace

TEST_CASE("a choice is matched whatever its case and the spaces around it", "[exercise][choice]") {
  for (std::string answer :
       {"memory", "MEMORY", "Memory", "  memory  ", "\tMeMoRy\n", "\u00a0memory\u00a0"}) {
    INFO("answer \"" << answer << "\"");
    Grade g = bound_choice(answer);
    CHECK(g.parsed);
    CHECK(g.correct);
    CHECK(g.feedback == "correct");
  }
  Grade wrong = bound_choice("COMPUTE");
  CHECK(wrong.parsed);
  CHECK_FALSE(wrong.correct);
  CHECK(wrong.feedback == "not quite");
  CHECK(grade("03-sharding.json", "sharding-pq3-allgather-time", 3, "Latency").correct);
  CHECK_FALSE(grade("03-sharding.json", "sharding-pq3-allgather-time", 3, "Bandwidth").correct);
  CHECK(grade("03-sharding.json", "sharding-q4-two-strategies", 4, "ALL-GATHER").parsed);
}

TEST_CASE("a choice still has to be one of the options", "[exercise][choice]") {
  for (std::string answer :
       {"", "   ", "banana", "mem", "memoryy", "memory bound", "m e m o r y"}) {
    INFO("answer \"" << answer << "\"");
    Grade g = bound_choice(answer);
    CHECK_FALSE(g.parsed);
    CHECK_FALSE(g.correct);
    CHECK(g.feedback == "choose one of the options");
  }
}

TEST_CASE("a choice answer over 200 characters is refused before it is read",
          "[exercise][choice]") {
  const std::string too_long = "the answer is too long";
  CHECK(bound_choice("memory" + std::string(194, ' ')).correct);  // 200 characters
  for (const std::string& answer : {"memory" + std::string(195, ' '), std::string(1000000, ' '),
                                    std::string(201, 'm'), std::string(1000000, ' ') + "memory"}) {
    INFO(answer.size() << " characters");
    Grade g = bound_choice(answer);
    CHECK_FALSE(g.parsed);
    CHECK_FALSE(g.correct);
    CHECK(g.feedback == too_long);
  }
  Grade number = grade("01-roofline.json", "roofline-ex3-critical-batch", 0,
                       std::string(1000000, ' ') + "240");
  CHECK_FALSE(number.parsed);
  CHECK(number.feedback == too_long);
}

TEST_CASE("a power-of-two answer written with k is graded with the reading noted",
          "[exercise][forms]") {
  // D = 4096: attention matches the projections at T = 2D = 8192 tokens (1% tolerance).
  Grade g = grade("04-transformers.json", "transformers-q5-projections", 0, "8k");
  CHECK(g.correct);
  CHECK(g.value == 8192);
  CHECK(g.feedback == "correct (8k read as 8 x 1024 = 8,192)");
  CHECK(grade("04-transformers.json", "transformers-q5-projections", 0, "8192").feedback ==
        "correct");
  CHECK_FALSE(grade("04-transformers.json", "transformers-q5-projections", 0, "4k").correct);
  CHECK_FALSE(grade("04-transformers.json", "transformers-q5-projections", 0, "16k").correct);
}

TEST_CASE("the book's exercises take the forms readers write", "[exercise][forms]") {
  CHECK(grade("01-roofline.json", "roofline-ex1-h100-time", 0, "1.01 milliseconds").correct);
  CHECK(grade("01-roofline.json", "roofline-ex1-h100-time", 0, "1011 microseconds").correct);
  CHECK_FALSE(grade("01-roofline.json", "roofline-ex1-h100-time", 0, "1.01 seconds").correct);
  CHECK(grade("01-roofline.json", "roofline-ex3-critical-batch", 0, "~240").correct);
  CHECK(grade("01-roofline.json", "roofline-ex3-critical-batch", 0, "\u2248240").correct);
  CHECK_FALSE(grade("01-roofline.json", "roofline-ex3-critical-batch", 0, "~120").correct);
  // MFU: 3.33e24 / 1.52e25 = 21.9%.
  CHECK(grade("04-transformers.json", "transformers-q7-deepseek-mfu", 2, "21.9%").correct);
  CHECK(grade("04-transformers.json", "transformers-q7-deepseek-mfu", 2, "0.219").correct);
  CHECK_FALSE(grade("04-transformers.json", "transformers-q7-deepseek-mfu", 2, "43.8%").correct);
  Grade count = grade("01-roofline.json", "roofline-ex3-critical-batch", 0, "24000%");
  CHECK_FALSE(count.correct);
  CHECK(count.slip == "wrong-unit");
  CHECK(grade("02-tpus.json", "tpus-q1-latency-bound", 0, "12.5 gigabytes").correct);
  CHECK_FALSE(grade("02-tpus.json", "tpus-q1-latency-bound", 0, "12.5 gibibytes").correct);
}

TEST_CASE("the check refuses options that differ only in case", "[exercise][choice]") {
  const char* text = R"({"chapter": "x", "exercises": [{"id": "e", "section": "s",
    "book_ref": "r", "title": "t", "prompt": "p",
    "parts": [{"kind": "choice", "calculator": "matmul", "inputs": {"B": 128},
               "output": "bound", "choices": ["compute", "memory", "Memory"]}]}]})";
  Result<ExerciseFile> file = parse_exercise_file(text);
  REQUIRE(file.ok());
  std::vector<Error> problems = check_exercise(file.value().exercises[0], 0);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].field == "parts.a.choices");
  CHECK(problems[0].message == "part a: choices \"memory\" and \"Memory\" differ only in case");
}
