#include "scalebook/transformer/models.h"

#include <cmath>
#include <set>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

const Model& model(const std::string& id) {
  const Model* found = find_model(id);
  REQUIRE(found != nullptr);
  return *found;
}

// The book's counts leave norm weights out; the catalog's real models count theirs.
double without_norms(const ParamCounts& p) { return p.total - p.norm; }

void check_rule(Model m, const std::string& field, const Value& value, ErrorCode code,
                const std::string& message) {
  REQUIRE(set_model_field(m, field, value));
  std::optional<Error> e = check_model(m);
  REQUIRE(e.has_value());
  check_error(*e, code, field == "N" ? "K" : field, message);
}

}  // namespace

TEST_CASE("the model catalog holds the book's models, LLaMA 3 70B first", "[models]") {
  CHECK(model_ids() == std::vector<std::string>{"llama-3-70b", "llama-3-8b", "llama-3-405b",
                                                "llama-2-13b", "gemma-7b", "gemma-2-27b",
                                                "deepseek-v3", "transformers-q1", "inference-q1",
                                                "inference-q5-moe"});
  CHECK(model("gemma-2-27b").name == "Gemma 2 27B");
  CHECK(find_model("gpt-5") == nullptr);
}

TEST_CASE("every field of every model says where its value comes from", "[models]") {
  for (const Model& m : models()) {
    for (const ModelField& f : model_fields(m)) {
      INFO(m.id << " " << f.name);
      CHECK_FALSE(f.note.empty());
      CHECK_FALSE(f.value.is_none());
    }
    std::set<std::string> seen;
    for (const SourceNote& n : m.notes) {
      INFO(m.id << " note for " << n.field);
      CHECK(find_model_field_spec(n.field) != nullptr);
      CHECK(seen.insert(n.field).second);
    }
  }
}

TEST_CASE("every preset is whole numbers within its fields' ranges and keeps the rules",
          "[models]") {
  for (const Model& m : models()) {
    INFO(m.id);
    CHECK_FALSE(check_model(m).has_value());
    for (const ModelField& f : model_fields(m)) {
      const ModelFieldSpec* spec = find_model_field_spec(f.name);
      REQUIRE(spec != nullptr);
      if (spec->yes_no) {
        CHECK((f.value.text == "yes" || f.value.text == "no"));
      } else {
        INFO(f.name);
        CHECK(f.value.number == std::floor(f.value.number));
        CHECK(f.value.number >= spec->min);
        CHECK(f.value.number <= spec->max);
      }
    }
  }
}

TEST_CASE("LLaMA 3 70B's parts are the book's, and its total the published 70.55e9", "[models]") {
  ParamCounts p = count_params(model("llama-3-70b"));
  // problems/applied-training.json, applied-training-t1: the book's three parts, recomputed.
  CHECK(p.mlp == 56371445760);        // book 56.3e9
  CHECK(p.embedding == 2101346304);   // book 2.1e9
  CHECK(p.attention == 12079595520);  // book 12e9
  CHECK(without_norms(p) == 70552387584);
  CHECK(p.total == Approx(70.4e9).epsilon(0.005));  // the book's sum of rounded parts
  CHECK(p.total == Approx(7.06e10).epsilon(0.001));
  CHECK(p.norm == 80 * 2 * 8192 + 8192);  // two RMSNorms per layer and a final one
  CHECK(p.active == p.total);
  CHECK(p.router == 0);
}

TEST_CASE("LLaMA 3 8B and 405B agree with the configs the problem files count", "[models]") {
  ParamCounts small = count_params(model("llama-3-8b"));
  CHECK(without_norms(small) == 8029995008);  // applied-inference-wp2a
  CHECK(small.total == Approx(8.03e9).epsilon(0.001));
  ParamCounts big = count_params(model("llama-3-405b"));  // applied-training-q2a
  CHECK(big.mlp == 329772957696);
  CHECK(big.attention == 71873593344);
  CHECK(big.embedding == 4202692608);
  CHECK(without_norms(big) == 405849243648);
  CHECK(big.total == Approx(405e9).epsilon(0.005));
}

TEST_CASE("LLaMA 2 13B counts as chapters 5 and 7 count it", "[models]") {
  ParamCounts p = count_params(model("llama-2-13b"));  // training-q1, inference-we-llama2-13b
  CHECK(p.mlp == 8493465600);
  CHECK(p.attention == 4194304000);
  CHECK(p.embedding == 327680000);
  CHECK(without_norms(p) == 13015449600);
  CHECK(p.total == Approx(13e9).epsilon(0.01));
}

