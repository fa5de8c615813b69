// The training-plan calculator's planner over pods against chapter 5's worked example (LLaMA 3
// 70B with F = 30,000 and a 2M-token batch on full v5p pods: two pods) and chapter 6's q1 (4M
// tokens of the real LLaMA 3 70B: four pods). By hand, from the v5p's C = 4.59e14 FLOP/s,
// W_ici = 2 x 9e10 B/s (alpha = 2550) and W_dcn = 6.25e9 B/s (C / W_dcn = 73,440):
//   mixed threshold alpha^2 / (M_X M_Y F) = 2550^2 / (2 x 30000) = 108.375 tokens per chip,
//   FSDP's alpha / 3 = 850.
// "2M" is 2^21 = 2,097,152 tokens (512 sequences of 4096), as chapter 6 writes 4M: a batch of
// exactly 2e6 tokens has only 2^7 in it and no 1024-way FSDP mesh can split it.
#include <cmath>
#include <string>
#include <vector>

#include "helpers.h"
#include "scalebook/core/registry.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

Calculation plan(Inputs in = {}) { return run("training-plan", in); }

std::string out_text(const Calculation& c, const std::string& name) {
  return output_value(c, name).text;
}

// The chapter's example: the book's MLP with F = 30,000 on one full v5p pod to start from.
Inputs example(double B) {
  return {{"model", text("book-mlp")}, {"F", num(30000)}, {"B", num(B)}, {"T", num(4096)}};
}

const Table& by_pods(const Calculation& c) {
  for (const auto& [name, table] : c.tables)
    if (name == "by_pods") return table;
  FAIL("no by_pods table");
  static Table none;
  return none;
}

std::size_t column(const Table& t, const std::string& name) {
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i] == name) return i;
  FAIL("no column " << name);
  return 0;
}

std::vector<double> numbers(const Table& t, const std::string& name) {
  std::vector<double> v;
  for (const auto& row : t.rows) v.push_back(row[column(t, name)].number);
  return v;
}

std::vector<std::string> texts(const Table& t, const std::string& name) {
  std::vector<std::string> v;
  for (const auto& row : t.rows) v.push_back(row[column(t, name)].text);
  return v;
}

constexpr double k2M = 2097152;
constexpr double kMixed = 2550.0 * 2550 / (2 * 30000);  // 108.375

}  // namespace

TEST_CASE("2M tokens with F = 30,000: the mix binds at 2.16 pods, so two full v5p pods",
          "[plan][pods]") {
  Calculation c = plan(example(k2M));
  CHECK(output(c, "chips_per_pod") == 8960);
  CHECK(output(c, "mixed_batch") == Approx(kMixed));
  // 2,097,152 / (8960 x 108.375) = 2,097,152 / 971,040 = 2.160: two pods give each chip
  // 2,097,152 / 17,920 = 117 tokens (>= 108), three would give 78.
  CHECK(output(c, "pods_at_mixed") == Approx(k2M / (8960 * kMixed)));
  CHECK(output(c, "pods_at_mixed") == Approx(2.1597).epsilon(1e-4));
  // FSDP alone binds below one pod: 2,097,152 / (8960 x 850) = 0.275.
  CHECK(output(c, "pods_at_fsdp") == Approx(k2M / (8960 * 850.0)));
  // DCN only at 2,097,152 / 73,440 = 28.6 pods, far away; per chip of a pod, 73,440 / 8960 = 8.2.
  CHECK(output(c, "pods_at_dcn") == Approx(k2M / 73440));
  CHECK(output(c, "dcn_per_chip") == Approx(73440.0 / 8960));
  CHECK(output(c, "pods_recommended") == 2);
  CHECK(out_text(c, "pods_ok") == "yes");
  CHECK(output(c, "pods_chips") == 17920);
  // Each pod: 1,048,576 tokens, X_opt = sqrt(1048576 / 30000 x 2 x 8960) = 791 -> 1024, and TP
  // takes 8192 / 1024 = 8: the book's 1024 x 8; 256 sequences a pod, each in 4 parts.
  CHECK(output(c, "pods_fsdp_degree") == 1024);
  CHECK(output(c, "pods_tp_degree") == 8);
  CHECK(out_text(c, "pods_mesh") ==
        "2-way DP over DCN x 1024-way FSDP (256 data x 4 sequence) x 8-way TP on 16384 of 17920 "
        "chips");
  // The one-pod questions are unchanged by the planner.
  CHECK(out_text(c, "mesh") ==
        "1024-way FSDP (512 data x 2 sequence) x 8-way TP on 8192 of 8960 chips");
}

