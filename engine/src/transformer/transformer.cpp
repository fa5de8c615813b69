#include "scalebook/transformer/transformer.h"

#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/transformer/model_preset.h"
#include "transformer_parts.h"

namespace scalebook {
namespace {

using transformer_parts::Setup;
using transformer_parts::Sheet;

// Helpers take literals and build each string once, in one place (core/schema.h says why).
InputSpec choice(const char* name, const char* description, Value fallback,
                 std::initializer_list<const char*> choices) {
  InputSpec spec{name, InputKind::choice, "", description, std::move(fallback)};
  spec.choices.assign(choices.begin(), choices.end());
  return spec;
}

InputSpec choice(const char* name, const char* description, Value fallback,
                 const std::vector<std::string>& choices) {
  InputSpec spec{name, InputKind::choice, "", description, std::move(fallback)};
  spec.choices = choices;
  return spec;
}

InputSpec count(const char* name, const char* unit, const char* description, Value fallback,
                double min, double max) {
  return {name, InputKind::count, unit, description, std::move(fallback), min, false, max};
}

std::vector<InputSpec> inputs() {
  std::vector<InputSpec> list = {
      model_input("llama-3-70b"),
      labelled(count("B", "sequences", "batch of sequences", Value::of(1024.0), 1, 1e9), "Batch B"),
      labelled(
          count("T", "tokens", "tokens per sequence (query length; S = T in training and prefill)",
                Value::of(4096.0), 1, 1e9),
          "Sequence length T"),
      labelled(count("S", "tokens", "context length for the KV cache and decode (default: T)",
                     Value::none(), 1, 1e9),
               "Context length S"),
      labelled(
          choice("causal", "count half the dot-product attention FLOPs (a causal-masking kernel)",
                 Value::of("no"), {"yes", "no"}),
          "Causal attention", InputGroup::advanced),
      labelled(choice("remat", "activation checkpointing policy", Value::of("none"),
                      transformer_parts::remat_policies()),
               "Remat policy", InputGroup::main,
               {"None", "Save big matmuls", "Save FFW matmuls", "Save layer inputs"}),
      labelled({"checkpoints", InputKind::number, "",
                "D-wide tensors saved per token per layer, overriding remat's count for the memory",
                Value::none(), 0, false, 1e4},
               "Checkpoints per layer", InputGroup::advanced),
      labelled(
          choice("optimizer", "optimizer: adam keeps 2 values per parameter, momentum 1, sgd none",
                 Value::of("adam"), {"adam", "momentum", "sgd"}),
          "Optimizer", InputGroup::main, {"Adam", "Momentum", "SGD"}),
      dtype_input("dtype", "Dtype", "number format of weights, activations and KV cache",
                  Value::of("bf16")),
      dtype_input("dtype_weights", "Weights dtype",
                  "format of the weights and gradients (default: dtype)", Value::none()),
      dtype_input("dtype_activations", "Activations dtype",
                  "format of the activations (default: dtype)", Value::none()),
      dtype_input("dtype_kv", "KV cache dtype", "format of the KV cache (default: dtype)",
                  Value::none()),
      dtype_input("dtype_optimizer", "Optimizer dtype", "format of the optimizer state",
                  Value::of("fp32")),
      chip_input(),
  };
  for (InputSpec& spec : model_field_inputs()) list.push_back(std::move(spec));
  for (InputSpec& spec : chip_override_inputs(false)) list.push_back(spec);
  return list;
}

std::vector<OutputSpec> outputs() {
  return {
      {"attention", "", "attention kind: MHA, GQA, MQA or MLA", true, "Attention kind"},
      {"G", "", "query heads per key/value head, N / K", false, "Query heads per KV head"},
      {"tokens", "tokens", "tokens per step, B T", false, "Tokens per step"},
      {"params_attention_layer", "params", "attention projections of one layer", false,
       "Attention params per layer"},
      {"params_mlp_layer", "params", "MLP of one layer (an MoE layer's, every expert)", false,
       "MLP params per layer"},
      {"params_attention", "params", "attention projections, all layers", false,
       "Attention params"},
      {"params_mlp", "params", "MLPs, all layers and experts (no router)", false, "MLP params"},
      {"params_router", "params", "MoE routers, E x D per MoE layer", false, "Router params"},
      {"params_embedding", "params", "embedding and unembedding: DV tied, 2DV untied", false,
       "Embedding params"},
      {"params_norm", "params", "norm weights", false, "Norm params"},
      {"params", "params", "total parameters", false, "Parameters"},
      {"params_active", "params", "parameters one token uses (total less skipped experts)", false,
       "Active parameters"},
      {"attention_param_fraction", "", "attention projections' share of the parameters", false,
       "Attention share of params"},
      {"mlp_param_fraction", "", "the MLPs' share of the parameters", false, "MLP share of params"},
      {"flops_mlp", "FLOP", "forward FLOPs per token: MLPs (active experts, router)", false,
       "MLP FLOPs per token"},
      {"flops_projections", "FLOP", "forward FLOPs per token: Q, K, V and O projections", false,
       "Projection FLOPs per token"},
      {"flops_attention", "FLOP", "forward FLOPs per token: dot-product attention over T keys",
       false, "Attention FLOPs per token"},
      {"flops_unembed", "FLOP", "forward FLOPs per token: the unembedding, 2DV", false,
       "Unembedding FLOPs per token"},
      {"flops_forward", "FLOP", "forward FLOPs per token", false, "Forward FLOPs per token"},
      {"flops_backward", "FLOP", "backward FLOPs per token, 2x forward", false,
       "Backward FLOPs per token"},
      {"flops_training", "FLOP", "training FLOPs per token, 3x forward", false,
       "Training FLOPs per token"},
      {"flops_6p", "FLOP", "the book's rule: 6 x active parameters per token", false,
       "6P FLOPs per token"},
      {"flops_training_remat", "FLOP", "training FLOPs per token with remat's recomputation", false,
       "Remat training FLOPs per token"},
      {"flops_step_forward", "FLOP", "forward FLOPs for B T tokens", false,
       "Forward FLOPs per step"},
      {"flops_step_training", "FLOP", "training FLOPs for B T tokens", false,
       "Training FLOPs per step"},
      {"flops_step_training_remat", "FLOP", "training FLOPs for B T tokens with remat", false,
       "Remat training FLOPs per step"},
      {"attention_ratio", "", "dot-product attention FLOPs over the matmuls' (MLP, projections)",
       false, "Attention-to-matmul ratio"},
      {"attention_share", "",
       "dot-product attention's share of the layers' FLOPs (MLP, projections, attention)", false,
       "Attention share of FLOPs"},
      {"crossover_matmuls", "tokens",
       "T where dot-product attention FLOPs equal the MLPs' and "
       "projections' (8D for F = 4D, NH = D, K = N)",
       false, "Crossover with matmuls"},
      {"crossover_mlp", "tokens", "T where dot-product attention FLOPs equal the MLPs'", false,
       "Crossover with MLP"},
      {"crossover_projections", "tokens",
       "T where dot-product attention FLOPs equal the projections' (2D for MHA, NH = D)", false,
       "Crossover with projections"},
      {"kv_bytes_per_token", "B", "KV cache per token, all layers", false, "KV cache per token"},
      {"kv_bytes_per_sequence", "B", "KV cache of one sequence of S tokens", false,
       "KV cache per sequence"},
      {"kv_cache_bytes", "B", "KV cache of B sequences of S tokens", false, "KV cache"},
      {"act_layer_none", "B", "activations saved per layer for B T tokens, no remat", false,
       "Layer activations, no remat"},
      {"act_layer_big_matmuls", "B", "activations saved per layer, saving the 7 big matmul outputs",
       false, "Layer activations, big matmuls"},
      {"act_layer_ffw_matmuls", "B",
       "activations saved per layer, saving the MLP's 3 matmul outputs", false,
       "Layer activations, FFW matmuls"},
      {"act_layer_block", "B", "activations saved per layer, saving only the layer input", false,
       "Layer activations, block"},
      {"act_layer", "B", "activations saved per layer under remat (or checkpoints)", false,
       "Layer activations"},
      {"activation_bytes", "B", "activations saved, all layers", false, "Activations"},
      {"weight_bytes", "B", "weights", false, "Weights"},
      {"gradient_bytes", "B", "gradients", false, "Gradients"},
      {"optimizer_bytes", "B", "optimizer state", false, "Optimizer state"},
      {"training_bytes", "B", "weights, gradients, optimizer state and activations", false,
       "Training memory"},
      {"critical_intensity", "FLOP/B", "the chip's peak FLOP/s over its HBM bandwidth", false,
       "Critical intensity"},
      {"mlp_intensity_prefill", "FLOP/B",
       "one MLP weight matmul over B T tokens (an MoE layer's experts)", false,
       "MLP intensity, prefill"},
      {"mlp_intensity_decode", "FLOP/B", "one MLP weight matmul over B tokens (decode)", false,
       "MLP intensity, decode"},
      {"mlp_critical_tokens", "tokens",
       "tokens per step above which a dense MLP is compute-bound (tokens much less than D, F)",
       false, "MLP critical tokens"},
      {"moe_critical_tokens", "tokens",
       "tokens per step above which the experts are compute-bound, E / k times more; none if "
       "dense",
       false, "MoE critical tokens"},
      {"mlp_bound_prefill", "", "the MLP in prefill and training: compute or memory", true,
       "MLP bound, prefill"},
      {"mlp_bound_decode", "", "the MLP in decode: compute or memory", true, "MLP bound, decode"},
      {"attention_intensity_prefill", "FLOP/B",
       "dot-product attention with S = T (prefill, training); none for MLA", false,
       "Attention intensity, prefill"},
      {"attention_intensity_decode", "FLOP/B",
       "dot-product attention of one new token over S keys; none for MLA", false,
       "Attention intensity, decode"},
      {"attention_critical_T", "tokens", "T above which prefill attention is compute-bound", false,
       "Attention critical T"},
      {"attention_critical_S", "tokens",
       "S above which decode attention is compute-bound; none if never", false,
       "Attention critical S"},
      {"attention_decode_limit", "FLOP/B", "decode attention's intensity as S grows", false,
       "Decode attention limit"},
      {"attention_bound_prefill", "", "attention in prefill: compute or memory", true,
       "Attention bound, prefill"},
      {"attention_bound_decode", "", "attention in decode: compute or memory", true,
       "Attention bound, decode"},
      {"peak_flops", "FLOP/s", "peak FLOP/s of the compute dtype", false, "Peak FLOP/s"},
      {"hbm_bandwidth", "B/s", "HBM bandwidth used", false, "HBM bandwidth"},
      // The model's shape as numbers, so an exercise can print the fields it asks about.
      {"layers", "layers", "the model's layers, L", false, "Layers L"},
      {"d_model", "", "model width, D", false, "Model width D"},
      {"d_ff", "", "MLP width, F", false, "MLP width F"},
      {"heads", "heads", "query heads, N", false, "Query heads N"},
      {"kv_heads", "heads", "key/value heads, K", false, "Key/value heads K"},
      {"head_dim", "", "head width, H", false, "Head width H"},
      {"vocab", "tokens", "vocabulary, V", false, "Vocabulary V"},
  };
}

const Schema& transformer_schema() {
  static const Schema s{
      "transformer",
      "chapter 4's Transformer accounting: parameters, FLOPs, KV cache, activation and "
      "training memory, and the roofline of its blocks, for a model from the catalog or "
      "your own",
      inputs(),
      outputs(),
      {{"blocks",
        "the contractions of one layer (an MoE layer for a model with experts), as chapter 4's "
        "layer figure draws them",
        transformer_parts::block_columns()}}};
  return s;
}

double optimizer_states(std::string_view optimizer) {
  if (optimizer == "adam") return 2;
  return optimizer == "momentum" ? 1 : 0;
}

Result<Setup> read_setup(const ResolvedInputs& in) {
  Setup s;
  s.model = model_of(in);
  s.params = count_params(*s.model);
  s.B = in.number("B");
  s.T = in.number("T");
  s.S = in.has("S") ? in.number("S") : s.T;
  s.causal = in.text("causal") == "yes";
  auto dtype_of = [&](const char* name, Dtype fallback) {
    return in.has(name) ? *parse_dtype(in.text(name)) : fallback;
  };
  Dtype base = *parse_dtype(in.text("dtype"));
  Dtype weights = dtype_of("dtype_weights", base);
  Dtype activations = dtype_of("dtype_activations", base);
  // The wider of the two sets the FLOP rate: int8 weights are upcast to bf16 activations.
  Dtype compute =
      bytes_per_element(weights) > bytes_per_element(activations) ? weights : activations;
  s.w = bytes_per_element(weights);
  s.a = bytes_per_element(activations);
  s.kv = bytes_per_element(dtype_of("dtype_kv", base));
  s.opt = bytes_per_element(*parse_dtype(in.text("dtype_optimizer")));
  s.compute_dtype = compute;
  s.optimizer = in.text("optimizer");
  s.optimizer_states = optimizer_states(s.optimizer);
  s.remat = in.text("remat");
  s.has_checkpoints = in.has("checkpoints");
  s.checkpoints = in.number("checkpoints");
  Result<ChipNumbers> hw = resolve_chip(in, compute);
  if (!hw.ok()) return hw.error();
  s.peak_flops = hw.value().peak_flops;
  s.hbm_bandwidth = hw.value().hbm_bandwidth;
  return s;
}

std::optional<Error> compute_transformer(const ResolvedInputs& in, ResultBuilder& out) {
  Result<Setup> setup = read_setup(in);
  if (!setup.ok()) return setup.error();
  const Setup& s = setup.value();
  Sheet sheet(out);
  transformer_parts::add_params(s, sheet);
  transformer_parts::add_flops(s, sheet);
  transformer_parts::add_memory(s, sheet);
  transformer_parts::add_roofline(s, sheet);
  const Model& m = *s.model;
  for (auto [name, value] : {std::pair{"layers", m.L},
                             {"d_model", m.D},
                             {"d_ff", m.F},
                             {"heads", m.N},
                             {"kv_heads", m.K},
                             {"head_dim", m.H},
                             {"vocab", m.V}})
    sheet.set(name, value);
  if (sheet.tables()) transformer_parts::add_blocks(s, sheet);
  return std::nullopt;
}

}  // namespace

namespace transformer_parts {

Step Sheet::step(std::string_view output, std::string label, std::string latex, double value,
                 std::string_view unit, std::initializer_list<std::string_view> depends) {
  std::vector<std::string> names;
  for (std::string_view name : depends)
    if (!name.empty()) names.emplace_back(name);
  return {std::move(label),  std::move(latex),    value,
          std::string(unit), std::string(output), std::move(names)};
}

const std::vector<std::string>& remat_policies() {
  static const std::vector<std::string> policies = {"none", "big-matmuls", "ffw-matmuls", "block"};
  return policies;
}

std::string times(std::initializer_list<double> factors) {
  std::string out;
  for (double f : factors) out += (out.empty() ? "" : " \\cdot ") + latex_number(f);
  return out;
}

}  // namespace transformer_parts

Calculator transformer_calculator() { return {transformer_schema(), compute_transformer}; }

}  // namespace scalebook