TEST_CASE("the book's made-up models count exactly by its formulas", "[models]") {
  // transformers-q1a: L(3DF + 4DNH + D) + 2DV; the book's 16B rounds 4096 to 4e3.
  ParamCounts q1 = count_params(model("transformers-q1"));
  CHECK(q1.total == 17442275328);
  CHECK(q1.total == Approx(16e9).epsilon(0.1));
  // inference-q1a: LD(3F + 2H(N + K)) + DV, tied.
  ParamCounts dense = count_params(model("inference-q1"));
  CHECK(dense.total == 18385207296);
  CHECK(dense.total == Approx(18.4e9).epsilon(0.01));
  // inference-q5a and q5b: 16 experts, top-2; the book counts no router.
  ParamCounts moe = count_params(model("inference-q5-moe"));
  CHECK(moe.total - moe.router == 211658735616);
  CHECK(moe.active - moe.router == 31270109184);
  CHECK(moe.router == 64 * 16 * 4096);
  CHECK(moe.total == Approx(212e9).epsilon(0.01));
  CHECK(moe.active == Approx(31.2e9).epsilon(0.01));
  CHECK(moe.total / dense.total == Approx(12).epsilon(0.1));  // book: "about 12x"
}

TEST_CASE("DeepSeek-V3 counts 671e9 parameters and about 37e9 active", "[models]") {
  ParamCounts p = count_params(model("deepseek-v3"));
  // By hand: MLA 187,105,280 per layer x 61; 3 dense layers of 3 x 7168 x 18432; 58 MoE layers
  // of 257 experts of 3 x 7168 x 2048 and a 256 x 7168 router; 2 x 129280 x 7168 embeddings;
  // norms 61 x (2 x 7168 + 1536 + 512) + 7168.
  CHECK(p.attention_layer == 187105280);
  CHECK(p.total == 671026404352);
  CHECK(p.active == 37552282624);
  CHECK(p.total == Approx(671e9).epsilon(0.001));  // DeepSeek's published total
  // Chapter 4, Question 7 takes 37e9 activated; DeepSeek's 36.6e9 leaves out the input embedding.
  CHECK(p.active == Approx(37e9).epsilon(0.02));
  CHECK(p.active - 129280.0 * 7168 == Approx(36.6e9).epsilon(0.001));
}

TEST_CASE("Gemma counts with tied embeddings and its own norms", "[models]") {
  // Hand counts from the configs: 28 x (2 x 3072 x 256 x 32 + 3 x 3072 x 24576) + 256000 x 3072
  // + (28 x 2 + 1) x 3072; the model card says 8.54e9.
  CHECK(count_params(model("gemma-7b")).total == 8537680896);
  // 46 x (2 x 4608 x 128 x 48 + 3 x 4608 x 36864) + 256000 x 4608 + (46 x 4 + 1) x 4608: 27.2e9.
  CHECK(count_params(model("gemma-2-27b")).total == 27227128320);
}

TEST_CASE("attention kinds follow K and the latent width", "[models]") {
  CHECK(std::string(to_string(attention_kind(model("llama-2-13b")))) == "MHA");
  CHECK(std::string(to_string(attention_kind(model("llama-3-70b")))) == "GQA");
  CHECK(std::string(to_string(attention_kind(model("deepseek-v3")))) == "MLA");
  Model mqa = model("llama-3-8b");
  mqa.K = 1;
  CHECK(std::string(to_string(attention_kind(mqa))) == "MQA");
}

TEST_CASE("a configuration that breaks a rule is an error naming the field", "[models][errors]") {
  check_rule(model("llama-3-70b"), "K", Value::of(12.0), ErrorCode::invalid_argument,
             "K must divide N (64), got 12");
  check_rule(model("llama-3-70b"), "N", Value::of(12.0), ErrorCode::invalid_argument,
             "K must divide N (12), got 8");
  check_rule(model("deepseek-v3"), "experts_per_token", Value::of(300.0), ErrorCode::out_of_range,
             "experts_per_token must be <= E (256), got 300");
  check_rule(model("inference-q5-moe"), "experts_per_token", Value::of(0.0),
             ErrorCode::out_of_range,
             "experts_per_token must be >= 1 for a model with experts (E = 16), got 0");
  check_rule(model("llama-3-8b"), "experts_per_token", Value::of(2.0), ErrorCode::invalid_argument,
             "experts_per_token needs experts, but E is 0; got 2");
  check_rule(model("llama-3-8b"), "shared_experts", Value::of(1.0), ErrorCode::invalid_argument,
             "shared_experts needs experts, but E is 0; got 1");
  check_rule(model("deepseek-v3"), "dense_layers", Value::of(62.0), ErrorCode::out_of_range,
             "dense_layers must be <= L (61), got 62");
  check_rule(model("llama-3-8b"), "q_rank", Value::of(1536.0), ErrorCode::invalid_argument,
             "q_rank needs latent attention, but kv_rank is 0; got 1536");
}

TEST_CASE("set_model_field takes numbers for sizes and yes or no for switches", "[models]") {
  Model m = model("llama-3-70b");
  CHECK(set_model_field(m, "tied", Value::of("yes")));
  CHECK(m.tied);
  CHECK_FALSE(set_model_field(m, "tied", Value::of("maybe")));
  CHECK_FALSE(set_model_field(m, "tied", Value::of(1.0)));
  CHECK_FALSE(set_model_field(m, "D", Value::of("8192")));
  CHECK_FALSE(set_model_field(m, "width", Value::of(1.0)));
  CHECK(count_params(m).embedding == 128256.0 * 8192);
}