TEST_CASE("the by-pods table runs 1, 2, 4, 8 pods around the recommended two", "[plan][pods]") {
  Calculation c = plan(example(k2M));
  const Table& t = by_pods(c);
  CHECK(numbers(t, "pods") == std::vector<double>{1, 2, 4, 8});
  CHECK(numbers(t, "chips") == std::vector<double>{8960, 17920, 35840, 71680});
  CHECK(numbers(t, "tokens_per_pod") == std::vector<double>{k2M, k2M / 2, k2M / 4, k2M / 8});
  const std::vector<double> per_chip = numbers(t, "tokens_per_chip");
  CHECK(per_chip[1] == Approx(117.03).epsilon(1e-4));  // 2,097,152 / 17,920
  CHECK(per_chip[2] == Approx(58.51).epsilon(1e-4));   // under 108.375
  CHECK(texts(t, "fsdp_ok") == std::vector<std::string>{"no", "no", "no", "no"});
  CHECK(texts(t, "mixed_ok") == std::vector<std::string>{"yes", "yes", "no", "no"});
  CHECK(texts(t, "dcn_ok") == std::vector<std::string>{"yes", "yes", "yes", "yes"});
  CHECK(texts(t, "bound") == std::vector<std::string>{"compute with FSDP+TP",
                                                      "compute with FSDP+TP", "ICI-bound",
                                                      "ICI-bound"});
  // Four pods: X_opt = sqrt(524288 / 30000 x 2 x 8960) = 560 -> 512, TP 16.
  CHECK(numbers(t, "fsdp_degree") == std::vector<double>{1024, 1024, 512, 512});
  CHECK(numbers(t, "tp_degree") == std::vector<double>{8, 8, 16, 16});
  CHECK(texts(t, "recommended") == std::vector<std::string>{"no", "yes", "no", "no"});
}

TEST_CASE("1M tokens fit one pod as 1024 x 8; 4M tokens of LLaMA 3 70B take four (q1)",
          "[plan][pods]") {
  // 1,048,576 / 971,040 = 1.08 pods.
  Calculation one = plan(example(1048576));
  CHECK(output(one, "pods_at_mixed") == Approx(1.0799).epsilon(1e-4));
  CHECK(output(one, "pods_recommended") == 1);
  CHECK(out_text(one, "pods_mesh") ==
        "1024-way FSDP (256 data x 4 sequence) x 8-way TP on 8192 of 8960 chips");
  CHECK(numbers(by_pods(one), "pods") == std::vector<double>{1, 2, 4});
  // F = 28,672: 2550^2 / (2 x 28672) = 113.4 per chip; 4,194,304 / (8960 x 113.4) = 4.13.
  Calculation four = plan();
  CHECK(output(four, "pods_at_mixed") == Approx(4194304 / (8960 * 2550.0 * 2550 / 57344)));
  CHECK(output(four, "pods_recommended") == 4);
  CHECK(out_text(four, "pods_mesh") ==
        "4-way DP over DCN x 1024-way FSDP (256 data x 4 sequence) x 8-way TP on 32768 of 35840 "
        "chips");
  CHECK(numbers(by_pods(four), "pods") == std::vector<double>{1, 2, 4, 8, 16});
  // The planner's answer is the pod count the q1 questions call compute-bound.
  Calculation q1 = plan({{"chips", num(4 * 8960)}, {"slices", num(4)}});
  CHECK(out_text(q1, "mixed_ok") == "yes");
  CHECK(out_text(q1, "mesh") == out_text(four, "pods_mesh"));
  // Given four pods, the planner still adds pods of 8960 chips and answers the same.
  CHECK(output(q1, "chips_per_pod") == 8960);
  CHECK(output(q1, "pods_recommended") == 4);
}

TEST_CASE("a count that is not a power of two: 768 sequences take three pods", "[plan][pods]") {
  // 3,145,728 / 971,040 = 3.24 pods, and 768 sequences split over 3.
  Calculation c = plan(example(3145728));
  CHECK(output(c, "pods_at_mixed") == Approx(3.2396).epsilon(1e-4));
  CHECK(output(c, "pods_recommended") == 3);
  CHECK(out_text(c, "pods_mesh") ==
        "3-way DP over DCN x 1024-way FSDP (256 data x 4 sequence) x 8-way TP on 24576 of 26880 "
        "chips");
  // Up to 4 x 3 = 12, rounded up to 16; 3 joins the powers of two in order.
  const Table& t = by_pods(c);
  CHECK(numbers(t, "pods") == std::vector<double>{1, 2, 3, 4, 8, 16});
  CHECK(texts(t, "recommended") == std::vector<std::string>{"no", "no", "yes", "no", "no", "no"});
}

