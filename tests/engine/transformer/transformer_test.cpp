// The transformer calculator against chapter 4's answers (problems/transformers.json) and the
// later chapters' counts for the same models. Exact values are pinned; the book's rounded
// number sits beside each with the tolerance its problem file gives.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "helpers.h"
#include "scalebook/transformer/models.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Calculation tf(Inputs in) { return run("transformer", in); }

Value num(double x) { return Value::of(x); }

Value text(const char* t) { return Value::of(t); }

// The book's "T > 8D" model: F = 4D, N H = D, K = N (one layer, a one-token vocabulary: the
// crossover does not depend on either).
Inputs eight_d_model(double D) {
  return {{"model", text("custom")}, {"L", num(1)},   {"D", num(D)}, {"F", num(4 * D)},
          {"N", num(D / 128)},       {"H", num(128)}, {"V", num(1)}};
}

// A v5e whose ridge is exactly the book's 240 FLOP/B.
Inputs with_ridge_240(Inputs in) {
  in["hbm_bandwidth"] = num(1.97e14 / 240);
  return in;
}

}  // namespace

TEST_CASE("transformer follows chapters 1 to 3's calculators in the registry", "[transformer]") {
  // Later chapters (training, ...) register after it.
  std::vector<std::string> names = calculator_names();
  auto at = [&](const std::string& name) { return std::find(names.begin(), names.end(), name); };
  REQUIRE(at("transformer") != names.end());
  CHECK(at("sharded-matmul") < at("transformer"));
  CHECK(at("collective") < at("transformer"));
}

TEST_CASE("chapter 4, Question 1: parameters, attention's share and KV bytes per token",
          "[transformer]") {
  Calculation c = tf({{"model", text("transformers-q1")}, {"dtype_kv", text("int8")}});
  CHECK(output(c, "params") == 17442275328);  // book 16e9 (rounding 4096 to 4e3), tol 0.1
  CHECK(output(c, "params") == Approx(16e9).epsilon(0.1));
  CHECK(output(c, "attention_param_fraction") == Approx(0.2462).epsilon(0.001));
  CHECK(output(c, "attention_param_fraction") == Approx(0.25).epsilon(0.02));  // book 1/4
  CHECK(output(c, "kv_bytes_per_token") == 524288);                            // book 512 kB
  CHECK(output_value(c, "attention").text == "MHA");
}

