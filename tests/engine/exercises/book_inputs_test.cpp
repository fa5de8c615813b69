// Seed 0 is the book's problem as the book states it: where a question fixes its own inputs,
// the book's variant uses them and lands on the book's answer without an erratum.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/exercises/exercise.h"

using namespace scalebook;

namespace {

const ExerciseSpec& find_exercise(const std::string& file, const std::string& id) {
  static std::vector<std::pair<std::string, ExerciseFile>> loaded;
  for (const auto& [name, f] : loaded) {
    if (name != file) continue;
    for (const ExerciseSpec& e : f.exercises)
      if (e.id == id) return e;
  }
  std::ifstream in(std::string(SCALEBOOK_EXERCISES_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  Result<ExerciseFile> parsed = parse_exercise_file(text.str());
  if (!parsed.ok()) FAIL(file << ": " << parsed.error().message);
  loaded.emplace_back(file, parsed.value());
  for (const ExerciseSpec& e : loaded.back().second.exercises)
    if (e.id == id) return e;
  FAIL("no exercise " << id << " in " << file);
  return loaded.back().second.exercises[0];
}

const PartVariant& part_of(const Variant& v, const std::string& id) {
  for (const PartVariant& p : v.parts)
    if (p.id == id) return p;
  FAIL("no part " << id);
  return v.parts[0];
}

Variant variant(const ExerciseSpec& e, uint32_t seed) {
  Result<Variant> v = make_variant(e, seed);
  if (!v.ok()) FAIL(e.id << ": " << v.error().message);
  return v.value();
}

struct BookCase {
  const char* file;
  const char* id;
  const char* part;
  double book;  // the book's answer, in the part's unit
};

// The book's answers, each from the book's own inputs (shared/book/problems).
const BookCase kCases[] = {
    {"01-roofline.json", "roofline-ex1-h100-time", "b", 1.1},         // 1e12 / 9.1e14 s, in ms
    {"02-tpus.json", "tpus-q3-pcie", "a", 57500},                     // 9.2e14 / 1.6e10
    {"03-sharding.json", "sharding-pq1-bytes-per-device", "b", 294},  // 1e6 B / 3.4e12 B/s, ns
    {"04-transformers.json", "transformers-q7-deepseek-mfu", "b", 3.3e24},  // 6 * 37e9 * 14.8e12
    {"04-transformers.json", "transformers-q7-deepseek-mfu", "c", 0.217},
    {"05-training.json", "training-wx-dp-threshold", "b", 850},           // 4.59e14 / 1.8e11 / 3
    {"05-training.json", "training-wx-dp-threshold", "c", 7.6e6},         // 850 x 8960
    {"05-training.json", "training-wx-llama3-70b-fsdp-16M", "b", 18823},  // 16e6 / 850
    {"05-training.json", "training-wx-mixed-threshold", "a", 99},         // 2550^2 / (2 x 32768)
    {"05-training.json", "training-wx-dcn-intensity", "a", 73440},        // 4.59e14 / 6.25e9
    {"05-training.json", "training-q2-memory", "a", 130},                 // 10 bytes x 13e9, GB
    {"05-training.json", "training-q2-memory", "b", 42},                  // 2 L B (D + 2F), TB
    {"05-training.json", "training-q3a-pure-dp", "b", 130},               // GB on every chip
    {"05-training.json", "training-q3b-fsdp", "c", 3.48e6},               // 850 x 4096
    {"05-training.json", "training-q3c-mixed", "a", 235},                 // 2550^2 / (2 x 13824)
};

}  // namespace

TEST_CASE("the book's variant uses the inputs its question fixes and gives the book's answer",
          "[exercise][book]") {
  for (const BookCase& c : kCases) {
    INFO(c.id << " part " << c.part);
    const Variant v = variant(find_exercise(c.file, c.id), 0);  // p refers into it
    const PartVariant& p = part_of(v, c.part);
    CHECK(p.expected == Approx(c.book).epsilon(0.01));
    CHECK(p.book.erratum.empty());  // no erratum: the book is right from its own inputs
  }
}

TEST_CASE("the book's variant prints the inputs its question fixes", "[exercise][book]") {
  CHECK_THAT(variant(find_exercise("02-tpus.json", "tpus-q3-pcie"), 0).prompt,
             Catch::Contains("16 GB/s"));
  CHECK_THAT(variant(find_exercise("01-roofline.json", "roofline-ex1-h100-time"), 0).prompt,
             Catch::Contains("9.1e14"));
  std::string pq1 =
      variant(find_exercise("03-sharding.json", "sharding-pq1-bytes-per-device"), 0).prompt;
  CHECK_THAT(pq1, Catch::Contains("3.4 TB/s"));
  CHECK_THAT(pq1, Catch::Contains("1,000,000 B"));
  // Question 3.3 of chapter 5 takes the v5p's peak as 4.6e14; other variants, the catalog's.
  const ExerciseSpec& q3c = find_exercise("05-training.json", "training-q3c-mixed");
  CHECK_THAT(variant(q3c, 0).prompt, Catch::Contains("4.6e14"));
  CHECK_THAT(variant(q3c, 3).prompt, !Catch::Contains("4.6e14"));
}

TEST_CASE("other variants take the catalog's value for an input only the book's question fixes",
          "[exercise][book]") {
  // roofline-ex1 always names the v6e; past seed 0 its peak is the catalog's, not 9.1e14.
  const ExerciseSpec& e = find_exercise("01-roofline.json", "roofline-ex1-h100-time");
  Variant book = variant(e, 0), other = variant(e, 1);
  double flops_ratio = 0;
  for (const auto& [name, value] : other.params)
    if (name == "flops") flops_ratio = value.number / 1e12;
  REQUIRE(flops_ratio > 0);
  double v6e_book = part_of(book, "b").expected, v6e_other = part_of(other, "b").expected;
  // Same chip, different peak: the time per FLOP differs by 9.1e14 / catalog peak.
  CHECK(v6e_other / flops_ratio != Approx(v6e_book).epsilon(1e-6));
  CHECK_THAT(other.prompt, !Catch::Contains("9.1e14"));
}

TEST_CASE("the real book errors keep their erratum", "[exercise][book]") {
  const ExerciseSpec& q4a = find_exercise("02-tpus.json", "tpus-q4a-int8-matmul");
  CHECK_FALSE(part_of(variant(q4a, 0), "a").book.erratum.empty());
  const ExerciseSpec& q6 = find_exercise("02-tpus.json", "tpus-q6-pipeline");
  CHECK_FALSE(part_of(variant(q6, 0), "a").book.erratum.empty());
  const ExerciseSpec& q4b =
      find_exercise("04-transformers.json", "transformers-q4b-compute-bound-context");
  CHECK_FALSE(part_of(variant(q4b, 0), "a").book.erratum.empty());
  // Chapter 5: the book's 13.9 for X_opt, its summary's 71,000 tokens over DCN, and its
  // 300 ms step that rounds its own 310 ms.
  const std::pair<const char*, const char*> training_errata[] = {
      {"training-wx-xopt-4x4x4", "a"},
      {"training-wx-takeaway-thresholds", "b"},
      {"training-q3c-mixed", "e"}};
  for (const auto& [id, part] : training_errata) {
    INFO(id << " part " << part);
    const Variant v = variant(find_exercise("05-training.json", id), 0);
    CHECK_FALSE(part_of(v, part).book.erratum.empty());
  }
}

TEST_CASE("chapter 5's Question 3 takes the book's 3e6-token batch as stated", "[exercise][book]") {
  // 3e6 tokens of 32,768-token sequences do not split evenly over 4,096 chips; seed 0 keeps the
  // book's number (uneven batch shards) rather than 96 whole sequences (3,145,728 tokens).
  const Variant b = variant(find_exercise("05-training.json", "training-q3b-fsdp"), 0);
  // The checkpoints, 2 L B (D + 2F) = 2 x 40 x 3e6 x 32,768 bytes: the book's 7.86 TB.
  CHECK(part_of(b, "a").expected == Approx(2.0 * 40 * 3e6 * 32768 / 1e12).epsilon(1e-12));
  CHECK(part_of(b, "a").book.erratum.empty());
  const Variant c = variant(find_exercise("05-training.json", "training-q3c-mixed"), 0);
  // X_opt = sqrt(3e6 / 13,824 x 2 x 4,096): the book's 1,333.
  CHECK(part_of(c, "c").expected == Approx(std::sqrt(3e6 / 13824 * 2 * 4096)).epsilon(1e-12));
  CHECK(part_of(c, "c").book.erratum.empty());
}

TEST_CASE("a number parameter's choices can only be [\"catalog\"]", "[exercise][book]") {
  std::string file = R"({"chapter": "x", "exercises": [{"id": "e", "section": "s",
    "book_ref": "r", "title": "t", "prompt": "p",
    "params": {"P": {"book": 1e14, "choices": ["CHOICE"]}},
    "parts": [{"calculator": "roofline", "inputs": {"peak_flops": "$P"}, "output": "t_compute",
               "unit": "us", "tolerance": {"rel": 0.02}}]}]})";
  std::string good = file;
  good.replace(good.find("CHOICE"), 6, "catalog");
  Result<ExerciseFile> f = parse_exercise_file(good);
  REQUIRE(f.ok());
  // 1e12 FLOPs (the default) at the book's 1e14 FLOP/s; the catalog's v5e is 1.97e14.
  CHECK(variant(f.value().exercises[0], 0).parts[0].expected == Approx(1e4));
  CHECK(variant(f.value().exercises[0], 5).parts[0].expected == Approx(1e6 / 197).epsilon(1e-6));
  std::string bad = file;
  bad.replace(bad.find("CHOICE"), 6, "cheap");
  CHECK(parse_exercise_file(bad).error().message ==
        "exercise e: params.P.choices of a number parameter can only be [\"catalog\"]");
}