TEST_CASE("small pods: DCN binds first, at 57 pods of 256 chips, so 32", "[plan][pods]") {
  // LLaMA 3 70B, 4M tokens, pods of 256 chips: the mix binds at 4,194,304 / (256 x 113.4) =
  // 144.5 pods, DCN at 4,194,304 / 73,440 = 57.1; the most pods under 57.1 that 1024 sequences
  // split over is 32.
  Calculation c = plan({{"chips", num(256)}});
  CHECK(output(c, "pods_at_mixed") == Approx(144.5).epsilon(1e-3));
  CHECK(output(c, "pods_at_dcn") == Approx(57.11).epsilon(1e-3));
  CHECK(output(c, "pods_recommended") == 32);
  // 131,072 tokens a pod, 512 a chip: the mix, not FSDP alone (850). X_opt = sqrt(131072 /
  // 28672 x 2 x 256) = 48.4 -> 64, TP 4; 32 sequences a pod, each in 2 parts.
  CHECK(out_text(c, "pods_mesh") ==
        "32-way DP over DCN x 64-way FSDP (32 data x 2 sequence) x 4-way TP on 8192 chips");
  // 64 and 128 pods: 65,536 and 32,768 tokens a pod, under 73,440, while each chip's 256 and 128
  // tokens still clear 113.4.
  const Table& t = by_pods(c);
  CHECK(numbers(t, "pods") == std::vector<double>{1, 2, 4, 8, 16, 32, 64, 128});
  CHECK(texts(t, "bound").back() == "DCN-bound");
  CHECK(texts(t, "bound")[6] == "DCN-bound");
  CHECK(texts(t, "dcn_ok")[5] == "yes");
}

TEST_CASE("FSDP alone up to 4.8 pods of 1024 chips, the mix to 36, then both bind",
          "[plan][pods]") {
  // 4,194,304 / 1024 = 4096 tokens per chip at one pod; FSDP binds at 4096 / 850 = 4.82 pods,
  // the mix at 4096 / 113.4 = 36.1, DCN at 57.1: 32 pods.
  Calculation c = plan({{"chips", num(1024)}});
  CHECK(output(c, "pods_at_fsdp") == Approx(4096.0 / 850));
  CHECK(output(c, "pods_recommended") == 32);
  const Table& t = by_pods(c);
  CHECK(numbers(t, "pods") == std::vector<double>{1, 2, 4, 8, 16, 32, 64, 128});
  const std::vector<std::string> bound = texts(t, "bound");
  CHECK(bound[0] == "compute with FSDP");
  CHECK(bound[2] == "compute with FSDP");
  CHECK(bound[3] == "compute with FSDP+TP");
  CHECK(bound[5] == "compute with FSDP+TP");
  // 64 pods: 64 tokens a chip (< 113.4) and 65,536 a pod (< 73,440).
  CHECK(bound[6] == "ICI- and DCN-bound");
}

TEST_CASE("a batch too small for one pod: one pod, flagged communication-bound", "[plan][pods]") {
  // 262,144 tokens over 8960 chips is 29 a chip: the mix binds at 262,144 / 971,040 = 0.27 pods.
  Calculation c = plan(example(262144));
  CHECK(output(c, "pods_at_mixed") == Approx(0.26996).epsilon(1e-4));
  CHECK(output(c, "pods_recommended") == 1);
  CHECK(out_text(c, "pods_ok") == "no");
  const Table& t = by_pods(c);
  CHECK(numbers(t, "pods") == std::vector<double>{1, 2, 4});
  CHECK(texts(t, "bound")[0] == "ICI-bound");
  CHECK(texts(t, "recommended")[0] == "yes");
}

TEST_CASE("six sequences: the recommended six pods come after the table's powers of two",
          "[plan][pods]") {
  // 6 sequences of 73,728 tokens on pods of 16 chips: each pod's 73,728 tokens just clear
  // 73,440 at six pods (442,368 / 73,440 = 6.02), and FSDP alone holds (4608 a chip); 4 pods
  // would leave 1.5 sequences a pod, so the table skips it.
  Calculation c = plan({{"B", num(442368)}, {"T", num(73728)}, {"chips", num(16)}});
  CHECK(output(c, "pods_at_dcn") == Approx(442368.0 / 73440));
  CHECK(output(c, "pods_recommended") == 6);
  CHECK(out_text(c, "pods_mesh") ==
        "6-way DP over DCN x 16-way FSDP (1 data x 16 sequence) on 96 chips");
  CHECK(numbers(by_pods(c), "pods") == std::vector<double>{1, 2, 6});
}

TEST_CASE("training-plan: the planner's numbers have their worked steps", "[plan][pods]") {
  Calculation c = plan(example(k2M));
  for (const char* name :
       {"chips_per_pod", "pods_at_fsdp", "pods_at_mixed", "pods_at_dcn", "dcn_per_chip",
        "pods_recommended", "pods_chips", "pods_fsdp_degree", "pods_tp_degree"}) {
    INFO(name);
    bool found = false;
    for (const Step& s : c.steps)
      if (s.output == name) {
        found = true;
        CHECK(s.value == Approx(output(c, name)));
      }
    CHECK(found);
  }
  for (const Step& s : c.steps)
    if (s.output == "pods_recommended")
      CHECK(s.latex ==
            "k = \\max\\{k \\le \\min(\\max(k_\\text{FSDP}, k_\\text{mixed}), k_\\text{DCN}) = "
            "2.16 : k \\mid 512\\} = 2");
  Calculation small = plan(example(262144));
  for (const Step& s : small.steps)
    if (s.output == "pods_recommended")
      CHECK(s.label == "Even one pod is communication-bound: the fewest pods, one");
}
