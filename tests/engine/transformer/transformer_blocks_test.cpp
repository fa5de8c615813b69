// The transformer calculator's `blocks` list (the contractions of one layer, for the layer
// picture) against chapter 4's tables: each matmul's parameters and 6 x params x tokens
// training FLOPs, dot-product attention's 12 B T^2 N H, and the sums the totals report.
#include <string>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Calculation tf(Inputs in) { return run("transformer", in); }

Value num(double x) { return Value::of(x); }

Value text(const char* t) { return Value::of(t); }

const Table& blocks(const Calculation& c) {
  for (const auto& [name, table] : c.tables) {
    if (name == "blocks") return table;
  }
  FAIL("no blocks table");
  static Table none;
  return none;
}

size_t column(const Table& t, const std::string& name) {
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i] == name) return i;
  }
  FAIL("no column " << name);
  return 0;
}

const std::vector<Value>& row(const Table& t, const std::string& id) {
  size_t block = column(t, "block");
  for (const std::vector<Value>& r : t.rows) {
    if (r[block].text == id) return r;
  }
  FAIL("no block " << id);
  static std::vector<Value> none;
  return none;
}

double cell(const Table& t, const std::string& id, const std::string& name) {
  return row(t, id)[column(t, name)].number;
}

std::string text_cell(const Table& t, const std::string& id, const std::string& name) {
  return row(t, id)[column(t, name)].text;
}

std::vector<std::string> ids(const Table& t) {
  std::vector<std::string> out;
  for (const std::vector<Value>& r : t.rows) out.push_back(r[column(t, "block")].text);
  return out;
}

double sum(const Table& t, const std::string& group, const std::string& name) {
  double total = 0;
  for (const std::vector<Value>& r : t.rows) {
    if (r[column(t, "group")].text == group) total += r[column(t, name)].number;
  }
  return total;
}

}  // namespace

TEST_CASE("a dense GQA layer lists its seven matmuls and two dot products", "[transformer]") {
  // LLaMA 3 70B: D 8192, F 28672, N 64, K 8, H 128, 80 layers; B 2 sequences of T 1024.
  Calculation c = tf({{"model", text("llama-3-70b")}, {"B", num(2)}, {"T", num(1024)}});
  const Table& t = blocks(c);
  CHECK(ids(t) == std::vector<std::string>{"q", "k", "v", "qk", "av", "o", "in1", "in2", "out"});
  CHECK(cell(t, "q", "params") == 8192.0 * 64 * 128);  // DNH
  CHECK(cell(t, "k", "params") == 8192.0 * 8 * 128);   // DKH
  CHECK(cell(t, "in1", "params") == 8192.0 * 28672);   // DF
  CHECK(cell(t, "qk", "params") == 0);
  // Training FLOPs of one layer for the step: 6 B T x the weight's parameters.
  CHECK(cell(t, "q", "flops_training") == 6.0 * 2 * 1024 * 8192 * 64 * 128);
  CHECK(cell(t, "out", "flops_training") == 6.0 * 2 * 1024 * 8192 * 28672);
  // Dot products: 6 B T S N H each (S = T), 12 B T^2 N H together.
  CHECK(cell(t, "qk", "flops_training") + cell(t, "av", "flops_training") ==
        12.0 * 2 * 1024 * 1024 * 64 * 128);
  CHECK(text_cell(t, "q", "left") == "B,T,D");
  CHECK(text_cell(t, "q", "right") == "D,N,H");
  CHECK(text_cell(t, "q", "out_size") == "2 \xC3\x97 1024 \xC3\x97 64 \xC3\x97 128");
  CHECK(text_cell(t, "qk", "left") == "B,T,K,G,H");
  CHECK(text_cell(t, "qk", "out") == "B,T,S,K,G");
  CHECK(text_cell(t, "qk", "left_size") ==
        "2 \xC3\x97 1024 \xC3\x97 8 \xC3\x97 8 \xC3\x97 128");  // G = 64 / 8
  CHECK(text_cell(t, "in2", "formula") == "6BTDF");
  // The rows add up to the totals, per layer and (times L) per token.
  CHECK(sum(t, "attention", "params") == output(c, "params_attention_layer"));
  CHECK(sum(t, "mlp", "params") == output(c, "params_mlp_layer"));
  CHECK(80 * sum(t, "attention", "flops_token") == output(c, "flops_projections"));
  CHECK(80 * sum(t, "mlp", "flops_token") == output(c, "flops_mlp"));
  CHECK(80 * sum(t, "dot-product", "flops_token") == output(c, "flops_attention"));
}

