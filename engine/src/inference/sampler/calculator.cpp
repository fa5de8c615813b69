// The `sampler` calculator: a model, a prompt length and a count of generated tokens; the
// naive loop's FLOPs and bytes against the cached loop's, and both along the way as a table.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/inference/sampler.h"
#include "scalebook/transformer/model_preset.h"

namespace scalebook {
namespace {

constexpr int kRows = 48;  // the table's sampled points along the generation

constexpr auto num = number_output;

std::vector<InputSpec> inputs() {
  std::vector<InputSpec> list = {
      model_input("llama-3-8b"),
      labelled({"P", InputKind::count, "tokens", "prompt tokens", Value::of(1024.0), 1, false, 1e7},
               "Prompt P"),
      labelled(
          {"G", InputKind::count, "tokens", "tokens to generate", Value::of(1024.0), 1, false, 1e7},
          "Generated G"),
      dtype_input("dtype_params", "Weights dtype", "format of the weights", Value::of("bf16")),
      dtype_input("dtype_kv", "KV-cache dtype", "format of the KV cache", Value::of("bf16")),
  };
  for (InputSpec& spec : model_field_inputs()) list.push_back(std::move(spec));
  return list;
}

const Schema& schema() {
  static const Schema s{
      "sampler",
      "chapter 7's two sampling loops: rerunning the whole sequence for every new token against "
      "a prefill and a KV cache, in FLOPs and bytes read",
      inputs(),
      {num("flops_naive", "FLOP", "G passes over P .. P + G - 1 tokens", "FLOPs, naive"),
       num("flops_cached", "FLOP", "a prefill of P, then G - 1 one-token steps", "FLOPs, cached"),
       num("flops_ratio", "x", "naive over cached", "Naive / cached FLOPs"),
       num("bytes_naive", "B", "weights read once per pass", "Bytes read, naive"),
       num("bytes_cached", "B", "weights once per step, and the cache each decode step",
           "Bytes read, cached"),
       num("kv_bytes", "B", "the cache after the last token: P + G - 1 tokens", "KV cache at end"),
       num("kv_bytes_per_token", "B", "2 L K H x bytes", "KV cache per token")},
      {{"curve",
        "both loops' totals after g generated tokens",
        {num("g", "tokens", "tokens generated so far", "Generated"),
         num("flops_naive", "FLOP", "naive loop's FLOPs so far", "FLOPs, naive"),
         num("flops_cached", "FLOP", "cached loop's FLOPs so far", "FLOPs, cached"),
         num("kv_bytes", "B", "the cache so far", "KV cache")}}}};
  return s;
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  const Model& m = *model_of(in);
  if (std::optional<Error> bad = check_model(m)) return bad;
  const double prompt = in.number("P"), g = in.number("G");
  const double w = bytes_per_element(*parse_dtype(in.text("dtype_params")));
  const double kv = bytes_per_element(*parse_dtype(in.text("dtype_kv")));
  const SamplerTotals t = sampler_totals(m, prompt, g, w, kv);
  const double kv_per_token = kv_elements_per_token(m) * kv;
  out.set("flops_naive", t.flops_naive);
  out.set("flops_cached", t.flops_cached);
  out.set("flops_ratio", t.flops_naive / t.flops_cached);
  out.set("bytes_naive", t.bytes_naive);
  out.set("bytes_cached", t.bytes_cached);
  out.set("kv_bytes", t.kv_bytes);
  out.set("kv_bytes_per_token", kv_per_token);
  if (out.explain()) {
    const ParamCounts p = count_params(m);
    const double per_token = matmul_flops_per_token(m, p);
    const double per_key = attention_flops_per_key(m);
    auto n = [](double x) { return latex_number(x); };
    const std::string last = n(prompt + g - 1);
    out.steps({
        {"Per token: matmul FLOPs, and attention FLOPs per key it attends to",
         "2 P_\\text{active} = " + n(per_token) + ", \\quad 4 L N H = " + n(per_key), per_token,
         "FLOP", "flops_naive"},
        {"Naive: every pass reruns all n tokens so far, n = P .. P + G - 1",
         "\\sum_{n=" + n(prompt) + "}^{" + last + "} \\left(" + n(per_token) + " n + " +
             n(per_key) + " \\frac{n^2}{2}\\right) = " + n(t.flops_naive),
         t.flops_naive, "FLOP", "flops_naive"},
        {"Cached: a prefill of P tokens, then one token per step against the cache",
         n(per_token) + " \\cdot " + n(prompt) + " + " + n(per_key) + " \\frac{" + n(prompt) +
             "^2}{2} + \\sum_{n=" + n(prompt + 1) + "}^{" + last + "} \\left(" + n(per_token) +
             " + " + n(per_key) + " n\\right) = " + n(t.flops_cached),
         t.flops_cached, "FLOP", "flops_cached"},
        {"The cache keeps a key and a value per head per layer for every token",
         "2 L K H \\cdot b_\\text{kv} \\cdot (P + G - 1) = " + n(kv_per_token) + " \\cdot " + last +
             " = " + latex_quantity(t.kv_bytes, "B"),
         t.kv_bytes, "B", "kv_bytes"},
    });
  }
  Table curve = empty_table(schema().tables[0]);
  const int rows = static_cast<int>(std::min<double>(kRows, g));
  double previous = 0;
  for (int i = 1; i <= rows; ++i) {
    const double at = std::max(previous + 1, std::round(g * i / rows));
    previous = at;
    const SamplerTotals s = sampler_totals(m, prompt, at, w, kv);
    curve.rows.push_back({Value::of(at), Value::of(s.flops_naive), Value::of(s.flops_cached),
                          Value::of(s.kv_bytes)});
  }
  out.table("curve", std::move(curve));
  return std::nullopt;
}

}  // namespace

Calculator sampler_calculator() { return {schema(), compute}; }

}  // namespace scalebook