TEST_CASE("attention's FLOPs overtake the matmuls' at T = 8D", "[transformer]") {
  Calculation big = tf(eight_d_model(8192));
  CHECK(output(big, "crossover_matmuls") == 65536);  // transformers-ex1: book ~64k, tol 0.05
  CHECK(output(big, "crossover_matmuls") == Approx(64000).epsilon(0.05));
  Calculation gemma = tf(eight_d_model(4608));
  CHECK(output(gemma, "crossover_matmuls") == 36864);  // transformers-ex2: book 37k, tol 0.01
  CHECK(output(gemma, "crossover_matmuls") == Approx(37000).epsilon(0.01));
  Inputs causal = eight_d_model(8192);
  causal["causal"] = text("yes");
  CHECK(output(tf(causal), "crossover_matmuls") == 2 * 65536);
  // At T = 8D the ratio T / 8D is 1.
  Inputs at = eight_d_model(8192);
  at["T"] = num(65536);
  CHECK(output(tf(at), "attention_ratio") == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("Question 5: dot-product attention equals the projections at T = 2D", "[transformer]") {
  CHECK(output(tf(eight_d_model(4096)), "crossover_projections") == 8192);
}

TEST_CASE("Gemma 2 27B's own crossover is not the 8D rule, since its F is 8D and NH < D",
          "[transformer]") {
  // (6DF + 4DH(N + K)) / 4NH = (6 x 4608 x 36864 + 4 x 4608 x 128 x 48) / (4 x 4096).
  CHECK(output(tf({{"model", text("gemma-2-27b")}}), "crossover_matmuls") == 69120);
}

TEST_CASE("activation memory without remat and with block remat (84 TB and 4.2 TB)",
          "[transformer]") {
  Inputs in = {{"model", text("custom")}, {"L", num(64)},   {"D", num(8192)},
               {"F", num(32768)},         {"N", num(64)},   {"H", num(128)},
               {"V", num(32000)},         {"B", num(1000)}, {"T", num(4000)}};
  Calculation none = tf(in);
  CHECK(output(none, "activation_bytes") == 2.0 * 20 * 4e6 * 8192 * 64);  // transformers-ex3
  CHECK(output(none, "activation_bytes") == Approx(84e12).epsilon(0.01));
  in["remat"] = text("block");
  Calculation block = tf(in);
  CHECK(output(block, "activation_bytes") == 2.0 * 4e6 * 8192 * 64);  // transformers-ex4
  CHECK(output(block, "activation_bytes") == Approx(4.2e12).epsilon(0.01));
  CHECK(output(block, "act_layer_none") == output(none, "act_layer"));
}

TEST_CASE("the KV cache of one 8k sequence, 64 layers, KH = 8192, int8 is 8 GiB", "[transformer]") {
  Calculation c = tf({{"model", text("custom")},
                      {"L", num(64)},
                      {"D", num(8192)},
                      {"F", num(32768)},
                      {"N", num(64)},
                      {"H", num(128)},
                      {"V", num(32000)},
                      {"B", num(1)},
                      {"S", num(8192)},
                      {"dtype_kv", text("int8")}});
  CHECK(output(c, "kv_bytes_per_sequence") == 8589934592);  // transformers-ex5
  CHECK(output(c, "kv_cache_bytes") == 8589934592);
}

TEST_CASE("KV caches of the later chapters' models", "[transformer]") {
  CHECK(output(tf({{"model", text("llama-3-70b")}, {"dtype_kv", text("int8")}}),
               "kv_bytes_per_token") == 163840);  // applied-inference: book 160 kB
  Calculation small = tf(
      {{"model", text("llama-3-8b")}, {"dtype", text("int8")}, {"B", num(240)}, {"S", num(8192)}});
  CHECK(output(small, "kv_bytes_per_token") == 65536);     // applied-inference-wp2b
  CHECK(output(small, "kv_cache_bytes") == 128849018880);  // 1.29e11
  Calculation mha = tf({{"model", text("llama-2-13b")}, {"B", num(1)}, {"S", num(8192)}});
  CHECK(output(mha, "kv_bytes_per_token") == 819200);         // inference-we-llama2-13b-kv
  CHECK(output(mha, "kv_bytes_per_sequence") == 6710886400);  // book 6.7e9
  CHECK(output(tf({{"model", text("inference-q5-moe")}, {"dtype_kv", text("int8")}}),
               "kv_bytes_per_token") == 262144);  // inference-q1b and q5d: unchanged by MoE
  // Latent attention caches the 512-wide latent and the 64-wide RoPE key per layer.
  CHECK(output(tf({{"model", text("deepseek-v3")}}), "kv_bytes_per_token") == 61 * 576 * 2);
}

TEST_CASE(
    "Question 4: attention is compute-bound in prefill past 240(G+1)/G tokens, never in "
    "decode",
    "[transformer]") {
  Calculation mha = tf(with_ridge_240({{"model", text("llama-2-13b")}}));
  // transformers-q4b: the book says 240; its own TG/(G+1) gives 480 for MHA (an erratum).
  CHECK(output(mha, "attention_critical_T") == Approx(480).epsilon(1e-12));
  CHECK(output(mha, "attention_intensity_prefill") == Approx(4096.0 / 2).epsilon(1e-12));
  CHECK(output(mha, "attention_decode_limit") == 1);  // -> G
  CHECK(output_value(mha, "attention_critical_S").is_none());
  CHECK(output_value(mha, "attention_bound_decode").text == "memory");
  Calculation gqa = tf({{"model", text("llama-3-70b")}, {"S", num(8192)}});
  CHECK(output(gqa, "attention_intensity_prefill") == Approx(4096.0 * 8 / 9).epsilon(1e-12));
  CHECK(output(gqa, "attention_intensity_decode") ==
        Approx(8192.0 * 8 / (8 + 8192)).epsilon(1e-12));  // SG / (S + G)
  CHECK(output(gqa, "attention_critical_T") == Approx(240.2439 * 9 / 8).epsilon(1e-6));
}

TEST_CASE("decode attention becomes compute-bound only when 2G / b_kv beats the ridge",
          "[transformer]") {
  // N = 1024 query heads on one KV head (G = 1024) with int8 KV: 2G = 2048 > 240.
  Calculation c = tf(with_ridge_240({{"model", text("llama-3-8b")},
                                     {"N", num(1024)},
                                     {"K", num(1)},
                                     {"dtype_kv", text("int8")}}));
  CHECK(output_value(c, "attention").text == "MQA");
  CHECK(output(c, "attention_decode_limit") == 2048);
  double S = output(c, "attention_critical_S");  // 240 x 2 x 1024 / (2048 - 240)
  CHECK(S == Approx(240.0 * 2 * 1024 / (2048 - 240)).epsilon(1e-12));
  CHECK(2 * S * 1024 / (2 * 1024 + S) == Approx(240).epsilon(1e-12));
}

TEST_CASE("Question 8: an MoE needs E / k times the dense batch to be compute-bound",
          "[transformer]") {
  Calculation ds =
      tf(with_ridge_240({{"model", text("deepseek-v3")}, {"dtype_weights", text("int8")}}));
  CHECK(output(ds, "moe_critical_tokens") == 3840);  // transformers-q8b: 120 E / k
  CHECK(output(ds, "mlp_critical_tokens") == 120);
  // With the catalog's v5e (1.97e14 / 8.2e11 = 240.24) the exact figure is a little higher.
  CHECK(output(tf({{"model", text("deepseek-v3")}, {"dtype_weights", text("int8")}}),
               "moe_critical_tokens") == Approx(1.97e14 / 8.2e11 / 2 * 32).epsilon(1e-12));
  // inference-q5c: bf16 weights, 240 E / k = 1920.
  CHECK(output(tf(with_ridge_240({{"model", text("inference-q5-moe")}})), "moe_critical_tokens") ==
        1920);
  CHECK(output_value(tf({}), "moe_critical_tokens").is_none());
}

TEST_CASE("the MLP's intensity counts its weights once for the step's tokens", "[transformer]") {
  Calculation c = tf({{"model", text("llama-3-70b")}, {"B", num(64)}, {"T", num(1)}});
  double D = 8192, F = 28672;
  CHECK(output(c, "mlp_intensity_decode") ==
        Approx(2 * 64 * D * F / (2 * D * F + 2 * 64 * (D + F))).epsilon(1e-12));
  CHECK(output_value(c, "mlp_bound_decode").text == "memory");
  CHECK(output_value(tf({{"B", num(512)}, {"T", num(1)}}), "mlp_bound_decode").text == "compute");
}

TEST_CASE("training FLOPs are 3x forward and match 6 x params at short context", "[transformer]") {
  Calculation c = tf({{"model", text("llama-3-70b")}, {"T", num(1)}, {"B", num(1)}});
  double fwd = output(c, "flops_forward");
  CHECK(output(c, "flops_backward") == 2 * fwd);
  CHECK(output(c, "flops_training") == 3 * fwd);
  // Every weight but the norms and the input embedding (a lookup) is a matmul: 6 per token.
  double matmul_params = output(c, "params") - output(c, "params_norm") - 128256.0 * 8192;
  CHECK(output(c, "flops_training") - 3 * output(c, "flops_attention") == 6 * matmul_params);
  // applied-training-t2: 6 x 70e9 = 4.2e11 per token (the book's 70e9; exact 70.55e9).
  CHECK(output(c, "flops_6p") == Approx(4.2e11).epsilon(0.01));
  CHECK(output(c, "flops_6p") == 6 * output(c, "params"));
}

TEST_CASE("LLaMA 3 405B: FLOPs per token and per 4M-token step", "[transformer]") {
  Calculation c = tf({{"model", text("llama-3-405b")}, {"B", num(1024)}, {"T", num(4096)}});
  CHECK(output(c, "flops_6p") == Approx(2435095461888.0).epsilon(0.005));  // applied-training-q2a
  CHECK(output(c, "flops_6p") * output(c, "tokens") ==
        Approx(10213530636178685952.0).epsilon(0.005));
  // applied-inference-wp1a: 2 x 405e9 forward FLOPs per token; 4 S N H L more for attention.
  Calculation one = tf({{"model", text("llama-3-405b")}, {"B", num(1)}, {"T", num(1)}});
  CHECK(output(one, "flops_forward") == Approx(8.1e11).epsilon(0.02));
  Calculation at8k = tf({{"model", text("llama-3-405b")}, {"T", num(8192)}});
  CHECK(output(at8k, "flops_attention") == 4.0 * 8192 * 128 * 128 * 126);  // ~6.8e10
}

TEST_CASE("remat recomputes: block ~8 P per token, big matmuls the dot products (Question 6)",
          "[transformer]") {
  Inputs in = {{"model", text("llama-3-70b")}, {"T", num(4096)}};
  in["remat"] = text("big-matmuls");
  Calculation big = tf(in);
  // transformers-q6: 4 B T^2 N H per layer more for the step.
  CHECK(output(big, "flops_training_remat") - output(big, "flops_training") ==
        4.0 * 4096 * 64 * 128 * 80);
  CHECK(output(big, "flops_step_training_remat") - output(big, "flops_step_training") ==
        Approx(4.0 * 1024 * 4096 * 4096 * 64 * 128 * 80).epsilon(1e-12));
  in["remat"] = text("block");
  in["T"] = num(1);
  Calculation block = tf(in);
  CHECK(output(block, "flops_training_remat") / output(block, "params") == Approx(8).epsilon(0.03));
  in["remat"] = text("none");
  CHECK(output(tf(in), "flops_training_remat") == output(tf(in), "flops_training"));
}

TEST_CASE("LLaMA 3 70B training memory: bf16 weights, fp32 Adam, 4 checkpoints per layer",
          "[transformer]") {
  Calculation c = tf({{"model", text("llama-3-70b")},
                      {"B", num(1000)},
                      {"T", num(4000)},
                      {"checkpoints", num(4)}});
  double P = output(c, "params");
  CHECK(output(c, "weight_bytes") == 2 * P);     // applied-training-t5: book 140 GB (70e9)
  CHECK(output(c, "optimizer_bytes") == 8 * P);  // book 560 GB
  CHECK(output(c, "weight_bytes") == Approx(140e9).epsilon(0.01));
  CHECK(output(c, "activation_bytes") == 2.0 * 8192 * 4e6 * 4 * 80);  // book 20.9 TB
  CHECK(output(c, "activation_bytes") == Approx(20.9e12).epsilon(0.01));
  double book_total = output(c, "weight_bytes") + output(c, "optimizer_bytes") +
                      output(c, "activation_bytes");  // the book leaves gradients out
  CHECK(book_total == Approx(21.6e12).epsilon(0.01));
  CHECK(output(c, "training_bytes") == book_total + output(c, "gradient_bytes"));
}

TEST_CASE("LLaMA 2 13B saving the 3 FFW matmul outputs needs 42 TB for 16M tokens",
          "[transformer]") {
  Calculation c = tf({{"model", text("llama-2-13b")},
                      {"B", num(1000)},
                      {"T", num(16000)},
                      {"remat", text("ffw-matmuls")}});
  CHECK(output(c, "activation_bytes") == 2.0 * 40 * 16e6 * (5120 + 2 * 13824));  // training-q2
  CHECK(output(c, "activation_bytes") == Approx(42e12).epsilon(0.01));
  CHECK(output(c, "weight_bytes") + output(c, "optimizer_bytes") == Approx(130e9).epsilon(0.01));
  Calculation sgd = tf({{"model", text("llama-2-13b")}, {"optimizer", text("sgd")}});
  CHECK(output(sgd, "optimizer_bytes") == 0);
  Calculation momentum = tf({{"model", text("llama-2-13b")},
                             {"optimizer", text("momentum")},
                             {"dtype_optimizer", text("bf16")}});
  CHECK(output(momentum, "optimizer_bytes") == 2 * output(momentum, "params"));
}

TEST_CASE("the 7 big matmul outputs are saved at their own widths", "[transformer]") {
  Calculation c = tf({{"model", text("llama-3-70b")}, {"B", num(1)}, {"T", num(1)}});
  // Q: NH, K and V: 2KH, O: D, the MLP: 2F in and D out; 2 bytes each.
  CHECK(output(c, "act_layer_big_matmuls") ==
        2.0 * (64 * 128 + 2 * 8 * 128 + 8192 + 2 * 28672 + 8192));
  CHECK(output(c, "act_layer_ffw_matmuls") == 2.0 * (2 * 28672 + 8192));
  CHECK(output(c, "act_layer_block") == 2.0 * 8192);
}

TEST_CASE("a reader's own model: custom with the shape, or a preset with overrides",
          "[transformer]") {
  Calculation own = tf({{"model", text("custom")},
                        {"L", num(2)},
                        {"D", num(64)},
                        {"F", num(256)},
                        {"N", num(4)},
                        {"H", num(16)},
                        {"V", num(100)}});
  // K = N; gated, untied, two norms per layer and a final one, like LLaMA.
  CHECK(output(own, "params") == 2 * (3 * 64 * 256 + 4 * 64 * 4 * 16 + 2 * 64) + 2 * 100 * 64 + 64);
  CHECK(output_value(own, "attention").text == "MHA");
  Calculation plain = tf({{"model", text("llama-3-70b")},
                          {"K", num(64)},
                          {"gated", text("no")},
                          {"tied", text("yes")}});
  CHECK(output(plain, "params_mlp_layer") == 2.0 * 8192 * 28672);
  CHECK(output(plain, "params_embedding") == 128256.0 * 8192);
  CHECK(output(plain, "kv_bytes_per_token") == 8 * 327680);  // 64 KV heads instead of 8
  Calculation moe =
      tf({{"model", text("inference-q1")}, {"E", num(16)}, {"experts_per_token", num(2)}});
  CHECK(output(moe, "params") - output(moe, "params_router") == 211658735616);
}

TEST_CASE("bad model input is an error naming the field", "[transformer][errors]") {
  check_error(run_error("transformer", {{"model", text("gpt-5")}}), ErrorCode::invalid_argument,
              "model",
              "model must be one of llama-3-70b, llama-3-8b, llama-3-405b, llama-2-13b, gemma-7b, "
              "gemma-2-27b, deepseek-v3, transformers-q1, inference-q1, inference-q5-moe, custom, "
              "got \"gpt-5\"");
  check_error(run_error("transformer", {{"N", num(0)}}), ErrorCode::out_of_range, "N",
              "N must be >= 1, got 0");
  check_error(run_error("transformer", {{"D", num(-4096)}}), ErrorCode::out_of_range, "D",
              "D must be >= 1, got -4096");
  check_error(run_error("transformer", {{"L", num(2.5)}}), ErrorCode::invalid_argument, "L",
              "L must be a whole number, got 2.5");
  check_error(run_error("transformer", {{"K", num(12)}}), ErrorCode::invalid_argument, "K",
              "K must divide N (64), got 12");
  check_error(
      run_error("transformer", {{"model", text("deepseek-v3")}, {"experts_per_token", num(300)}}),
      ErrorCode::out_of_range, "experts_per_token",
      "experts_per_token must be <= E (256), got 300");
  check_error(run_error("transformer", {{"E", num(8)}}), ErrorCode::out_of_range,
              "experts_per_token",
              "experts_per_token must be >= 1 for a model with experts (E = 8), got 0");
  check_error(run_error("transformer", {{"model", text("custom")}, {"L", num(2)}}),
              ErrorCode::invalid_argument, "D",
              "a custom model needs D; give L, D, F, N, H and V (K defaults to N)");
  check_error(run_error("transformer", {{"tied", text("maybe")}}), ErrorCode::invalid_argument,
              "tied", "tied must be one of yes, no, got \"maybe\"");
  check_error(run_error("transformer", {{"T", num(0)}}), ErrorCode::out_of_range, "T",
              "T must be >= 1, got 0");
  check_error(run_error("transformer", {{"checkpoints", num(-1)}}), ErrorCode::out_of_range,
              "checkpoints", "checkpoints must be >= 0, got -1");
}

TEST_CASE("every model's steps name their output, in order, and the outputs are finite",
          "[transformer]") {
  std::vector<std::string> ids = model_ids();
  for (const std::string& id : ids) {
    for (const char* remat : {"none", "big-matmuls", "ffw-matmuls", "block"}) {
      Calculation c =
          tf({{"model", Value::of(id)}, {"remat", text(remat)}, {"causal", text("yes")}});
      INFO(id << " " << remat);
      for (size_t i = 0; i < c.steps.size(); ++i) {
        const Step& step = c.steps[i];
        INFO(step.label);
        CHECK(std::isfinite(step.value));
        CHECK(output(c, step.output) == step.value);
        for (const std::string& dep : step.depends) {
          bool before = false;
          for (size_t j = 0; j < i; ++j) before = before || c.steps[j].output == dep;
          CHECK(before);
        }
      }
      for (const auto& [name, value] : c.outputs) {
        INFO(name);
        if (value.is_number()) CHECK(std::isfinite(value.number));
      }
    }
  }
}

TEST_CASE("the largest inputs stay finite", "[transformer]") {
  Calculation c = tf({{"model", text("custom")},
                      {"L", num(1e5)},
                      {"D", num(1e7)},
                      {"F", num(1e7)},
                      {"N", num(1e5)},
                      {"H", num(1e5)},
                      {"V", num(1e8)},
                      {"E", num(1e5)},
                      {"experts_per_token", num(1e5)},
                      {"B", num(1e9)},
                      {"T", num(1e9)}});
  for (const auto& [name, value] : c.outputs) {
    INFO(name);
    if (value.is_number()) CHECK(std::isfinite(value.number));
  }
}