TEST_CASE("a plain MLP has two matrices and a causal mask halves the dot products",
          "[transformer]") {
  Calculation c = tf({{"model", text("transformers-q1")},
                      {"gated", text("no")},
                      {"causal", text("yes")},
                      {"T", num(8192)}});
  const Table& t = blocks(c);
  CHECK(ids(t) == std::vector<std::string>{"q", "k", "v", "qk", "av", "o", "in", "out"});
  CHECK(cell(t, "qk", "flops_token") == 0.5 * 2 * 8192 * 4096);  // half of 2 T N H
  CHECK(text_cell(t, "qk", "formula") ==
        "\xC2\xBD\xC2\xB7"
        "6BTSNH");
  CHECK(64 * sum(t, "dot-product", "flops_token") == output(c, "flops_attention"));
}

TEST_CASE("an MoE layer lists the router and every expert, running k of them per token",
          "[transformer]") {
  // Chapter 7's MoE: E 16 experts of the dense MLP (D 4096, F 16384), k 2, no shared ones.
  Calculation c = tf({{"model", text("inference-q5-moe")}});
  const Table& t = blocks(c);
  CHECK(ids(t) ==
        std::vector<std::string>{"q", "k", "v", "qk", "av", "o", "router", "in1", "in2", "out"});
  CHECK(cell(t, "in1", "params") == 16.0 * 4096 * 16384);
  CHECK(cell(t, "in1", "flops_token") == 2.0 * 2 * 4096 * 16384);
  CHECK(cell(t, "router", "params") == 16.0 * 4096);
  CHECK(text_cell(t, "in1", "right") == "E,D,F");
  CHECK(text_cell(t, "out", "left") == "B,T,k,F");
  CHECK(sum(t, "mlp", "params") == output(c, "params_mlp_layer") + 16.0 * 4096);
  CHECK(64 * sum(t, "mlp", "flops_token") == output(c, "flops_mlp"));
}

TEST_CASE("latent attention lists DeepSeek-V3's five projections", "[transformer]") {
  Calculation c = tf({{"model", text("deepseek-v3")}});
  const Table& t = blocks(c);
  CHECK(ids(t) == std::vector<std::string>{"q_down", "q", "kv_down", "k", "v", "qk", "av", "o",
                                           "router", "in1", "in2", "out"});
  CHECK(sum(t, "attention", "params") == output(c, "params_attention_layer"));
  CHECK(61 * sum(t, "attention", "flops_token") == output(c, "flops_projections"));
  CHECK(61 * sum(t, "dot-product", "flops_token") == output(c, "flops_attention"));
  CHECK(text_cell(t, "in1", "right") == "E+E_s,D,F");
  CHECK(cell(t, "in1", "params") == 257.0 * 7168 * 2048);
  CHECK(cell(t, "in1", "flops_token") == 9.0 * 2 * 7168 * 2048);  // 8 routed + 1 shared
}

TEST_CASE("attention's share of the layer FLOPs is one half at the crossover", "[transformer]") {
  Calculation c = tf({{"model", text("transformers-q1")}, {"T", num(8 * 4096)}});
  CHECK(output(c, "crossover_matmuls") == 8 * 4096);
  CHECK(output(c, "attention_share") == Approx(0.5).epsilon(1e-12));
  Calculation short_context = tf({{"model", text("transformers-q1")}, {"T", num(4096)}});
  CHECK(output(short_context, "attention_share") == Approx(1.0 / 9).epsilon(1e-12));  // T / 8D
}

// The layer picture calculates without steps and draws this list, so that path keeps it.
TEST_CASE("the numbers-only calculation lists the same blocks", "[transformer]") {
  Inputs in = {{"model", text("deepseek-v3")}};
  Calculation explained = tf(in);
  Result<Calculation> bare = calculate("transformer", in, {.explain = false});
  REQUIRE(bare.ok());
  const Table& a = blocks(explained);
  const Table& b = blocks(bare.value());
  CHECK(a.columns == b.columns);
  REQUIRE(a.rows.size() == b.rows.size());
  for (size_t r = 0; r < a.rows.size(); ++r) {
    REQUIRE(a.rows[r].size() == b.rows[r].size());
    for (size_t i = 0; i < a.rows[r].size(); ++i) {
      CHECK(a.rows[r][i].kind == b.rows[r][i].kind);
      CHECK(a.rows[r][i].text == b.rows[r][i].text);
      CHECK(a.rows[r][i].number == b.rows[r][i].number);
    }
  }
}
